/**
 * The invoker: the one call path for untrusted callers. From the wire to the tool and back as a
 * Result: it never throws for bad input or a business failure.
 */
import type { DependencyContainer } from 'tsyringe';
import { describeMismatch } from '../contract/conforms';
import type { Contract, FieldModel } from '../contract/field-model';
import { ExceptionHandler, reportException } from '../config/toolwright-config';
import { AmbientContextError, FieldError, InputValidationError, ToolCancelledError } from '../errors/errors';
import { Tools, ToolLike } from '../registry/tool-registry';
import type { ToolDefinition } from '../registry/tool-definition';
import { renderContract } from '../serialization/render';
import { isPlainObject, joinWords } from '../util/describe-value';
import { AmbientSource, currentAmbient, readAmbient } from './ambient';
import { ToolFailure } from './failure';
import { contractInstantiator, fieldPreparer, FieldPreparer } from './prepare';
import { hasResidual, residualErrors } from './residual';
import { resolveTool } from './resolve-tool';
import { failureMessage, Result } from './result';
import { ContractValidator, contractValidator } from './validation';

/** What a tool receives beside its input. */
export interface ToolContext {
  /** Aborted when the caller cancels; pass it on to fetch, timers and database drivers. */
  readonly signal: AbortSignal;
  /** The tool being called. */
  readonly tool: ToolDefinition;
}

export interface InvokerOptions {
  /** The DI container tools resolve from (default: tsyringe's root container). */
  container?: DependencyContainer;
  /** Refuse undeclared top-level keys with "unknown input: KEY" (default true); false drops them. */
  rejectUndeclaredInputs?: boolean;
  /** Invalid input is a user-facing failure naming each field (default true); false makes it an exception. */
  userFacingInputErrors?: boolean;
  /** Overrides the process-wide `configure({ onException })` for calls through this invoker. */
  onException?: ExceptionHandler;
}

export interface CallOptions {
  /**
   * Trusted values for the tool's `@AmbientContext` fields: a Map or an object. Replaces any
   * `withAmbientContext` scope entirely; `{}` means "no ambient values".
   */
  ambientContext?: AmbientSource;
  /** A container for this call only, e.g. a child container with request-scoped registrations. */
  container?: DependencyContainer;
  signal?: AbortSignal;
  /**
   * Treat `null` on a field that is not nullable as absent: OpenAI strict mode makes every
   * optional field nullable and sends `null` for "left out".
   */
  nullMeansAbsent?: boolean;
}

const DROPPED_KEYS = new Set(['ambientContext', 'ambient_context']);
const NEVER_ABORTED = new AbortController().signal;

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
  readonly output?: Function;
}

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

/** "a must be x and b must be y": each field's problem, in one sentence. */
function sentence(errors: readonly FieldError[]): string {
  return joinWords(errors.map((error) => error.message));
}

export class Invoker {
  private readonly options: Required<Pick<InvokerOptions, 'rejectUndeclaredInputs' | 'userFacingInputErrors'>> & InvokerOptions;

  constructor(options: InvokerOptions = {}) {
    this.options = { rejectUndeclaredInputs: true, userFacingInputErrors: true, ...options };
  }

  /** Was this a failure of the caller's input (as opposed to the tool saying no, or a bug)? */
  static inputInvalid(result: Result): boolean {
    return result.exception instanceof InputValidationError;
  }

