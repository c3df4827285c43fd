/**
 * Built-in middleware: a per-tool concurrency limit, a keyed rate limit, and an audit hook.
 */
import { ToolBusyError, ToolRateLimitError } from '../errors/errors';
import type { ToolDefinition } from '../registry/tool-definition';
import { describeValue, isPlainObject } from '../util/describe-value';
import { setOwn } from '../util/own-property';
import type { Middleware, ToolCall, TransportName } from './pipeline';
import { REDACTED } from './redact';
import type { Outcome, Result } from './result';
import { DeclarationError } from '../errors/declaration-errors';

function wholeNumber(value: unknown, min: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min;
}

/** Tools are counted apart by class and method (two versions are two tools). */
function perTool<S>(make: () => S): (tool: ToolDefinition) => S {
  const states = new WeakMap<Function, Map<string, S>>();
  return (tool) => {
    let byMethod = states.get(tool.target);
    if (!byMethod) states.set(tool.target, (byMethod = new Map()));
    let state = byMethod.get(tool.method);
    if (!state) byMethod.set(tool.method, (state = make()));
    return state;
  };
}

/** The options of `concurrencyLimit(limit, { ... })`. */
export interface ConcurrencyLimitOptions {
  /**
   * How many calls of one tool may wait for a free slot (default 100). Past it a call is refused at
   * once with a user-facing "busy" failure, so a flood never grows an unbounded queue.
   */
  maxWaiting?: number;
}

/**
 * At most `limit` calls of each tool run at once; later ones wait their turn (in order) and leave
 * the queue when their caller cancels. A slot is freed when the call answers (a tool past its time
 * limit answers at the deadline).
 */
export function concurrencyLimit(limit: number, options: ConcurrencyLimitOptions = {}): Middleware {
  if (!wholeNumber(limit, 1))
    throw new DeclarationError(`concurrencyLimit: the limit must be a whole number of at least 1; got ${describeValue(limit)}.`);
  if (!isPlainObject(options))
    throw new DeclarationError(`concurrencyLimit: options must be { maxWaiting? }; got ${describeValue(options)}.`);
  const maxWaiting = (options.maxWaiting as number | undefined) ?? 100;
  if (!wholeNumber(maxWaiting, 0)) {
    throw new DeclarationError(`concurrencyLimit: maxWaiting must be a whole number of at least 0; got ${describeValue(maxWaiting)}.`);
  }
  const stateOf = perTool(() => ({ running: 0, waiting: [] as Array<() => void> }));
  return async function concurrencyLimit(call, next) {
    const state = stateOf(call.tool);
    if (state.running >= limit) {
      if (state.waiting.length >= maxWaiting) {
        const message = `${call.tool.toolName()} is busy (${limit} call${limit === 1 ? '' : 's'} running, ${state.waiting.length} waiting). Retry shortly.`;
        return call.fail(message, { standalone: true, cause: new ToolBusyError(message) });
      }
      await new Promise<void>((resolve, reject) => {
        const turn = () => {
          call.signal.removeEventListener('abort', leave);
          resolve();
        };
        const leave = () => {
          const index = state.waiting.indexOf(turn);
          if (index >= 0) state.waiting.splice(index, 1);
          reject(call.signal.reason);
        };
        state.waiting.push(turn);
        call.signal.addEventListener('abort', leave, { once: true });
      });
    } else {
      state.running++;
    }
    try {
      return await next();
    } finally {
      // The slot passes straight to the next waiter; the count drops only when nobody waits.
      const waiter = state.waiting.shift();
      if (waiter) waiter();
      else state.running--;
    }
  };
}

