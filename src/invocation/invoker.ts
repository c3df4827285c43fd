/**
 * The invoker: the one call path for untrusted callers. From the wire to the tool and back as a
 * Result: it never throws for bad input or a business failure.
 */
import { randomUUID } from 'node:crypto';
import { mismatchOf } from '../contract/conforms';
import type { Contract, FieldModel } from '../contract/field-model';
import {
  configuredCompiled,
  configuredGeneratedCode,
  configuredDestructiveApproval,
  configuredMiddleware,
  configuredTimeoutMs,
  ExceptionHandler,
  reportException,
} from './toolwright-config';
import {
  AmbientContextError,
  FieldError,
  InputValidationError,
  ToolApprovalError,
  ToolResolutionError,
  ToolCancelledError,
  ToolTimeoutError,
} from '../errors/errors';
import { Tools, ToolLike } from '../registry/tool-registry';
import type { ToolDefinition } from '../registry/tool-definition';
import { describeValue, isPlainObject } from '../util/describe-value';
import { DEFAULT_MAX_INPUT_DEPTH, formatCount, isTimeoutMs, MAX_INPUT_DEPTH, TIMEOUT_RULE } from '../util/limits';
import { AmbientSource, currentAmbient, readAmbient } from './ambient';
import {
  approvalRule,
  Approver,
  awaitDecision,
  changedError,
  deniedError,
  needsApproval,
  readDecision,
  unavailableError,
} from './approval';
import { ApprovalQuestion, argumentsDigest, questionOf, showArguments } from './approval-question';
import { NEVER_ABORTED, settle } from './deadline';
import { FieldOrder, InputProblems } from './input-problems';
import { inputShapeFine, inputShapeProblem } from './input-shape';
import { contractInstantiator, fieldPreparer, FieldPreparer } from './prepare';
import { hasResidual, residualErrors } from './residual';
import { compiledResidual } from './compiled-residual';
import { GeneratedInput, generatedInput } from './generated-input';
import { checkResolver, defaultResolver, DependencyContainer, resolutionFailure, tsyringeResolver } from './resolve-tool';
import type { ToolResolver } from './resolver';
import { checkOutput } from './rendering';
import { foreignCallee, foreignInput } from './foreign-tool';
import { failureMessage, Result, SettledResult } from './result';
import { checkMiddleware, Middleware, PipelineCall, redactedInput, runPipeline } from './pipeline';
import { TransportName, transportOf } from './transport';
import { hasSensitive, redact } from './redact';
import { deliberateFailure, isAbortError, isInstance } from './thrown';
import { contentOf } from '../content/content';
import { CallContext, ToolContext, toolContext } from './tool-context';
import { CallTrace, telemetryNow, traced } from './tracing';
import type { InvokeOutput } from './tool-output';
import { ContractValidator, contractValidator, inputFieldOrder } from './validation';
import { DeclarationError } from '../errors/declaration-errors';
import { isThenable } from '../util/is-thenable';

export type { ToolContext } from './tool-context';

/** The options of `new Invoker({ ... })`: the container or resolver, how input is checked, time limits, middleware, approvals, tracing. */
export interface InvokerOptions {
  /** The DI container tools resolve from (default: tsyringe's root container). Ignored when `resolver` is given. */
  container?: DependencyContainer;
  /**
   * How the instance a member runs on is made (default: tsyringe, from `container`). See
   * "Resolvers: other containers" in the Dependency injection guide (docs/guide/dependency-injection.md).
   */
  resolver?: ToolResolver;
  /** Refuse undeclared top-level keys with "unknown input: KEY" (default true); false drops them. */
  rejectUndeclaredInputs?: boolean;
  /** Invalid input is a user-facing failure naming each field (default true); false makes it an exception. */
  userFacingInputErrors?: boolean;
  /** Overrides the process-wide `configure({ onException })` for calls through this invoker. */
  onException?: ExceptionHandler;
  /**
   * The time limit, in milliseconds, of calls to tools that declare none (`@Tool({ timeoutMs })`
   * wins); past it the tool's signal is aborted and the call answers "… took longer than N ms".
   * Default: `configure({ defaultTimeoutMs })`, else none.
   */
  defaultTimeoutMs?: number;
  /**
   * How deep input may nest: objects and arrays inside one another, counting the arguments object
   * (default 64). Deeper input is refused before anything else reads it.
   */
  maxInputDepth?: number;
  /**
   * Runs around every call, after its input is validated: `(call, next) => next()`. The first is
   * outermost; `configure({ middleware })` runs outside these. See the call pipeline guide (docs/guide/pipeline.md).
   */
  middleware?: readonly Middleware[];
  /**
   * Tools with the `destructive` hint need a person's approval (as if they declared
   * `approval: 'required'`). Default: `configure({ requireApprovalForDestructive })`, else false.
   */
  requireApprovalForDestructive?: boolean;
  /**
   * A span and metrics per call when `@opentelemetry/api` is installed (default true). Without a
   * registered SDK they are OpenTelemetry's no-ops.
   */
  tracing?: boolean;
  /**
   * Checks input through each contract's compiled path (default true): closures built once per
   * class from its field model. `false` runs the generic path, the reference the compiled one is
   * tested against; both give the same Results. Default: `configure({ compiled })`, else true.
   */
  compiled?: boolean;
}

