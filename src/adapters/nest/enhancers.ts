/**
 * Nest's guards, interceptors and exception filters around tool calls, applied by Nest's own
 * machinery (`ExternalContextCreator`, as @nestjs/graphql and @nestjs/microservices apply them):
 * `@UseGuards`, `@UseInterceptors` and `@UseFilters` on a member's provider class or method, and
 * the app's global ones. A toolwright middleware: it runs after the input checks, around the tool.
 *
 * What a Nest developer reads in docs/guide/nestjs-guards.md:
 * - The execution context's type is `toolwright`; its arguments are laid out as HTTP's
 *   (`switchToHttp().getRequest()` is the platform request that carried the call, so an HTTP guard
 *   works unchanged), and `toolCallOf(context)` is the call (tool, validated input, ambient values).
 * - An HttpException, from a guard (`false` is a ForbiddenException), an interceptor or the member
 *   itself, is an error the model reads, with its message (./exceptions.ts); any other error is an
 *   exception outcome (reported, generic to the model).
 * - Interceptors wrap the call (they see it start and end, may throw); the answer the model sees is
 *   the tool's own Result: an interceptor answering something else fails the call as an exception.
 * - Exception filters observe what guards, interceptors and the tool threw; what they return is
 *   ignored, so a filter cannot put an exception's details in front of the model.
 */
import type { ExecutionContext } from '@nestjs/common';
import type { ApplicationConfig, ExternalContextCreator } from '@nestjs/core';
import { Result, SetupError, type Middleware, type ToolCall, type ToolDefinition } from '../../index';
import type { CallScope } from './call-scope';
import { clientMessage } from './exceptions';

/** The `getType()` of the execution context Nest's enhancers get for a tool call. */
export const TOOL_CALL_CONTEXT = 'toolwright';

const GUARDS = '__guards__';
const INTERCEPTORS = '__interceptors__';
const FILTERS = '__exceptionFilters__';

/** The tool call an enhancer is looking at (`context.getType() === 'toolwright'`); undefined for any other context. */
export function toolCallOf(context: ExecutionContext): ToolCall | undefined {
  if (context.getType<string>() !== TOOL_CALL_CONTEXT) return undefined;
  return context.getArgByIndex<ToolCall>(2);
}

/** What one call carries through Nest's handler. */
interface Passage {
  readonly next: () => Promise<Result>;
  result?: Result;
  thrown?: unknown;
}

type Handler = (...args: unknown[]) => Promise<unknown>;

interface Enhanced {
  /** Guards and interceptors around `next()`, no filters. */
  readonly run: Handler;
  /** The filters alone, around a callback that throws the passage's exception. */
  readonly filter: Handler;
}

function hasEnhancers(target: object): boolean {
  return [GUARDS, INTERCEPTORS, FILTERS].some((key) => ((Reflect.getMetadata(key, target) as unknown[] | undefined)?.length ?? 0) > 0);
}

/**
 * A stand-in for the member's method that Nest calls in its place: it carries the method's own
 * metadata (so `Reflector.get(key, context.getHandler())` reads what the method declares) and passes
 * the call on to the rest of toolwright's pipeline.
 */
function standIn(method: Function, body: (passage: Passage) => Promise<unknown>): Function {
  const fn = function (this: unknown, ...args: unknown[]) {
    return body(args[3] as Passage);
  };
  Object.defineProperty(fn, 'name', { value: method.name });
  for (const key of Reflect.getMetadataKeys(method) as unknown[]) {
    Reflect.defineMetadata(key, Reflect.getMetadata(key, method), fn);
  }
  return fn;
}

/**
 * Enhancers made for each call, in the call's context. When making them fails (a guard's
 * constructor throws, a request-scoped dependency cannot be made), the member's filters made once
 * observe the failure, as Nest's router runs a controller's filters when its request-scoped
 * instances cannot be made.
 */
interface PerCall {
  readonly make: (request: object | undefined) => Promise<Enhanced>;
  readonly filter: Handler;
}

/** A member's enhancers: made once, made for each call, or none. */
type Enhancers = Enhanced | PerCall | null;

const RUN = { guards: true, interceptors: true, filters: false };
const FILTER = { guards: false, interceptors: false, filters: true };