  /**
   * Calls a tool with untrusted arguments. Resolves to a Result for success, a business failure,
   * invalid input and a bug alike; it rejects only when `tool` is not a tool at all.
   */
  async invoke<T = unknown>(tool: ToolLike, args?: unknown, call: CallOptions = {}): Promise<Result<T>> {
    const definition = Tools.resolve(tool);
    let plan: Plan;
    try {
      plan = planFor(definition);
    } catch (error) {
      return this.exception(definition, error, args);
    }

    const checked = this.checkInput(definition, plan, args, call.nullMeansAbsent === true);
    if (checked instanceof Result) return checked;
    const prepared = checked;
    if (args === undefined) args = {};

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
          );
        }
        continue;
      }
      const problem = describeMismatch(field.type, value, key);
      if (problem) {
        return this.exception(
          definition,
          new AmbientContextError(`${definition.toolName()} (${definition.id}): the ambient value '${key}' is malformed: ${problem}.`),
          args,
        );
      }
      ambientValues.push([field.name, value]);
    }

    const input = plan.instantiate(prepared) as Record<string, unknown>;
    for (const [name, value] of ambientValues) input[name] = value;

    if (plan.residual) {
      const residual = await residualErrors(plan.input, input);
      if (residual.length > 0) return this.inputFailure(definition, residual, args);
    }

    // 6. Resolve through DI and call, with a context carrying the AbortSignal.
    const signal = call.signal ?? NEVER_ABORTED;
    if (signal.aborted) return this.cancelled(definition, signal.reason);
    let value: unknown;
    try {
      const instance = resolveTool(definition, call.container ?? this.options.container) as Record<
        string,
        (input: unknown, context: ToolContext) => unknown
      >;
      value = await instance[definition.method](input, { signal, tool: definition });
    } catch (error) {
      return this.fromThrown(definition, error, signal, args);
    }

    // 7. The returned value must keep the tool's own @Exposes contract.
    const result = Result.success(definition, value as T);
    if (plan.output) {
      try {
        result.rendered = renderContract(plan.output, value, {}, () => `${definition.toolName()} (${definition.id})`);
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
    const checked = this.checkInput(definition, plan, args, call.nullMeansAbsent === true);
    if (checked instanceof Result) return { ok: false, result: checked };
    if (plan.residual) {
      const residual = await residualErrors(plan.input, plan.instantiate(checked));
      if (residual.length > 0) return { ok: false, result: this.inputFailure(definition, residual, args) };
    }
    return { ok: true, input: checked };
  }

  /** Steps 1–5 of a call: the prepared wire input, or the input failure. */
  private checkInput(
    definition: ToolDefinition,
    plan: Plan,
    args: unknown,
    nullMeansAbsent: boolean,
  ): Record<string, unknown> | Result<never> {
    // 1. An object (or nothing at all, for a call without arguments).
    if (args === undefined) args = {};
    if (!isPlainObject(args)) {
      return this.inputFailure(definition, [{ field: 'base', message: 'arguments must be an object' }], args);
    }

    // 2–3. Ambient keys a caller sent are dropped; undeclared keys are refused (or dropped).
    const errors: FieldError[] = [];
    for (const key of Object.keys(args)) {
      if (!plan.declared.has(key) && !DROPPED_KEYS.has(key) && this.options.rejectUndeclaredInputs) {
        errors.push({ field: key, message: `unknown input: ${key}` });
      }
    }

    // 4. Wire coercion and defaults, into a fresh object (the caller's arguments are never changed).
    const prepared: Record<string, unknown> = {};
    for (const field of plan.fields) field(args, prepared, nullMeansAbsent);

    // 5. Validation compiled from the same field model as the schema.
    if (!plan.validator.check(prepared)) errors.push(...plan.validator.explain(prepared));
    if (errors.length > 0) return this.inputFailure(definition, errors, args);
    return prepared;
  }

  private inputFailure(tool: ToolDefinition, errors: readonly FieldError[], args: unknown): Result<never> {
    const error = withoutStack(() => new InputValidationError(failureMessage(tool, sentence(errors)), errors));
    if (!this.options.userFacingInputErrors) return this.exception(tool, error, args, errors);
    return Result.failure(tool, error.message, error, errors);
  }

  private cancelled(tool: ToolDefinition, reason: unknown): Result<never> {
    const error = withoutStack(() => new ToolCancelledError('The call was cancelled.', { cause: reason }));
    return Result.failure(tool, error.message, error);
  }

  private fromThrown(tool: ToolDefinition, error: unknown, signal: AbortSignal, args: unknown): Result<never> {
    if (error instanceof ToolFailure) return Result.failure(tool, failureMessage(tool, error.reason, error.standalone), error);
    const rule = tool.failsOn.find((candidate) => error instanceof (candidate.errorClass as Function));
    if (rule) return Result.failure(tool, failureMessage(tool, rule.message), error);
    if (signal.aborted && (error === signal.reason || (error as Error)?.name === 'AbortError')) return this.cancelled(tool, error);
    return this.exception(tool, error, args);
  }

  private exception(tool: ToolDefinition, error: unknown, args: unknown, fieldErrors?: readonly FieldError[]): Result<never> {
    reportException(error, { tool, args }, this.options.onException);
    return Result.exception(tool, error, fieldErrors);
  }
}

const defaultInvoker = new Invoker();

/**
 * Calls a tool with untrusted arguments, through the same contract a model sees:
 * `invoke(ApproveLoanV2, { loanId, amount: '500' }, { ambientContext: { officerId } })`.
 */
export function invoke<T = unknown>(tool: ToolLike, args?: unknown, options: InvokerOptions & CallOptions = {}): Promise<Result<T>> {
  const { ambientContext, container, signal, nullMeansAbsent, ...invokerOptions } = options;
  const invoker = Object.keys(invokerOptions).length === 0 ? defaultInvoker : new Invoker(invokerOptions);
  return invoker.invoke<T>(tool, args, { ambientContext, container, signal, nullMeansAbsent });
}
