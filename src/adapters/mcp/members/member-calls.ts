/**
 * The MCP requests that run a resource, template, prompt or completion, on both protocol
 * revisions: `resources/read` (a fixed URI, else the first visible template whose RFC 6570 matcher,
 * toolwright's own and linear in the URI, matches), `resources/subscribe`/`unsubscribe` (2025-11-25), `prompts/get` and
 * `completion/complete`. Each runs its member through the same preparation as tools/call
 * (member-run.ts) and the invoker pipeline. A member the request may not see answers exactly as
 * one that does not exist.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type GetPromptResult,
  type ReadResourceResult,
  type Result as SdkResult,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Result, ToolDefinition } from '../../../index';
import { climbingVariable, isPlainObject } from '../../../adapter-kit/internal';
import type { McpEra } from './call-context';
import type { McpTracedMethod } from './call-request';
import { completionKey, McpResourceEntry, memberName } from './member-entries';
import { invokePrepared, prepareRun, RunDeps } from './member-run';
import type { MemberRule, MemberSets } from './member-requests';
import { completionOf, failed, promptResultOf, readContentsOf } from './member-results';
import type { ServedMember } from './served-members';
import type { checkReadCache } from '../protocol/list-cache';

/** The longest URI `resources/read` and `resources/subscribe` accept (declared URIs are at most 2,048 characters). */
export const MAX_URI_LENGTH = 8192;
/** The most resources one 2025-11-25 session may subscribe to at once. */
export const MAX_SUBSCRIPTIONS = 1000;

/** What a server instance serves its requests with. */
export interface MemberCallSetup {
  readonly server: Server;
  readonly era: McpEra;
  readonly members: MemberSets;
  readonly allowed: MemberRule;
  readonly deps: RunDeps;
  /** The server stays connected (a 2025-11-25 session, stdio): subscriptions are kept for it. */
  readonly attached: boolean;
  /** One process serves every round (stdio). */
  readonly singleProcess: boolean;
  /** The cache fields of a 2026-07-28 read (../protocol/list-cache.ts). */
  readonly readCache: ReturnType<typeof checkReadCache>;
}

/**
 * Resource-not-found, the same for a hidden URI and an absent one: -32602 with the URI as data (the
 * SDK 2.x answers every revision so, mapping a thrown -32002 to it at its encode seam: SEP-2164;
 * clients also accept -32002).
 */
function notFound(uri: string): ProtocolError {
  return new ResourceNotFoundError(uri);
}

function invalid(message: string, data?: unknown): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message, data);
}

/** The URI of a resources/* request, or a -32602 saying what is wrong with it. */
export function uriOf(method: string, params: unknown): string {
  const uri = isPlainObject(params) ? params.uri : undefined;
  if (typeof uri !== 'string' || uri === '') throw invalid(`Invalid ${method} request: params.uri must be the resource's URI (a string).`);
  if (uri.length > MAX_URI_LENGTH) {
    throw invalid(
      `Invalid ${method} request: the URI is ${uri.length} characters long; this server reads URIs of up to ${MAX_URI_LENGTH}.`,
    );
  }
  return uri;
}

/**
 * The resource a URI names for this request (McpServedResources.find: local members first, the rule
 * asked only about templates that match), its variables refused when one climbs out of its template.
 */
async function findResource(setup: MemberCallSetup, uri: string, ctx: ServerContext) {
  const found = await setup.members.resources.find(uri, (served) => setup.allowed(served, ctx));
  const climbing = found && climbingVariable(found.args);
  if (found && climbing !== undefined) {
    const message = "must not hold a '..' path segment (also not percent-encoded, %2e%2e): a URI may not climb out of its template";
    throw invalid(`Invalid URI variables for ${memberName(found.served.entry.definition)}: ${climbing}: ${message}.`, {
      fieldErrors: [{ field: climbing, message }],
    });
  }
  return found;
}

