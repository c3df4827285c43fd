/**
 * What travels through Redis: the job's data (tool, version, prepared input, ambient values) and its
 * return value (the Result's outcome, message, exposed value and field errors).
 */
import {
  FieldError,
  InputValidationError,
  Outcome,
  Result,
  ToolCancelledError,
  ToolDefinition,
  ToolFailure,
  ToolwrightError,
} from '../../index';
import { describeValue } from '../../adapter-kit';
import { isPlainObject, setOwn } from '../../adapter-kit/internal';
import { QueueConfig } from './config';
import type { AskKind } from './asks';

export interface ToolJobData {
  /** The tool's name (`toolName('queue')`). */
  readonly tool: string;
  readonly version: number;
  /** The input as the enqueuing process validated and prepared it (JSON). */
  readonly input: Record<string, unknown>;
  /** Ambient values from the enqueuing process (JSON). Redis must be trusted infrastructure. */
  readonly ambient: Record<string, unknown>;
  /** A person approved the call where it was enqueued: the worker does not ask again. */
  readonly approved?: true;
  /** What the tool may ask its caller while it runs (the caller answers through the job's handle); none when absent. */
  readonly asks?: readonly AskKind[];
  /** Set when the call was answered before it was enqueued (invalid input, refused by the enqueuer's pipeline): the outcome; the tool never runs. */
  readonly rejected?: WireResult;
}

export interface WireResult {
  readonly outcome: Outcome;
  readonly message: string;
  readonly value?: unknown;
  readonly fieldErrors?: readonly FieldError[];
  readonly cancelled?: boolean;
}

/** A queued call that did not come back with the tool's own outcome: its worker stopped, or refused it. */
export class ToolJobError extends ToolwrightError {
  override readonly code = 'TOOL_JOB';
  constructor(
    message: string,
    /** The job's id. */
    readonly jobId: string,
  ) {
    super(message);
  }
}

/** The exception detail stays in the worker's logs (its `onException`); only the outcome travels. */
export class RemoteToolException extends ToolwrightError {
  override readonly code = 'REMOTE_TOOL_EXCEPTION';
}

/** A Result as the worker stores it. Rendering problems become the exception they are in-process. */
export function toWire(result: Result): WireResult {
  if (result.ok) {
    return { outcome: 'success', message: result.message, value: QueueConfig.serializeExposed(result) };
  }
  return {
    outcome: result.outcome,
    message: result.message,
    ...(result.fieldErrors.length > 0
      ? { fieldErrors: result.fieldErrors.map(({ field, message, keyword, params }) => ({ field, message, keyword, params })) }
      : {}),
    ...(result.exception instanceof ToolCancelledError ? { cancelled: true } : {}),
  };
}

/** The Result a queued call came back with, with the same outcome, message and field errors. */
export function fromWire(tool: ToolDefinition, wire: unknown, jobId: string): Result {
  if (!isPlainObject(wire) || !['success', 'failure', 'exception'].includes(wire.outcome as string)) {
    return Result.exception(tool, new ToolJobError(`Job ${jobId} returned ${describeValue(wire)}, not a toolwright result.`, jobId));
  }
  const w = wire as unknown as WireResult;
  if (w.outcome === 'success') return Result.success(tool, w.value);
  const fieldErrors = w.fieldErrors ?? [];
  if (w.outcome === 'exception')
    return Result.exception(tool, new RemoteToolException(`${w.message} (job ${jobId}; see the worker's logs)`), fieldErrors);
  const exception = w.cancelled
    ? new ToolCancelledError('The call was cancelled.')
    : fieldErrors.length > 0
      ? new InputValidationError(w.message, fieldErrors)
      : new ToolFailure(w.message, true);
  return Result.failure(tool, w.message, exception, fieldErrors);
}

/** Ambient values as JSON: a Map or an object, each value JSON-representable. */
export function ambientToJson(source: unknown, where: string): Record<string, unknown> {
  if (source === undefined) return {};
  const entries = source instanceof Map ? [...source.entries()] : isPlainObject(source) ? Object.entries(source) : undefined;
  if (!entries) throw new TypeError(`${where}: ambientContext must be a Map or an object; got ${describeValue(source)}.`);
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    if (typeof key !== 'string') throw new TypeError(`${where}: ambient keys must be strings; got ${describeValue(key)}.`);
    if (value === undefined) continue;
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch {
      json = undefined;
    }
    if (json === undefined) {
      throw new TypeError(
        `${where}: the ambient value '${key}' cannot travel through Redis as JSON (${describeValue(value)}). Pass a JSON value, or derive it on the worker with startToolWorker({ ambientContext }).`,
      );
    }
    setOwn(out, key, JSON.parse(json));
  }
  return out;
}
