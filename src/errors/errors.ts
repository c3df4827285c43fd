import { ToolwrightError } from './toolwright-error';

/** A tool's class (or one of its dependencies) could not be resolved through DI. */
export class ToolResolutionError extends ToolwrightError {
  override readonly code = 'TOOL_RESOLUTION';
  constructor(
    message: string,
    /** The dependency that failed, as tsyringe named it. */
    readonly dependency: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The rule a field broke, in JSON Schema's words where it has one (`required`, `type`, `minimum`,
 * `format`, …); `unknown` for an undeclared key, `depth` for input nested past `maxInputDepth`,
 * `unpairedSurrogate` for text that is not Unicode, `truncated` for the entry that counts the
 * problems past the listed ones; a run-time-only class-validator constraint by its name
 * (`isCreditCard`).
 */
export type FieldErrorKeyword =
  | 'required'
  | 'type'
  | 'anyOf'
  | 'format'
  | 'enum'
  | 'const'
  | 'minLength'
  | 'maxLength'
  | 'minimum'
  | 'maximum'
  | 'exclusiveMinimum'
  | 'exclusiveMaximum'
  | 'multipleOf'
  | 'pattern'
  | 'minItems'
  | 'maxItems'
  | 'uniqueItems'
  | 'minProperties'
  | 'not'
  | 'unknown'
  | 'depth'
  | 'unpairedSurrogate'
  | 'truncated'
  | (string & {});

/**
 * One field-level problem with a caller's input: `{ field: 'amount', keyword: 'maximum', params: {
 * limit: 1000 }, message }`. `keyword` and `params` let an adapter or a client map the problem (or
 * translate it) without parsing the English `message`.
 */
export interface FieldError {
  /** The path of the field (`amount`, `address.city`, `tags[2]`), or `base` for the whole input. */
  readonly field: string;
  readonly message: string;
  /** The rule the value broke. */
  readonly keyword: FieldErrorKeyword;
  /**
   * The rule's parameters: `{ limit }` for the min/max keywords, `multipleOf` and `depth`,
   * `{ allowed: [...] }` for `enum` and `const`, `{ format }`, `{ pattern }`, `{ type }` (the type
   * expected), `{ count }` for `truncated` and the summary `unknown` entry; `{}` when there are none.
   */
  readonly params: Readonly<Record<string, unknown>>;
}

/** An error about a contract, with one entry per field that broke it. */
abstract class FieldErrorsError extends ToolwrightError {
  constructor(
    message: string,
    readonly fieldErrors: readonly FieldError[],
  ) {
    super(message);
  }
}

/** The caller's arguments broke the tool's input contract. Its message is meant for the caller. */
export class InputValidationError extends FieldErrorsError {
  override readonly code = 'INPUT_INVALID';
}

/** The trusted ambient context lacked a value a tool needs, or held a malformed one. Developer-facing. */
export class AmbientContextError extends ToolwrightError {
  override readonly code = 'AMBIENT_CONTEXT';
}

/** A tool returned a value that breaks its own `@Exposes` contract. Developer-facing. */
export class OutputContractError extends FieldErrorsError {
  override readonly code = 'OUTPUT_CONTRACT';
}

/** A value has no honest JSON form; `path` names where (`records[3].price`, `tags (map key)`). */
export class UnserializableValueError extends ToolwrightError {
  override readonly code = 'UNSERIALIZABLE_VALUE';
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

/** The call was cancelled through its AbortSignal. */
export class ToolCancelledError extends ToolwrightError {
  override readonly code = 'TOOL_CANCELLED';
}

/**
 * A call ran past its time limit (`@Tool({ timeoutMs })`, `defaultTimeoutMs`): the tool's signal
 * was aborted with this error and the call answered without waiting for the tool.
 */
export class ToolTimeoutError extends ToolwrightError {
  override readonly code = 'TOOL_TIMEOUT';
  constructor(
    message: string,
    /** The limit that passed, in milliseconds. */
    readonly timeoutMs: number,
  ) {
    super(message);
  }
}

/**
 * A tool asked its context for something the transport cannot do: `elicit` (ask the user),
 * `sample` (ask the caller's model) or `roots` (ask the client for its roots) with no one to ask. Developer-facing; its message says how to
 * provide it.
 */
export class ToolContextUnavailableError extends ToolwrightError {
  override readonly code = 'CONTEXT_UNAVAILABLE';
  constructor(
    message: string,
    /** The operation that could not run. */
    readonly operation: 'elicit' | 'sample' | 'roots',
  ) {
    super(message);
  }
}

/** A call that needs a person's approval was denied, or could not be put to anyone. */
export class ToolApprovalError extends ToolwrightError {
  override readonly code = 'TOOL_APPROVAL';
  constructor(
    message: string,
    /**
     * `denied`: the approver said no; `unavailable`: there was no way to ask; `unshowable`: the
     * arguments cannot be shown in one question (APPROVAL_QUESTION_LIMITS), so nobody was asked;
     * `changed`: the arguments changed after the question was asked.
     */
    readonly reason: 'denied' | 'unavailable' | 'unshowable' | 'changed',
  ) {
    super(message);
  }
}

/** A call refused by `rateLimit`: the caller may retry after `retryAfterMs`. */
export class ToolRateLimitError extends ToolwrightError {
  override readonly code = 'TOOL_RATE_LIMITED';
  constructor(
    message: string,
    /** How long until the next call is allowed, in milliseconds. */
    readonly retryAfterMs: number,
  ) {
    super(message);
  }
}

/** A call refused by `concurrencyLimit`: too many calls of the tool were already running or waiting. */
export class ToolBusyError extends ToolwrightError {
  override readonly code = 'TOOL_BUSY';
}