/** The options of one call (`invoke(tool, args, { ... })`, `invoker.invoke`): its ambient values, container, signal, context handlers and approver. */
export interface CallOptions {
  /**
   * Trusted values for the tool's `@AmbientContext` fields: a Map or an object. Replaces any
   * `withAmbientContext` scope entirely; `{}` means "no ambient values".
   */
  ambientContext?: AmbientSource;
  /**
   * A container for this call only, e.g. a child container with request-scoped registrations
   * (handed to the resolver as `call.container`; the default tsyringe resolver resolves from it).
   */
  container?: DependencyContainer;
  /** A resolver for this call only (default: the invoker's). */
  resolver?: ToolResolver;
  /** The transport's request object, handed to the resolver (`call.request`). */
  request?: unknown;
  signal?: AbortSignal;
  /**
   * Treat `null` on a field that is not nullable as absent: OpenAI strict mode makes every
   * optional field nullable and sends `null` for "left out".
   */
  nullMeansAbsent?: boolean;
  /**
   * What the tool's context can do in this call and who is calling: handlers for `progress`, `log`,
   * `elicit`, `sample` (else `configure({ toolContext })`'s), and the call's identity.
   */
  context?: CallContext;
  /**
   * Which transport the call came through, as middleware, audit records, spans, metrics and the
   * tool's `context.call.transport` all name it (default: `context.transport`, else `inprocess`).
   */
  transport?: TransportName;
  /** The call's id (an MCP request id, a model's tool call id); default a generated UUID. */
  callId?: string;
  /**
   * Asked when the tool needs approval (`@Tool({ approval })`), with the validated call; answer
   * true, false or `{ approved, reason }`. Without it such a call is refused and never runs.
   */
  approve?: Approver;
  /** Where the call sits in a trace: the caller's trace context and span attributes of the transport. */
  trace?: CallTrace;
}

const DROPPED_KEYS = new Set(['ambientContext', 'ambient_context']);

interface AmbientField {
  readonly field: FieldModel;
  readonly key: string;
  readonly required: boolean;
}

/** Everything a call needs, compiled once per tool from its field model. */
interface Plan {
  readonly input: Contract;
  readonly declared: ReadonlySet<string>;
  readonly fields: readonly FieldPreparer[];
  readonly validator: ContractValidator;
  readonly instantiate: (value: unknown) => object;
  readonly ambient: readonly AmbientField[];
  readonly residual: boolean;
  readonly order: FieldOrder;
  readonly output?: Function;
  /** The contract's generated functions (./generated-input.ts): made at the first compiled call, null where none are. */
  generated?: GeneratedInput | null;
}

/** Input the schema or the undeclared-key check refused: the problems so far, and the prepared wire input. */
class RefusedInput {
  constructor(
    readonly wire: Record<string, unknown>,
    readonly problems: InputProblems,
  ) {}
}

/** A call whose input passed every check: what the pipeline runs with. */
interface Prepared {
  readonly input: Record<string, unknown>;
  readonly ambient: AmbientSource | undefined;
  /** The prepared wire input (JSON, ambient fields left out), as `validate` gives it. */
  readonly wire: Record<string, unknown>;
}

/**
 * @internal A call that passed its checks, middleware and approval, handed on instead of run here:
 * `approved` says a person approved it (it needed approval).
 */
export type Dispatch = (admitted: { readonly wire: Record<string, unknown>; readonly approved: boolean }) => Promise<Result>;

const plans = new WeakMap<ToolDefinition, Plan>();