/**
 * Runs a member for one request: prepared as tools/call is, invoked through the pipeline; on
 * 2026-07-28 a run that stopped at an unanswered ask answers input-required, and one that failed for
 * want of an undeclared client capability answers -32021.
 */
async function runMember(
  setup: MemberCallSetup,
  ctx: ServerContext,
  served: ServedMember,
  args: unknown,
  method: McpTracedMethod,
  target: string,
): Promise<{ result: Result } | { answer: SdkResult }> {
  const { definition } = served.entry;
  const prepared = await prepareRun(
    setup.deps,
    setup.server,
    setup.era,
    ctx,
    definition,
    `${method} ${target}`,
    args,
    memberName(definition),
  );
  if ('fault' in prepared) throw failed(definition, prepared.fault);
  const result = await invokePrepared(setup.deps, prepared, definition, args, method, target);
  const { rounds } = prepared;
  if (rounds?.suspended) {
    const answer = rounds.answer(setup.deps.seal, prepared.binding, setup.singleProcess, (error) => {
      throw failed(definition, error);
    });
    if ('isError' in answer && answer.isError === true) {
      const text = (answer.content as Array<{ text?: string }>)[0]?.text ?? 'The request was stopped.';
      throw new ProtocolError(ProtocolErrorCode.InternalError, text);
    }
    return { answer: answer as SdkResult };
  }
  if (rounds?.missing && !result.ok) throw rounds.missingCapability();
  return { result };
}

/** A failed run as the protocol answers it: bad input -32602 with the field errors; anything else -32603 with the user-facing message. */
function refused(definition: ToolDefinition, what: string, result: Result): ProtocolError {
  if (result.fieldErrors.length > 0) {
    const fields = result.fieldErrors.map(({ field, message }) => `${field}: ${message}`).join('; ');
    return invalid(`Invalid ${what} for ${memberName(definition)}: ${fields}`, {
      fieldErrors: result.fieldErrors.map(({ field, message }) => ({ field, message })),
    });
  }
  return new ProtocolError(ProtocolErrorCode.InternalError, result.message);
}

/**
 * A read's answer with its cache fields: on 2026-07-28 the resource's own `cache`, else the server's
 * `readCache` (a mounted remote resource's too: a remote's own fields are not relayed); on
 * 2025-11-25 none.
 */
function withReadCache(setup: MemberCallSetup, served: ServedMember, answer: ReadResourceResult): ReadResourceResult {
  const { ttlMs, cacheScope, ...rest } = answer as ReadResourceResult & { ttlMs?: unknown; cacheScope?: unknown };
  if (setup.era === 'legacy') return rest;
  return { ...rest, ...setup.readCache.hint(served.entry.definition.resource?.cache, served.scopes.length > 0) };
}

