/**
 * A queue handle never hangs on an unreachable Redis. The queue's own connection fails fast, as
 * BullMQ advises for producers ("Failing fast when Redis is down"): ioredis' offline queue is off
 * (a command sent while disconnected is refused at once instead of waiting for a reconnect) and
 * `commandTimeout` bounds a command Redis never answers. BullMQ waits without bound for a first
 * connection, so that wait, and a wait for a reconnect, are bounded here. Either way the call
 * fails with a `RedisUnreachableError` naming where Redis should be and what to do; the connection
 * keeps reconnecting by itself, and calls work again once Redis is back.
 */
import type { ConnectionOptions } from 'bullmq';
import { ToolwrightError } from '../../index';

/** How long a handle call waits for an unreachable Redis (and the queue connection's `commandTimeout`). */
export const DEFAULT_REDIS_TIMEOUT_MS = 10_000;

/** A queue call that could not reach Redis. The queue reconnects by itself: call again once Redis is back. */
export class RedisUnreachableError extends ToolwrightError {
  override readonly code = 'REDIS_UNREACHABLE';
  constructor(
    message: string,
    /** What could not be done: `enqueue(check_credit)`, `status() of job …`. */
    readonly operation: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The ioredis client BullMQ hands out, as far as waiting for it goes. */
interface Client {
  readonly status: string;
  once(event: 'ready', listener: () => void): unknown;
  off(event: 'ready', listener: () => void): unknown;
}

function isInstance(connection: ConnectionOptions): boolean {
  return typeof (connection as { duplicate?: unknown }).duplicate === 'function';
}

/**
 * The queue's own connection: connection options with the offline queue off and `commandTimeout`
 * set (a value given in the options wins). An ioredis instance is used as it is: give it
 * `enableOfflineQueue: false` and a `commandTimeout` yourself.
 */
export function failFast(connection: ConnectionOptions, timeoutMs: number): ConnectionOptions {
  if (isInstance(connection)) return connection;
  return { enableOfflineQueue: false, commandTimeout: timeoutMs, ...(connection as object) } as ConnectionOptions;
}

/** Where Redis should be, for messages: `127.0.0.1:6379`, a URL's host, a socket path. */
export function describeRedis(connection: ConnectionOptions): string {
  const options = (isInstance(connection) ? (connection as { options?: object }).options : connection) as
    { host?: unknown; port?: unknown; path?: unknown; url?: unknown } | undefined;
  if (typeof options?.path === 'string') return options.path;
  if (typeof options?.url === 'string') {
    try {
      return new URL(options.url).host;
    } catch {
      return 'the configured URL';
    }
  }
  return `${typeof options?.host === 'string' ? options.host : '127.0.0.1'}:${typeof options?.port === 'number' ? options.port : 6379}`;
}

/** ioredis' and Node's words for a connection that is down, refused, cut or silent. */
const CONNECTION_TROUBLE =
  /enableOfflineQueue|Connection is closed|Command timed out|max retries per request|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN/i;

export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return error.name === 'MaxRetriesPerRequestError' || CONNECTION_TROUBLE.test(error.message) || (!!code && CONNECTION_TROUBLE.test(code));
}

/** `promise`'s value, or `expired` when `ms` pass first. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof EXPIRED> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<typeof EXPIRED>((resolve) => (timer = setTimeout(() => resolve(EXPIRED), ms)));
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}
export const EXPIRED: unique symbol = Symbol('expired');

/** Runs a queue's Redis work within its bounds (see the top of this file). */
export class RedisGate {
  /** The last connection error BullMQ reported, for the message. */
  lastError: string | undefined;

  constructor(
    private readonly client: () => Promise<Client>,
    /** Where Redis should be, for messages. */
    readonly where: string,
    readonly timeoutMs: number,
  ) {}

  /**
   * Waits (at most `budgetMs`) for the connection to be ready, then runs `work`; a connection
   * failure on the way is a `RedisUnreachableError` for `operation`, ending with `then`: what the
   * caller should know and do.
   */
  async run<T>(operation: string, then: string, work: () => Promise<T>, budgetMs = this.timeoutMs): Promise<T> {
    await this.ready(operation, then, budgetMs);
    try {
      return await work();
    } catch (error) {
      if (isConnectionError(error)) throw this.unreachable(operation, then, error);
      throw error;
    }
  }

  /**
   * `run` for a caller with a deadline of its own (`result({ timeoutMs })`): the connection and
   * `work` get `budgetMs` in all, and a Redis that is connected but has not answered by then is
   * EXPIRED (it may be slow or stopped: the caller says what it knows). A budget of `timeoutMs` needs
   * no timer: the connection's `commandTimeout` bounds each command. A late answer is dropped.
   */
  async runWithin<T>(operation: string, then: string, work: () => Promise<T>, budgetMs: number): Promise<T | typeof EXPIRED> {
    if (budgetMs >= this.timeoutMs) return this.run(operation, then, work, budgetMs);
    const end = Date.now() + budgetMs;
    return this.run(operation, then, () => within(work(), Math.max(1, end - Date.now())), budgetMs);
  }

  /** Waits for `promise` (another connection's readiness) at most `budgetMs`; unreachable otherwise. */
  async wait(operation: string, then: string, promise: Promise<unknown>, budgetMs = this.timeoutMs): Promise<void> {
    if ((await within(promise, budgetMs)) === EXPIRED) throw this.unreachable(operation, then);
  }

  /** The client once it was there: a connected one needs no timer to be waited for. */
  private known: Client | undefined;

  private async ready(operation: string, then: string, budgetMs: number): Promise<void> {
    if (this.known?.status === 'ready') return;
    const client = await within(this.client(), budgetMs);
    if (client === EXPIRED) throw this.unreachable(operation, then);
    this.known = client;
    if (client.status === 'ready') return;
    let onReady!: () => void;
    const ready = new Promise<void>((resolve) => client.once('ready', (onReady = resolve)));
    try {
      if ((await within(ready, budgetMs)) === EXPIRED) throw this.unreachable(operation, then);
    } finally {
      client.off('ready', onReady);
    }
  }

  unreachable(operation: string, then: string, cause?: unknown): RedisUnreachableError {
    const why = (cause instanceof Error ? cause.message : undefined) ?? this.lastError;
    return new RedisUnreachableError(
      `toolwright/queue: Redis at ${this.where} is unreachable${why ? ` (${why})` : ''}, so ${operation} could not be done. ${then} ` +
        `Check that Redis is running and reachable there (createToolQueue({ connection })). A call waits up to ${this.timeoutMs} ms ` +
        '(redisTimeoutMs) for it and the queue reconnects by itself: call again once it is back.',
      operation,
      cause === undefined ? undefined : { cause },
    );
  }
}