function planFor(tool: ToolDefinition): Plan {
  let plan = plans.get(tool);
  if (!plan) {
    const input = tool.inputContract;
    const output = tool.outputContract;
    // Deriving the schemas now surfaces declaration mistakes before the first call runs.
    tool.outputSchema();
    plan = {
      input,
      declared: new Set(input.inputFields.map((field) => field.name)),
      fields: input.inputFields.map(fieldPreparer),
      validator: contractValidator(input.target, 'input'),
      instantiate: contractInstantiator(input),
      ambient: input.ambientFields.map((field) => ({
        field,
        key: field.ambient!.key,
        required: !field.optional && !field.nullable && field.default === undefined,
      })),
      residual: hasResidual(input.target),
      order: inputFieldOrder(input),
      output: output?.target,
    };
    plans.set(tool, plan);
  }
  return plan;
}

/**
 * Builds an error without capturing a stack trace. Bad input is not a bug: nobody needs the stack,
 * and capturing it costs more than validating the call.
 */
function withoutStack<E extends Error>(make: () => E): E {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** The limits of an Invoker's options, checked when it is built. */
function checkLimits(options: InvokerOptions): void {
  const { defaultTimeoutMs, maxInputDepth } = options;
  if (defaultTimeoutMs !== undefined && !isTimeoutMs(defaultTimeoutMs)) {
    throw new DeclarationError(`Invoker: defaultTimeoutMs must be ${TIMEOUT_RULE}; got ${describeValue(defaultTimeoutMs)}.`);
  }
  if (
    maxInputDepth !== undefined &&
    !(typeof maxInputDepth === 'number' && Number.isInteger(maxInputDepth) && maxInputDepth >= 1 && maxInputDepth <= MAX_INPUT_DEPTH)
  ) {
    throw new DeclarationError(
      `Invoker: maxInputDepth must be a whole number from 1 to ${MAX_INPUT_DEPTH}; got ${describeValue(maxInputDepth)}.`,
    );
  }
  for (const key of ['requireApprovalForDestructive', 'tracing', 'compiled'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'boolean') {
      throw new DeclarationError(`Invoker: ${key} must be true or false; got ${describeValue(options[key])}.`);
    }
  }
}

/**
 * Runs tool calls: validates and coerces the arguments against the input contract, resolves the
 * tool through DI, runs it through the pipeline (middleware, time limits, approvals, tracing), checks
 * what it returns, and answers a `Result` (never throwing for bad input or a business failure).
 * `invoke()` uses a default one; every transport uses one.
 */
export class Invoker {
  private readonly options: Required<Pick<InvokerOptions, 'rejectUndeclaredInputs' | 'userFacingInputErrors' | 'maxInputDepth'>> &
    InvokerOptions;

  private readonly middleware: readonly Middleware[];

  private readonly resolver: ToolResolver;

  constructor(options: InvokerOptions = {}) {
    checkLimits(options);
    checkResolver('Invoker', options.resolver);
    this.resolver = options.resolver ?? (options.container === undefined ? defaultResolver : tsyringeResolver(options.container));
    this.middleware = options.middleware === undefined ? [] : checkMiddleware(options.middleware, 'Invoker');
    this.options = {
      ...options,
      rejectUndeclaredInputs: options.rejectUndeclaredInputs ?? true,
      userFacingInputErrors: options.userFacingInputErrors ?? true,
      maxInputDepth: options.maxInputDepth ?? DEFAULT_MAX_INPUT_DEPTH,
    };
  }

  /** Was this a failure of the caller's input (as opposed to the tool saying no, or a bug)? */
  static inputInvalid(result: Result): boolean {
    return result.exception instanceof InputValidationError;
  }

  /**
   * Calls a tool with untrusted arguments. Resolves to a Result for success, a business failure,
   * invalid input and a bug alike; it rejects only when `tool` is not a tool at all.
   */
  invoke<T = never, Tool extends ToolLike = ToolLike>(
    tool: Tool,
    args?: unknown,
    call?: CallOptions,
  ): Promise<SettledResult<InvokeOutput<T, Tool>>>;
  invoke(tool: ToolLike, args?: unknown, call: CallOptions = {}): Promise<Result<unknown>> {
    let definition: ToolDefinition;
    try {
      definition = Tools.resolve(tool);
    } catch (error) {
      return Promise.reject(error);
    }
    // Not an async function: the call's own promise is the Result's, with no extra turn to settle it.
    const telemetry = this.options.tracing === false ? undefined : telemetryNow();
    if (telemetry === undefined) return this.guarded(definition, args, call, call.callId);
    const id = call.callId ?? randomUUID();
    return traced(telemetry, { tool: definition, transport: transportOf(call), id, trace: call.trace }, () =>
      this.guarded(definition, args, call, id),
    );
  }

  /**
   * Does this call need a person's approval before it runs? For transports that ask before calling
   * (the AI SDK's `needsApproval`). Invalid arguments need none: such a call fails without running.
   */
  async approvalNeeded(tool: ToolLike, args?: unknown, call: CallOptions = {}): Promise<boolean> {
    const definition = Tools.resolve(tool);
    const rule = approvalRule(definition, this.destructiveApproval());
    if (rule === undefined || rule === 'required') return rule === 'required';
    try {
      const prepared = await this.prepare(definition, args, call, false);
      return prepared instanceof Result ? false : needsApproval(rule, prepared.input);
    } catch {
      return true; // a rule that throws asks; the call itself reports it
    }
  }

  /**
   * @internal Runs a call's checks, middleware and approval exactly as `invoke` does, then hands the
   * admitted call to `dispatch` in place of the tool (MCP tasks enqueue it there). Its Result is the
   * call's as the middleware answers it: `dispatch`'s, or the refusal.
   */
  admit(tool: ToolLike, args: unknown, call: CallOptions, dispatch: Dispatch): Promise<Result> {
    const definition = Tools.resolve(tool);
    return this.run(definition, args, call, call.callId, dispatch).catch((error: unknown) => this.exception(definition, error, args));
  }

  private compiled(): boolean {
    return this.options.compiled ?? configuredCompiled();
  }

  /** Does this invoker's compiled path generate code? */
  private generatesCode(): boolean {
    return this.compiled() && configuredGeneratedCode();
  }

  /** The generated input functions the compiled path uses for this plan, if any. */
  private generated(plan: Plan): GeneratedInput | undefined {
    if (!this.generatesCode()) return undefined;
    if (plan.generated === undefined) plan.generated = generatedInput(plan.input.target) ?? null;
    return plan.generated ?? undefined;
  }

  /** What builds the DTO instance from validated wire input: the generated function where there is one. */
  private instantiator(plan: Plan): (wire: Record<string, unknown>) => object {
    return this.generated(plan)?.instantiate ?? plan.instantiate;
  }

  private destructiveApproval(): boolean {
    return this.options.requireApprovalForDestructive ?? configuredDestructiveApproval();
  }

  // The last guard: whatever an argument, a container, a middleware or a tool did, the call ends as a Result.
  private guarded(definition: ToolDefinition, args: unknown, call: CallOptions, id: string | undefined): Promise<Result<unknown>> {
    return this.run(definition, args, call, id).catch((error: unknown) => this.exception(definition, error, args));
  }

  private async run(
    definition: ToolDefinition,
    args: unknown,
    call: CallOptions,
    id: string | undefined,
    dispatch?: Dispatch,
  ): Promise<Result<unknown>> {
    let prepared = this.prepare(definition, args, call, true);
    if (prepared instanceof Promise) prepared = await prepared;
    if (prepared instanceof Result) return prepared;
    const { input, wire } = prepared;
    // The tool, or (admit) the dispatch standing in for it.
    const toTool = (approved: boolean) => (dispatch ? dispatch({ wire, approved }) : this.callTool(definition, input, call, args));
    const caller = call.signal;
    if (caller?.aborted) return this.cancelled(definition, caller.reason);
    const configured = configuredMiddleware();
    const middleware =
      configured.length === 0 ? this.middleware : this.middleware.length === 0 ? configured : [...configured, ...this.middleware];
    const rule = approvalRule(definition, this.destructiveApproval());
    // `return await` here and below: a promise returned from an async function takes two more turns to settle.
    if (middleware.length === 0 && rule === undefined) return await toTool(false);
    const pipelineCall = new PipelineCall(
      definition,
      prepared.input,
      prepared.ambient,
      caller ?? NEVER_ABORTED,
      transportOf(call),
      id,
      call.request,
    );
    const last = rule === undefined ? () => toTool(false) : () => this.approveThenCall(pipelineCall, rule, call, args, toTool);
    return await runPipeline(middleware, pipelineCall, last, (error) => this.fromThrown(definition, error, caller, args));
  }

  /** The innermost step before the tool: an unapproved call never reaches it. */
  private async approveThenCall(
    call: PipelineCall,
    rule: NonNullable<ToolDefinition['approval']>,
    options: CallOptions,
    args: unknown,
    toTool: (approved: boolean) => Promise<Result>,
  ): Promise<Result> {
    const { tool } = call;
    let needed: boolean;
    try {
      needed = needsApproval(rule, call.input);
    } catch (error) {
      return this.exception(tool, error, args);
    }
    if (needed) {
      const refuse = (error: ToolApprovalError) => Result.failure(tool, failureMessage(tool, error.message, true), error);
      if (typeof options.approve !== 'function') return refuse(unavailableError(tool, call.transport));
      // The question every way in asks: arguments that cannot be shown in it are refused, never asked.
      let asked: ApprovalQuestion;
      try {
        asked = call.approvalQuestion();
      } catch (error) {
        return isInstance(error, ToolApprovalError) ? refuse(error as ToolApprovalError) : this.exception(tool, error, args);
      }
      let decision: { approved: boolean; reason?: string };
      try {
        decision = readDecision(await awaitDecision(options.approve(call), call.signal));
      } catch (error) {
        if (call.signal.aborted && error === call.signal.reason) return this.cancelled(tool, error);
        return this.exception(tool, error, args);
      }
      if (!decision.approved) return refuse(deniedError(tool, decision.reason));
      // What runs is what was shown: the arguments are compared with those the question was shown from.
      if (argumentsDigest(tool, call.input) !== asked.digest) return refuse(changedError(tool));
    }
    return toTool(needed);
  }

  /**
   * @internal The question a person is asked before this call runs, for a transport that holds the
   * call while it asks (the Toolbox's `approval_required` records): undefined when the call needs no
   * approval, or its arguments fail their checks (such a call never runs); the refusal when its
   * arguments cannot be shown. `name`: the tool's name as the person knows it.
   */
  async approvalQuestion(
    tool: ToolLike,
    args: unknown,
    call: CallOptions,
    name?: string,
  ): Promise<ApprovalQuestion | Result<never> | undefined> {
    const definition = Tools.resolve(tool);
    const rule = approvalRule(definition, this.destructiveApproval());
    if (rule === undefined) return undefined;
    // Whatever fails here (a container, invalid arguments) fails again when the call runs, and is reported there.
    const prepared = await (async () => this.prepare(definition, args, call, false))().catch(() => undefined);
    if (prepared === undefined || prepared instanceof Result) return undefined;
    let needed = true;
    try {
      needed = needsApproval(rule, prepared.input);
    } catch {
      // A rule that throws asks; the call itself reports it.
    }
    if (!needed) return undefined;
    const shown = showArguments(definition, redactedInput(definition, prepared.input), prepared.input);
    try {
      return questionOf(name ?? definition.toolName(), shown);
    } catch (error) {
      const refusal = error as ToolApprovalError;
      return Result.failure(definition, failureMessage(definition, refusal.message, true), refusal);
    }
  }

  /** Steps 1–5: from untrusted arguments to the validated input, or the Result that refuses them. */
  private prepare(
    definition: ToolDefinition,
    args: unknown,
    call: CallOptions,
    report: boolean,
  ): Prepared | Result<never> | Promise<Prepared | Result<never>> {
    let plan: Plan;
    try {
      plan = planFor(definition);
    } catch (error) {
      return this.exception(definition, error, args, undefined, report);
    }

    // Steps 1–5.
    const checked = this.checkInput(definition, plan, args, call.nullMeansAbsent === true, report);
    if (checked instanceof Result) return checked;
    if (checked instanceof RefusedInput) return this.refused(definition, plan, checked, args, report);
    if (foreignCallee(definition)) return { input: checked, ambient: currentAmbient(call.ambientContext), wire: checked };
    const prepared = checked;

    // Ambient values come from trusted context only; problems there are the server's, not the caller's.
    const ambient = currentAmbient(call.ambientContext);
    const ambientValues: Array<[string, unknown]> = [];
    for (const { field, key, required } of plan.ambient) {
      const value = readAmbient(ambient, key);
      if (value === undefined || value === null) {
        if (required) {
          return this.exception(
            definition,
            new AmbientContextError(
              `${definition.toolName()} (${definition.id}) needs the ambient value '${key}' for ${field.owner.name}.${field.name}, and the ambient context has none. ` +
                `Pass it with invoke(…, { ambientContext: { ${key} } }) or withAmbientContext().`,
            ),
            args,
            undefined,
            report,
          );
        }
        continue;
      }
      const problem = mismatchOf(field.type, value, key);
      if (problem) {
        return this.exception(
          definition,
          new AmbientContextError(`${definition.toolName()} (${definition.id}): the ambient value '${key}' is malformed: ${problem}.`),
          args,
          undefined,
          report,
        );
      }
      ambientValues.push([field.name, value]);
    }

    const input = this.instantiator(plan)(prepared) as Record<string, unknown>;
    for (const [name, value] of ambientValues) input[name] = value;

    if (plan.residual) {
      const found = new InputProblems(plan.order);
      const settle = () => (found.empty ? { input, ambient, wire: prepared } : this.inputProblems(definition, found, args, report));
      // Only class-validator's own checks can be asynchronous; every other call starts the tool synchronously.
      const pending = this.residual(plan, input, found);
      return pending === undefined ? settle() : pending.then(settle);
    }
    return { input, ambient, wire: prepared };
  }

  /** Steps 6–7: resolve through DI and call under the time limit, then check the output contract. */
  private async callTool(
    definition: ToolDefinition,
    input: Record<string, unknown>,
    call: CallOptions,
    args: unknown,
  ): Promise<Result<unknown>> {
    const plan = planFor(definition);
    // 6. Resolve through DI and call, with a context carrying the AbortSignal, under the time limit.
    const caller = call.signal;
    if (caller?.aborted) return this.cancelled(definition, caller.reason);
    let instance: Record<string, (input: unknown, context: ToolContext) => unknown>;
    try {
      let made: object | Promise<object> | undefined = foreignCallee(definition);
      if (made === undefined) {
        made = (call.resolver ?? this.resolver).resolve(definition.target, {
          definition,
          transport: transportOf(call),
          request: call.request,
          container: call.container,
        });
        // Only an asynchronous resolver costs an await; tsyringe's answers at once.
        if (made instanceof Promise) made = await made;
        if (typeof made !== 'object' || made === null || typeof (made as Record<string, unknown>)[definition.method] !== 'function') {
          throw new ToolResolutionError(
            `${definition.toolName()} (${definition.id}) could not be resolved: the resolver returned ${describeValue(made)}, which has no method ${definition.method}; return an instance of ${definition.target.name}.`,
            undefined,
          );
        }
      }
      instance = made as typeof instance;
    } catch (error) {
      return this.fromThrown(definition, resolutionFailure(definition, error), undefined, args);
    }
    const timeoutMs = definition.timeoutMs ?? this.options.defaultTimeoutMs ?? configuredTimeoutMs();
    let value: unknown;
    if (timeoutMs === undefined && caller === undefined) {
      // Nothing can end the call early: no timer, no listener, just the call.
      try {
        value = instance[definition.method](input, toolContext(definition, NEVER_ABORTED, call.context, transportOf(call)));
        // A synchronous tool's value is used as it is: awaiting it would only cost a turn.
        if (isThenable(value)) value = await value;
      } catch (error) {
        return this.fromThrown(definition, error, undefined, args);
      }
    } else {
      const settled = await settle(
        (signal) => instance[definition.method](input, toolContext(definition, signal, call.context, transportOf(call))),
        caller,
        timeoutMs,
        () => this.timeoutError(definition, timeoutMs!),
      );
      if (settled.kind === 'timed-out') return this.timedOut(definition, settled.reason as ToolTimeoutError);
      if (settled.kind === 'cancelled') return this.cancelled(definition, settled.reason);
      if (settled.kind === 'threw') return this.fromThrown(definition, settled.error, caller, args);
      value = settled.value;
    }

    // Content parts (Content.*) travel beside the value their Content.with carried, if any.
    const content = contentOf(value);
    if (content) value = content.value;
    // 7. The returned value must keep the tool's own @Exposes contract.
    const result = Result.success(definition, value);
    if (content) result.content = content.parts;
    if (plan.output) {
      try {
        checkOutput(result, plan.output, this.generatesCode());
      } catch (error) {
        return this.exception(definition, error, args);
      }
    }
    return result;
  }

  /**
   * Checks untrusted arguments exactly as `invoke` does (coercion, defaults, validation, run-time
   * constraints) without calling the tool: `{ ok: true, input }` with the prepared wire input (JSON,
   * safe to store or send), or `{ ok: false, result }` with the same failure `invoke` would give.
   * Ambient values are not checked: they belong to the process that finally calls the tool.
   */
  async validate(
    tool: ToolLike,
    args?: unknown,
    call: Pick<CallOptions, 'nullMeansAbsent'> = {},
  ): Promise<{ ok: true; input: Record<string, unknown> } | { ok: false; result: Result<never> }> {
    const definition = Tools.resolve(tool);
    let plan: Plan;
    try {
      plan = planFor(definition);
    } catch (error) {
      return { ok: false, result: this.exception(definition, error, args) };
    }
    const checked = this.checkInput(definition, plan, args, call.nullMeansAbsent === true, true);
    if (checked instanceof Result) return { ok: false, result: checked };
    if (checked instanceof RefusedInput) return { ok: false, result: await this.refused(definition, plan, checked, args, true) };
    if (plan.residual) {
      const found = new InputProblems(plan.order);
      await this.residual(plan, this.instantiator(plan)(checked), found);
      if (!found.empty) return { ok: false, result: this.inputProblems(definition, found, args) };
    }
    return { ok: true, input: checked };
  }

  /** Steps 1–5 of a call: the prepared wire input, or the input failure. */
  private checkInput(
    definition: ToolDefinition,
    plan: Plan,
    args: unknown,
    nullMeansAbsent: boolean,
    report: boolean,
  ): Record<string, unknown> | RefusedInput | Result<never> {
    // 1. An object (or nothing at all, for a call without arguments).
    if (args === undefined) args = {};
    if (!isPlainObject(args)) {
      return this.inputFailure(
        definition,
        [{ field: 'base', message: 'arguments must be an object', keyword: 'type', params: { type: 'object' } }],
        args,
        undefined,
        report,
      );
    }

    // 2–5 in one generated function, for input it accepts; the steps below find and name any problem.
    // Where it also stands for the depth and Unicode walk, it goes first.
    const generated = foreignCallee(definition) ? undefined : this.generated(plan);
    const reject = this.options.rejectUndeclaredInputs;
    const first = generated !== undefined && reject && generated.depth !== undefined && generated.depth <= this.options.maxInputDepth;
    if (first) {
      const wire = generated.check(args, nullMeansAbsent, true);
      if (wire !== undefined) return wire;
    }

    // Bounded depth and valid Unicode, checked without recursion before any step that recurses.
    const shape =
      this.compiled() && inputShapeFine(args, this.options.maxInputDepth) ? undefined : inputShapeProblem(args, this.options.maxInputDepth);
    if (shape) return this.inputFailure(definition, [shape], args, undefined, report);
    // A foreign tool (a remote one) checks the rest itself: its input is the arguments, as JSON.
    const foreign = foreignInput(definition, args);
    if (foreign) return foreign.problem ? this.inputFailure(definition, [foreign.problem], args, undefined, report) : foreign.input;

    if (generated && !first) {
      const wire = generated.check(args, nullMeansAbsent, reject);
      if (wire !== undefined) return wire;
    }

    // 2–3. Ambient keys a caller sent are dropped; undeclared keys are refused (or dropped).
    // Gathered only when there is a problem: a valid call allocates nothing for them.
    let problems: InputProblems | undefined;
    if (this.options.rejectUndeclaredInputs) {
      for (const key of Object.keys(args)) {
        if (!plan.declared.has(key) && !DROPPED_KEYS.has(key)) (problems ??= new InputProblems(plan.order)).unknown(key);
      }
    }

    // 4. Wire coercion and defaults, into a fresh object (the caller's arguments are never changed).
    const prepared: Record<string, unknown> = {};
    for (const field of plan.fields) field(args, prepared, nullMeansAbsent);

    // 5. Validation compiled from the same field model as the schema.
    if (!plan.validator.check(prepared)) plan.validator.explain(prepared, (problems ??= new InputProblems(plan.order)));
    return problems ? new RefusedInput(prepared, problems) : prepared;
  }

  /**
   * Refused input's answer. class-validator's checks still run on the fields the schema did not
   * refuse, so one answer names every invalid field, whichever checker found it. They run without
   * ambient values (as `validate` runs them); a check that throws on such an input (a `@ValidateIf`
   * condition reading a field of the wrong type) stops them there, and the answer keeps what they found.
   */
  private refused(
    definition: ToolDefinition,
    plan: Plan,
    refused: RefusedInput,
    args: unknown,
    report: boolean,
  ): Result<never> | Promise<Result<never>> {
    const { problems } = refused;
    const answer = () => this.inputProblems(definition, problems, args, report);
    if (!plan.residual) return answer();
    let pending: void | Promise<void>;
    try {
      pending = this.residual(plan, plan.instantiate(refused.wire), problems);
    } catch {
      pending = undefined;
    }
    return pending === undefined ? answer() : pending.then(answer, answer);
  }

  /** The run-time checks; a throw (a `@ValidateIf` condition's) rejects, on the compiled path as on the generic one. */
  private residual(plan: Plan, instance: object, found: InputProblems): void | Promise<void> {
    if (!this.compiled()) return residualErrors(plan.input, instance, found);
    try {
      return compiledResidual(plan.input.target)(instance as Record<string, unknown>, '', found);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private inputProblems(tool: ToolDefinition, problems: InputProblems, args: unknown, report = true): Result<never> {
    return this.inputFailure(tool, problems.fieldErrors(), args, problems.sentence(), report);
  }

  private inputFailure(
    tool: ToolDefinition,
    errors: readonly FieldError[],
    args: unknown,
    sentence?: string,
    report = true,
  ): Result<never> {
    const reason = sentence ?? errors.map((error) => error.message).join(' and ');
    const error = withoutStack(() => new InputValidationError(failureMessage(tool, reason), errors));
    if (!this.options.userFacingInputErrors) return this.exception(tool, error, args, errors, report);
    return Result.failure(tool, error.message, error, errors);
  }

  private cancelled(tool: ToolDefinition, reason: unknown): Result<never> {
    const error = withoutStack(() => new ToolCancelledError('The call was cancelled.', { cause: reason }));
    return Result.failure(tool, error.message, error);
  }

  private timeoutError(tool: ToolDefinition, timeoutMs: number): ToolTimeoutError {
    return withoutStack(() => new ToolTimeoutError(`${tool.toolName()} took longer than ${formatCount(timeoutMs)} ms`, timeoutMs));
  }

  /**
   * A timeout is a failure the caller reads, like a cancellation: not the caller's input, and not a
   * bug to report. `error` is the very reason the tool's signal was aborted with.
   */
  private timedOut(tool: ToolDefinition, error: ToolTimeoutError): Result<never> {
    return Result.failure(tool, failureMessage(tool, error.message), error);
  }

  /** Every look at the thrown value is guarded: a hostile one is an exception outcome like any other. */
  private fromThrown(tool: ToolDefinition, error: unknown, signal: AbortSignal | undefined, args: unknown): Result<never> {
    const failure = deliberateFailure(error);
    if (failure) return Result.failure(tool, failureMessage(tool, failure.reason, failure.standalone), error);
    const rule = tool.failsOn.find((candidate) => isInstance(error, candidate.errorClass as Function));
    if (rule) return Result.failure(tool, failureMessage(tool, rule.message), error);
    if (signal?.aborted && (error === signal.reason || isAbortError(error))) return this.cancelled(tool, error);
    return this.exception(tool, error, args);
  }

  private exception(
    tool: ToolDefinition,
    error: unknown,
    args: unknown,
    fieldErrors?: readonly FieldError[],
    report = true,
  ): Result<never> {
    if (report) reportException(error, { tool, args: reportedArgs(tool, args) }, this.options.onException);
    return Result.exception(tool, error, fieldErrors);
  }
}

/** The arguments an exception report shows: `sensitive` fields (declared ones, at any depth) as `[redacted]`. */
function reportedArgs(tool: ToolDefinition, args: unknown): unknown {
  try {
    if (!isPlainObject(args) || !hasSensitive(tool.inputContract)) return args;
    return { ...args, ...(redact(tool.inputContract, args) as object) };
  } catch {
    return undefined; // arguments that cannot even be read are not shown
  }
}

/**
 * The invoker with default options (no middleware, the process-wide `configure()` settings), shared
 * by `invoke()` and by every adapter that is given no invoker of its own. Frozen: every adapter
 * shares it, so none may replace its methods for the others.
 */
export const defaultInvoker = new Invoker();
Object.freeze(defaultInvoker);

/**
 * Calls a tool with untrusted arguments, through the same contract a model sees:
 * `invoke(ApproveLoanV2, { loanId, amount: '500' }, { ambientContext: { officerId } })`.
 */
export function invoke<T = never, Tool extends ToolLike = ToolLike>(
  tool: Tool,
  args?: unknown,
  options: InvokerOptions & CallOptions = {},
): Promise<SettledResult<InvokeOutput<T, Tool>>> {
  const { ambientContext, container, request, signal, nullMeansAbsent, transport, callId, approve, trace, context, ...invokerOptions } =
    options;
  const invoker = Object.keys(invokerOptions).length === 0 ? defaultInvoker : new Invoker(invokerOptions);
  return invoker.invoke<T, Tool>(tool, args, {
    ambientContext,
    container,
    request,
    signal,
    nullMeansAbsent,
    transport,
    callId,
    approve,
    trace,
    context,
  });
}