/** resources/read, resources/subscribe and unsubscribe (2025-11-25), prompts/get and completion/complete, for the kinds served. */
export function handleMemberCalls(setup: MemberCallSetup): void {
  const { server, era, members, allowed } = setup;
  const { resources, prompts } = members;
  if (resources.size > 0) {
    server.setRequestHandler('resources/read', async (request, ctx): Promise<ReadResourceResult> => {
      const uri = uriOf('resources/read', request.params);
      const found = await findResource(setup, uri, ctx);
      if (!found) throw notFound(uri);
      const entry = found.served.entry;
      const ran = await runMember(setup, ctx, found.served, found.args, 'resources/read', uri);
      if ('answer' in ran) return withReadCache(setup, found.served, ran.answer as ReadResourceResult);
      if (!ran.result.ok) throw refused(entry.definition, entry.template ? 'URI variables' : 'read', ran.result);
      return withReadCache(setup, found.served, { contents: readContentsOf(entry as McpResourceEntry, uri, ran.result) });
    });
    if (era === 'legacy') {
      server.setRequestHandler('resources/subscribe', async (request, ctx) => {
        const uri = uriOf('resources/subscribe', request.params);
        if (!(await findResource(setup, uri, ctx))) throw notFound(uri);
        // A server of one request (stateless) has no session to tell later: nothing to keep.
        if (!setup.attached) return {};
        const subscribed = resources.subscriptionsOf(server);
        if (!subscribed.has(uri) && subscribed.size >= MAX_SUBSCRIPTIONS) {
          throw invalid(
            `This session already subscribes to ${MAX_SUBSCRIPTIONS} resources, the server's limit; unsubscribe from one first.`,
          );
        }
        subscribed.add(uri);
        // Asked again before each update is sent: a resource the session may no longer see is not announced.
        resources.seenBy(server, async (updated) => (await findResource(setup, updated, ctx)) !== undefined);
        return {};
      });
      server.setRequestHandler('resources/unsubscribe', (request) => {
        const uri = uriOf('resources/unsubscribe', request.params);
        if (setup.attached) resources.subscriptionsOf(server).delete(uri);
        return {};
      });
    }
  }
  if (prompts.size > 0) {
    server.setRequestHandler('prompts/get', async (request, ctx): Promise<GetPromptResult> => {
      const { name, args } = promptParams(request.params);
      const served = prompts.get(name);
      if (!served || !(await allowed(served, ctx))) throw invalid(`Unknown prompt: ${name}`);
      const ran = await runMember(setup, ctx, served, args, 'prompts/get', name);
      if ('answer' in ran) return ran.answer as GetPromptResult;
      if (!ran.result.ok) throw refused(served.entry.definition, 'arguments', ran.result);
      return promptResultOf(served.entry.definition, ran.result);
    });
  }
  if (members.completions.size > 0) {
    server.setRequestHandler('completion/complete', async (request, ctx) => {
      const { ref, argument, context } = request.params;
      let of: ToolDefinition;
      let names: string[];
      let what: string;
      if (ref.type === 'ref/prompt') {
        const served = prompts.get(ref.name);
        if (!served || !(await allowed(served, ctx))) throw invalid(`Unknown prompt: ${ref.name}`);
        of = served.entry.definition;
        names = served.entry.prompt.arguments?.map((arg) => arg.name) ?? [];
        what = `Prompt ${ref.name}`;
      } else {
        const served = resources.get(ref.uri);
        if (!served?.entry.template || !(await allowed(served, ctx))) throw invalid(`Unknown resource template: ${ref.uri}`);
        of = served.entry.definition;
        names = served.entry.template.matcher.variables.map((variable) => variable.name);
        what = `Resource template ${ref.uri}`;
      }
      if (!names.includes(argument.name)) {
        throw invalid(`${what} has no argument '${argument.name}'; its arguments: ${names.join(', ') || 'none'}.`);
      }
      const completion = members.completions.get(completionKey(of, argument.name));
      if (!completion || !(await allowed(completion, ctx))) return { completion: { values: [], total: 0, hasMore: false } };
      const input = { argument: argument.name, value: argument.value, context: context?.arguments ?? {} };
      const ran = await runMember(setup, ctx, completion, input, 'completion/complete', memberName(completion.entry.definition));
      if ('answer' in ran) return ran.answer as never;
      if (!ran.result.ok) throw refused(completion.entry.definition, 'completion request', ran.result);
      return { completion: completionOf(completion.entry.definition, ran.result) };
    });
  }
}

/** The name and arguments of a prompts/get request, or a one-line -32602 saying what is wrong. */
export function promptParams(params: unknown): { name: string; args: Record<string, unknown> } {
  if (!isPlainObject(params) || typeof params.name !== 'string') {
    throw invalid("Invalid prompts/get request: params.name must be the prompt's name (a string).");
  }
  const args = params.arguments ?? {};
  if (!isPlainObject(args)) throw invalid('Invalid prompts/get request: arguments must be an object of named string arguments.');
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string') {
      throw invalid(
        `Invalid prompts/get request: argument '${key}' must be a string (MCP prompt arguments are strings); got ${typeof value}.`,
        {
          fieldErrors: [{ field: key, message: 'must be a string' }],
        },
      );
    }
  }
  return { name: params.name, args };
}