/**
 * The middleware applying Nest's enhancers to calls of members served from a Nest app.
 * `requestOf` answers the platform request of the call running now (undefined in process). The
 * app's global enhancers are read at a member's first call: a member with none of its own, in an
 * app with none, costs one Map lookup per call. `scopeOf` (ToolwrightHost passes its own) names the
 * members whose enhancers are made per call, in Nest's context of the call (request-scoped or
 * transient guards and interceptors, as Nest makes them for a request-scoped controller); without
 * it, or for the others, they are made once.
 */
export function nestEnhancers(
  contexts: ExternalContextCreator,
  config: ApplicationConfig,
  requestOf: (transportRequest?: unknown) => object | undefined,
  scopeOf?: (target: Function) => ((request: object | undefined) => Promise<CallScope>) | undefined,
): Middleware {
  const hasGlobal = () => config.getGlobalGuards().length + config.getGlobalInterceptors().length + config.getGlobalFilters().length > 0;
  const cache = new Map<ToolDefinition, Enhancers>();

  const enhance = (tool: ToolDefinition): Enhancers => {
    const method = (tool.target.prototype as Record<string, unknown>)[tool.method];
    if (typeof method !== 'function') return null;
    const perCall = scopeOf?.(tool.target);
    if (!perCall && !hasGlobal() && !hasEnhancers(tool.target) && !hasEnhancers(method)) return null;
    // Nest reads the class, the module and the method's parameter types from the instance; calls go to the stand-ins.
    const host = Object.create(tool.target.prototype) as object;
    const run = standIn(method, async (passage) => (passage.result = await passage.next()));
    const filter = standIn(method, async (passage) => {
      throw passage.thrown;
    });
    const create = (callback: Function, kinds: typeof RUN, scope?: CallScope) =>
      contexts.create(
        host,
        callback as never,
        tool.method,
        undefined,
        undefined,
        scope?.contextId,
        scope?.inquirerId,
        kinds,
        TOOL_CALL_CONTEXT,
      ) as Handler;
    const make = (scope?: CallScope): Enhanced => ({ run: create(run, RUN, scope), filter: create(filter, FILTER, scope) });
    return perCall ? { make: async (request) => make(await perCall(request)), filter: create(filter, FILTER) } : make();
  };

  /** The member's HttpException as the failure the model reads; any other Result as it is. */
  const answered = (call: ToolCall, result: Result): Result => {
    const message = result.outcome === 'exception' ? clientMessage(result.exception) : undefined;
    return message === undefined ? result : call.fail(message, { standalone: true, cause: result.exception });
  };

  return async function nestEnhancers(call, next) {
    let enhancers = cache.get(call.tool);
    if (enhancers === undefined) cache.set(call.tool, (enhancers = enhance(call.tool)));
    if (enhancers === null) return answered(call, await next());
    const request = requestOf(call.request);
    const passage: Passage = { next };
    const args = [request, undefined, call, passage];
    let filters = enhancers.filter;
    const observe = async (thrown: unknown) => {
      passage.thrown = thrown;
      // Filters see the exception with the call's context; whatever they answer is dropped.
      await filters(...args).catch(() => undefined);
    };
    let answer: unknown;
    try {
      const enhanced = 'make' in enhancers ? await enhancers.make(request) : enhancers;
      filters = enhanced.filter;
      answer = await enhanced.run(...args);
    } catch (error) {
      await observe(error);
      const reason = clientMessage(error);
      if (reason !== undefined) return call.fail(reason, { standalone: true, cause: error });
      throw error;
    }
    const result = passage.result;
    if (result === undefined || answer !== result) {
      // An interceptor answered in the tool's place: the model sees only what the tool answers.
      throw new SetupError(
        `A Nest interceptor on ${call.tool.toolName()} answered ${answer instanceof Result ? 'another Result' : 'a value of its own'} instead of the tool's; toolwright serves only the tool's own answer. Let the interceptor return what next.handle() emits.`,
        { class: call.tool.target, member: call.tool.method },
      );
    }
    if (result.outcome === 'exception') await observe(result.exception);
    return answered(call, result);
  };
}
