import type { ContentPart } from '../content/content';
import { FieldError } from '../errors/errors';
import type { ToolDefinition } from '../registry/tool-definition';
import type { Rendering } from '../serialization/json-safe';

/** How a call ended: `success`, `failure` (the tool said no, or the input was invalid: user-facing) or `exception` (a bug or a failed dependency). */
export type Outcome = 'success' | 'failure' | 'exception';

export const DEFAULT_ERROR = 'Something went wrong';
export const DEFAULT_SUCCESS = 'Action completed successfully';

/**
 * The outcome of one tool call. Never thrown: a business failure, bad input and a bug all come
 * back as a Result. Show `error` (user-facing) to a caller; keep `exception` (developer detail) in
 * your logs.
 */
export class Result<T = unknown> {
  /** The content parts the tool answered with (`Content.*`), beside or instead of its value. */
  content?: readonly ContentPart[];

  /** The JSON-safe rendering of the value, kept by ./rendering.ts: off the Result's surface, and no WeakMap entry per call. */
  #rendering: Rendering | undefined = undefined;

  /** @internal */
  static keepRendering(result: Result, rendering: Rendering): void {
    result.#rendering = rendering;
  }

  /** @internal The kept rendering; undefined for a Result made by another copy of toolwright. */
  static keptRendering(result: Result): Rendering | undefined {
    return #rendering in result ? result.#rendering : undefined;
  }

  private constructor(
    readonly tool: ToolDefinition,
    readonly outcome: Outcome,
    /** The tool's return value (success only). */
    readonly value: T | undefined,
    /** The user-facing failure message (failure and exception only). */
    readonly error: string | undefined,
    /** The success message (success only). */
    readonly success: string | undefined,
    /** Developer detail: the error behind a failure or exception. Never show it to a caller. */
    readonly exception: unknown,
    /** Field-level input problems, `[{ field: 'address.city', message }]`. */
    readonly fieldErrors: readonly FieldError[],
  ) {}

  get ok(): boolean {
    return this.outcome === 'success';
  }

  /** Always set: the success message, or the user-facing error. */
  get message(): string {
    return (this.outcome === 'success' ? this.success : this.error) ?? DEFAULT_ERROR;
  }

  /** @internal */
  static success<T>(tool: ToolDefinition, value: T): Result<T> {
    return new Result<T>(tool, 'success', value, undefined, tool.messages.success ?? DEFAULT_SUCCESS, undefined, NO_FIELD_ERRORS);
  }

  /** @internal */
  static failure(
    tool: ToolDefinition,
    error: string,
    exception: unknown,
    fieldErrors: readonly FieldError[] = NO_FIELD_ERRORS,
  ): Result<never> {
    return new Result<never>(tool, 'failure', undefined, error, undefined, exception, fieldErrors);
  }

  /** @internal */
  static exception(tool: ToolDefinition, exception: unknown, fieldErrors: readonly FieldError[] = NO_FIELD_ERRORS): Result<never> {
    return new Result<never>(tool, 'exception', undefined, tool.messages.error ?? DEFAULT_ERROR, undefined, exception, fieldErrors);
  }

  toJSON(): Record<string, unknown> {
    return this.ok
      ? { ok: true, outcome: this.outcome, message: this.message, value: this.value }
      : { ok: false, outcome: this.outcome, message: this.message, error: this.error, fieldErrors: this.fieldErrors };
  }
}

/**
 * A Result whose `ok` narrows it, as `invoke` resolves: `if (result.ok) use(result.value)` is a T,
 * and otherwise `result.error` is the user-facing string.
 */
export type SettledResult<T = unknown> =
  | (Result<T> & { readonly ok: true; readonly outcome: 'success'; readonly value: T; readonly error: undefined })
  | (Result<T> & { readonly ok: false; readonly outcome: 'failure' | 'exception'; readonly value: undefined; readonly error: string });

const NO_FIELD_ERRORS: readonly FieldError[] = Object.freeze([]);

/**
 * The user-facing failure message: "Headline: reason"; the reason alone when standalone or when
 * the tool has no headline; the headline alone without a reason; the default without either.
 */
export function failureMessage(tool: ToolDefinition, reason: string | undefined, standalone = false): string {
  const headline = tool.messages.error;
  if (reason && (standalone || !headline)) return reason;
  if (reason && headline) return `${headline}: ${reason}`;
  return headline ?? DEFAULT_ERROR;
}