const PERIODS = { second: 1_000, minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/** The options of `rateLimit({ ... })`: how many calls per period, and whose budget a call spends. */
export interface RateLimitOptions {
  /** How many calls each key may make per period. */
  points: number;
  /** The period: milliseconds, or `'second'`, `'minute'`, `'hour'`, `'day'`. */
  per: number | keyof typeof PERIODS;
  /**
   * Whose budget a call spends: a string or number, e.g. `(call) => call.ambient.get('userId')`.
   * Default: the tool (every caller shares one budget per tool). A call whose key is undefined or
   * null spends a shared `anonymous` budget. Include `call.tool.id` in the key for per-tool budgets.
   */
  key?: (call: ToolCall) => unknown;
  /** How many keys are tracked at most (default 10,000); past it the longest-idle ones are forgotten. */
  maxKeys?: number;
}

/**
 * At most `points` calls per `per` for each key, refilled continuously (a token bucket: a burst of
 * `points`, then one call every `per / points`). A refused call is a user-facing failure that says
 * when to retry; its exception is a `ToolRateLimitError` with `retryAfterMs`.
 */
export function rateLimit(options: RateLimitOptions): Middleware {
  if (!isPlainObject(options))
    throw new DeclarationError(`rateLimit: options must be { points, per, key? }; got ${describeValue(options)}.`);
  const { points, per, key, maxKeys = 10_000 } = options;
  if (!wholeNumber(points, 1))
    throw new DeclarationError(`rateLimit: points must be a whole number of at least 1; got ${describeValue(points)}.`);
  const periodMs = typeof per === 'string' ? PERIODS[per as keyof typeof PERIODS] : per;
  if (typeof periodMs !== 'number' || !Number.isFinite(periodMs) || periodMs <= 0) {
    throw new DeclarationError(
      `rateLimit: per must be a positive number of milliseconds or 'second', 'minute', 'hour' or 'day'; got ${describeValue(per)}.`,
    );
  }
  if (key !== undefined && typeof key !== 'function') {
    throw new DeclarationError(
      `rateLimit: key must be a function of the call, e.g. (call) => call.ambient.get('userId'); got ${describeValue(key)}.`,
    );
  }
  if (!wholeNumber(maxKeys, 1))
    throw new DeclarationError(`rateLimit: maxKeys must be a whole number of at least 1; got ${describeValue(maxKeys)}.`);
  const perPointMs = periodMs / points;
  const period = typeof per === 'string' ? per : `${per} ms`;
  // Insertion order is last-use order: a bucket is moved to the end whenever it is spent from.
  const buckets = new Map<string, { tokens: number; at: number }>();
  return function rateLimit(call, next) {
    let id: unknown = key ? key(call) : `${call.tool.id}@${call.tool.version}`;
    if (id === undefined || id === null) id = 'anonymous';
    if (typeof id !== 'string' && typeof id !== 'number') {
      throw new TypeError(`rateLimit: the key function must return a string or a number; got ${describeValue(id)} for ${call.tool.id}.`);
    }
    const name = `${typeof id}:${id}`;
    const now = performance.now();
    const bucket = buckets.get(name) ?? { tokens: points, at: now };
    bucket.tokens = Math.min(points, bucket.tokens + (now - bucket.at) / perPointMs);
    bucket.at = now;
    buckets.delete(name);
    buckets.set(name, bucket);
    if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value!);
    if (bucket.tokens < 1) {
      const retryAfterMs = Math.ceil((1 - bucket.tokens) * perPointMs);
      const message =
        `Too many calls to ${call.tool.toolName()}: the limit is ${points} per ${period}. ` +
        `Retry in ${retryAfterMs >= 1000 ? `${Math.ceil(retryAfterMs / 1000)} s` : `${retryAfterMs} ms`}.`;
      return call.fail(message, { standalone: true, cause: new ToolRateLimitError(message, retryAfterMs) });
    }
    bucket.tokens -= 1;
    return next();
  };
}

/** One finished call, as an audit hook receives it. `sensitive` fields read `[redacted]`. */
export interface AuditRecord {
  /** The tool's name and class (or `Service.method`). */
  readonly tool: string;
  readonly toolId: string;
  readonly version: number;
  readonly transport: TransportName;
  readonly callId: string;
  readonly outcome: Outcome;
  /** The user-facing error of a failure or exception. */
  readonly error?: string;
  /** The class of the error behind a failure or exception (`ToolRateLimitError`, `TypeError`, …). */
  readonly errorType?: string;
  /** When the call reached the audit hook, and how long it took from there. */
  readonly startedAt: Date;
  readonly durationMs: number;
  /** Who called: the ambient values of `identity` keys (default: the tool's own ambient fields). */
  readonly caller: Readonly<Record<string, unknown>>;
  /** The validated input the caller sent (ambient fields are in `caller`). */
  readonly input: Readonly<Record<string, unknown>>;
}

/** The options of the `audit` middleware. */
export interface AuditOptions {
  /** The ambient keys that identify a caller, recorded on every record (default: each tool's own ambient keys). */
  identity?: readonly string[];
}

function errorTypeOf(result: Result): string | undefined {
  if (result.ok) return undefined;
  try {
    const name = (result.exception as { constructor?: { name?: unknown } } | null)?.constructor?.name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Hands each finished call's record to `onRecord` (awaited). List it first to record every call
 * that passed validation, refusals by later middleware and denied approvals included. A hook that
 * throws fails the call as an exception (an audit that cannot record is not silently skipped).
 */
export function audit(onRecord: (record: AuditRecord) => void | Promise<void>, options: AuditOptions = {}): Middleware {
  if (typeof onRecord !== 'function')
    throw new DeclarationError(`audit: expected a function (record) => void; got ${describeValue(onRecord)}.`);
  if (!isPlainObject(options)) throw new DeclarationError(`audit: options must be { identity? }; got ${describeValue(options)}.`);
  const { identity } = options;
  if (identity !== undefined && (!Array.isArray(identity) || identity.some((key) => typeof key !== 'string'))) {
    throw new DeclarationError(`audit: identity must be a list of ambient keys; got ${describeValue(identity)}.`);
  }
  return async function audit(call, next) {
    const startedAt = new Date();
    const started = performance.now();
    const result = await next();
    const durationMs = performance.now() - started;
    const contract = call.tool.inputContract;
    const input = call.redactedInput();
    const caller: Record<string, unknown> = {};
    for (const field of contract.ambientFields) {
      if (identity === undefined && call.ambient.get(field.ambient!.key) !== undefined) {
        setOwn(caller, field.ambient!.key, field.sensitive ? REDACTED : call.ambient.get(field.ambient!.key));
      }
    }
    if (identity !== undefined) {
      for (const key of identity) {
        const value = call.ambient.get(key);
        if (value === undefined) continue;
        const field = contract.ambientFields.find((candidate) => candidate.ambient!.key === key);
        setOwn(caller, key, field?.sensitive ? REDACTED : value);
      }
    }
    await onRecord(
      Object.freeze({
        tool: call.tool.toolName(),
        toolId: call.tool.id,
        version: call.tool.version,
        transport: call.transport,
        callId: call.id,
        outcome: result.outcome,
        ...(result.ok ? {} : { error: result.error, errorType: errorTypeOf(result) }),
        startedAt,
        durationMs,
        caller: Object.freeze(caller),
        input: Object.freeze(input),
      }),
    );
    return result;
  };
}
