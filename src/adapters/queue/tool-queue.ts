import { randomUUID } from 'node:crypto';
import { Job, Queue, QueueEvents, type ConnectionOptions, type JobsOptions } from 'bullmq';
import { AmbientSource, Invoker, InvokerOptions, Result, ToolDefinition, ToolLike, Tools } from '../../index';
import { checkOptionsObject, describeValue } from '../../adapter-kit';
import { isPlainObject } from '../../adapter-kit/internal';
import {
  CANCEL_MARK_SECONDS,
  cancelChannel,
  cancelledKey,
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  DEFAULT_PREFIX,
  DEFAULT_QUEUE_NAME,
  isRetryable,
  redisClientOf,
} from './delivery';
import { ambientToJson, fromWire, toWire, ToolJobData, ToolJobError } from './wire';
import { DeclarationError } from '../../index';

export interface ToolQueueOptions {
  /** Where Redis is: ioredis options (`{ host, port }`) or an ioredis instance, as BullMQ takes them. */
  connection: ConnectionOptions;
  /** The BullMQ queue's name (default `toolwright`); workers must use the same. */
  name?: string;
  /** BullMQ's key prefix (default `bull`). */
  prefix?: string;
  /** Invoker options for the validation done before enqueueing (`rejectUndeclaredInputs`, …). */
  invoker?: InvokerOptions;
  /**
   * Finished jobs kept in Redis, so `result()` can still be read later (default: 1 hour and at
   * most 10 000 of each; `false` keeps them all).
   */
  keepFinished?: false | { ageSeconds?: number; count?: number };
}

export interface EnqueueOptions {
  /** Trusted values for the tool's `@AmbientContext` fields; they travel in Redis as JSON. */
  ambientContext?: AmbientSource;
  /** Your own id for the job (default: a random UUID). Enqueueing an id that exists returns that job. */
  jobId?: string;
  /** Milliseconds to wait before the job may start. */
  delay?: number;
  /**
   * Runs in total for an `idempotent` or `readOnly` tool (default 3): an exception, or a worker that
   * stopped mid-call, is retried with exponential backoff. Any other tool runs at most once: more
   * than 1 is refused.
   */
  attempts?: number;
  /** The first retry's delay in milliseconds (default 1000), doubled for each next one. */
  backoffMs?: number;
  /** BullMQ priority: 1 is the highest; jobs without a priority go first. */
  priority?: number;
  /** Treat `null` on a field that is not nullable as absent (OpenAI strict mode). */
  nullMeansAbsent?: boolean;
  /**
   * Enqueue a call whose input is invalid too, as a job that ends with the input failure without
   * running the tool, so every process finds the same outcome by id (MCP tasks do this). Default
   * false: the failure comes back at once and nothing is enqueued.
   */
  invalidInputAsJob?: boolean;
}

/** Where a queued call is, with its times. */
export interface ToolJobInfo {
  readonly status: ToolJobStatus;
  readonly enqueuedAt?: Date;
  /** When it last changed: started, finished, or was enqueued. */
  readonly updatedAt?: Date;
  /** Why a `failed` job failed. */
  readonly failedReason?: string;
}

/** Where a queued call is. `rejected`: its input was invalid and it was never enqueued. */
export type ToolJobStatus = 'rejected' | 'waiting' | 'delayed' | 'active' | 'completed' | 'failed' | 'cancelled' | 'unknown';

/** A queued call. */
export interface ToolJob<T = unknown> {
  /** The job's id, or undefined when the input was invalid and nothing was enqueued. */
  readonly id: string | undefined;
  readonly tool: ToolDefinition;
  /** False when the input was invalid: `result()` is that failure, and nothing runs. */
  readonly accepted: boolean;
  status(): Promise<ToolJobStatus>;
  /** The status with its times, and why a failed job failed. */
  info(): Promise<ToolJobInfo>;
  /**
   * Waits for the call's outcome: the same outcome, message and field errors as an in-process call.
   * A worker that stopped mid-call, or refused the job, gives an exception Result naming why.
   */
  result(options?: { timeoutMs?: number }): Promise<Result<T>>;
  /**
   * Cancels the call: a waiting job is removed; a running one has its tool's `signal` aborted and
   * ends with the cancelled failure. Resolves false when the call had already finished.
   */
  cancel(): Promise<boolean>;
}

interface Waiter {
  /** Called with the job's return value when its 'completed' event carried one. */
  resolve: (completed?: { returnvalue: unknown }) => void;
}

const OPTION_KEYS = new Set(['connection', 'name', 'prefix', 'invoker', 'keepFinished']);
const ENQUEUE_KEYS = new Set([
  'ambientContext',
  'jobId',
  'delay',
  'attempts',
  'backoffMs',
  'priority',
  'nullMeansAbsent',
  'invalidInputAsJob',
]);

function positiveInteger(value: unknown, name: string, where: string, min = 1): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new DeclarationError(`${where}: ${name} must be an integer of at least ${min}; got ${describeValue(value)}.`);
  }
  return value;
}

/**
 * Tool calls on a BullMQ queue: `enqueue` validates here and runs the tool on any worker started
 * with `startToolWorker` on the same Redis and queue name.
 */
export class ToolQueue {
  readonly name: string;
  readonly prefix: string;
  /** The BullMQ queue underneath, for monitoring (Bull Board, metrics). */
  readonly bullQueue: Queue<ToolJobData>;
  private readonly invoker: Invoker;
  private readonly keep: JobsOptions['removeOnComplete'];
  private events: QueueEvents | undefined;
  private eventsReady: Promise<unknown> | undefined;
  private readonly waiters = new Map<string, Set<Waiter>>();
  private closed = false;

  constructor(options: ToolQueueOptions) {
    checkOptionsObject('createToolQueue', options, OPTION_KEYS, { heading: 'Known' });
    if (!options || options.connection === undefined) {
      throw new DeclarationError(
        "createToolQueue needs { connection }: where Redis is, e.g. { connection: { host: '127.0.0.1', port: 6379 } }.",
      );
    }
    if (options.name !== undefined && (typeof options.name !== 'string' || options.name.trim() === '' || options.name.includes(':'))) {
      throw new DeclarationError(`createToolQueue: name must be a non-empty string without ':'; got ${describeValue(options.name)}.`);
    }
    this.name = options.name ?? DEFAULT_QUEUE_NAME;
    this.prefix = options.prefix ?? DEFAULT_PREFIX;
    this.invoker = new Invoker(options.invoker);
    const keep = options.keepFinished;
    this.keep = keep === false ? false : { age: keep?.ageSeconds ?? 3600, count: keep?.count ?? 10_000 };
    this.bullQueue = new Queue<ToolJobData>(this.name, { connection: options.connection, prefix: this.prefix });
    this.bullQueue.on('error', this.connectionError);
  }

  /**
   * BullMQ reconnects by itself; a connection error is logged as one line (an 'error' event with no
   * listener would crash the process), and the ones a close causes are expected.
   */
  private readonly connectionError = (error: Error): void => {
    if (!this.closed) console.error(`toolwright/queue: queue '${this.name}': Redis connection error: ${error?.message ?? String(error)}`);
  };

  /**
   * Validates the arguments through the invoker (an input failure comes back at once, and nothing is
   * enqueued), then enqueues the tool's name, version, prepared input and ambient values.
   */
  async enqueue<T = unknown>(tool: ToolLike, args?: unknown, options: EnqueueOptions = {}): Promise<ToolJob<T>> {
    if (this.closed) throw new TypeError(`ToolQueue '${this.name}' is closed; create another with createToolQueue().`);
    const definition = Tools.resolve(tool);
    const where = `enqueue(${definition.toolName('queue')})`;
    checkOptionsObject(where, options, ENQUEUE_KEYS, { heading: 'Known' });
    const retryable = isRetryable(definition);
    const attempts = positiveInteger(options.attempts, 'attempts', where) ?? (retryable ? DEFAULT_ATTEMPTS : 1);
    if (attempts > 1 && !retryable) {
      throw new DeclarationError(
        `${where}: attempts ${attempts} would run ${definition.id} more than once, and it is neither idempotent nor readOnly. ` +
          "Declare @SemanticHints('idempotent') if running it twice is safe, or leave attempts out.",
        { class: definition.target, member: definition.kind === 'method' ? definition.method : undefined },
      );
    }
    const delay = positiveInteger(options.delay, 'delay', where, 0);
    const priority = positiveInteger(options.priority, 'priority', where);
    const backoffMs = positiveInteger(options.backoffMs, 'backoffMs', where, 0) ?? DEFAULT_BACKOFF_MS;
    if (
      options.jobId !== undefined &&
      (typeof options.jobId !== 'string' || options.jobId === '' || options.jobId.includes(':') || /^\d+$/.test(options.jobId))
    ) {
      throw new TypeError(
        `${where}: jobId must be a non-empty string without ':' that is not only digits; got ${describeValue(options.jobId)}.`,
      );
    }
    const ambient = ambientToJson(options.ambientContext, where);

    const checked = await this.invoker.validate(definition, args, { nullMeansAbsent: options.nullMeansAbsent });
    if (!checked.ok && !options.invalidInputAsJob) return this.rejected<T>(definition, checked.result);

    const data: ToolJobData = {
      tool: definition.toolName('queue'),
      version: definition.version,
      ...(checked.ok ? { input: checked.input, ambient } : { input: {}, ambient: {}, rejected: toWire(checked.result) }),
    };
    const job = await this.bullQueue.add(data.tool, data, {
      jobId: options.jobId ?? randomUUID(),
      attempts,
      ...(attempts > 1 ? { backoff: { type: 'exponential', delay: backoffMs } } : {}),
      ...(delay ? { delay } : {}),
      ...(priority ? { priority } : {}),
      removeOnComplete: this.keep,
      removeOnFail: this.keep,
    });
    return this.handle<T>(definition, job.id!);
  }

  /**
   * The handle of a job enqueued before (by this or another process), or undefined when Redis has no
   * such job or its tool is not among `tools` (default: every member of adapter `queue`, all versions).
   */
  async job<T = unknown>(id: string, options: { tools?: readonly ToolLike[] } = {}): Promise<ToolJob<T> | undefined> {
    if (typeof id !== 'string' || id === '') throw new TypeError(`ToolQueue.job: id must be a job id string; got ${describeValue(id)}.`);
    const job = await Job.fromId<ToolJobData>(this.bullQueue, id);
    const data = job?.data ?? (await this.cancelledData(id));
    if (!data) return undefined;
    const candidates = options.tools ? options.tools.map((tool) => Tools.resolve(tool)) : Tools.forAdapter('queue', { allVersions: true });
    const definition = candidates.find((tool) => tool.toolName('queue') === data.tool && tool.version === data.version);
    return definition ? this.handle<T>(definition, id) : undefined;
  }

  /** How long finished jobs stay readable, in milliseconds (null: until removed). */
  get keepFinishedMs(): number | null {
    return this.keep === false ? null : (this.keep as { age: number }).age * 1000;
  }

  /** Closes the queue's Redis connections. Jobs already enqueued stay for the workers. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const set of this.waiters.values()) for (const waiter of set) waiter.resolve();
    this.waiters.clear();
    await Promise.all([this.bullQueue.close(), this.events?.close()]);
  }

  /** The tool of a waiting job that was cancelled (and so removed), from its cancellation mark. */
  private async cancelledData(id: string): Promise<Pick<ToolJobData, 'tool' | 'version'> | undefined> {
    const client = await redisClientOf(this.bullQueue);
    const mark = await client.get(cancelledKey(this.prefix, this.name, id));
    try {
      const data = mark ? (JSON.parse(mark) as unknown) : undefined;
      return isPlainObject(data) && typeof data.tool === 'string' && typeof data.version === 'number' ? (data as never) : undefined;
    } catch {
      return undefined;
    }
  }

  private rejected<T>(tool: ToolDefinition, result: Result<never>): ToolJob<T> {
    return {
      id: undefined,
      tool,
      accepted: false,
      status: async () => 'rejected',
      info: async () => ({ status: 'rejected' }),
      result: async () => result,
      cancel: async () => false,
    };
  }

  private handle<T>(tool: ToolDefinition, id: string): ToolJob<T> {
    return {
      id,
      tool,
      accepted: true,
      status: async () => (await this.info(id)).status,
      info: () => this.info(id),
      result: (options) => this.result(tool, id, options?.timeoutMs) as Promise<Result<T>>,
      cancel: () => this.cancel(id),
    };
  }

  private async isCancelled(id: string): Promise<boolean> {
    const client = await redisClientOf(this.bullQueue);
    return (await client.exists(cancelledKey(this.prefix, this.name, id))) === 1;
  }

  private async info(id: string): Promise<ToolJobInfo> {
    const job = await Job.fromId<ToolJobData>(this.bullQueue, id);
    if (!job) return { status: (await this.isCancelled(id)) ? 'cancelled' : 'unknown' };
    const state = await job.getState();
    const enqueuedAt = new Date(job.timestamp);
    const updatedAt = new Date(Math.max(job.timestamp, job.processedOn ?? 0, job.finishedOn ?? 0));
    const times = { enqueuedAt, updatedAt };
    if (state === 'completed') {
      return { status: (job.returnvalue as { cancelled?: boolean } | null)?.cancelled ? 'cancelled' : 'completed', ...times };
    }
    if (state === 'failed') {
      if (await this.isCancelled(id)) return { status: 'cancelled', ...times };
      return { status: 'failed', ...times, failedReason: job.failedReason };
    }
    if (state === 'active') return { status: 'active', ...times };
    if (state === 'delayed') return { status: 'delayed', ...times };
    if (state === 'waiting' || state === 'prioritized' || state === 'waiting-children') return { status: 'waiting', ...times };
    return { status: 'unknown', ...times };
  }

  private async cancel(id: string): Promise<boolean> {
    const job = await Job.fromId<ToolJobData>(this.bullQueue, id);
    if (!job) return false;
    const state = await job.getState();
    if (state === 'completed' || state === 'failed') return false;
    const client = await redisClientOf(this.bullQueue);
    // The mark first: a worker that takes the job a moment later sees it and does not run the tool.
    const mark = JSON.stringify({ tool: job.data.tool, version: job.data.version });
    await client.set(cancelledKey(this.prefix, this.name, id), mark, 'EX', CANCEL_MARK_SECONDS);
    if (state !== 'active') {
      try {
        await job.remove();
        this.wake(id);
        return true;
      } catch {
        // Taken by a worker meanwhile (locked): cancel it where it runs.
      }
    }
    await client.publish(cancelChannel(this.prefix, this.name), id);
    return true;
  }

  private async result(tool: ToolDefinition, id: string, timeoutMs?: number): Promise<Result> {
    const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    await this.listen();
    for (;;) {
      // Listen before looking, so a job that finishes in between still wakes us.
      let waiter!: Waiter;
      const woken = new Promise<{ returnvalue: unknown } | undefined>((resolve) => (waiter = { resolve }));
      let set = this.waiters.get(id);
      if (!set) this.waiters.set(id, (set = new Set()));
      set.add(waiter);
      try {
        const finished = await this.finished(tool, id);
        if (finished) return finished;
        if (this.closed) return Result.exception(tool, new ToolJobError(`The queue was closed before job ${id} finished.`, id));
        const left = deadline === undefined ? undefined : deadline - Date.now();
        if (left !== undefined && left <= 0) {
          return Result.exception(
            tool,
            new ToolJobError(`Job ${id} did not finish within ${timeoutMs} ms; it may still run. Ask again with result().`, id),
          );
        }
        let timer: NodeJS.Timeout | undefined;
        // A slow poll as well: an event lost while Redis reconnects must not leave us waiting forever.
        const completed = await new Promise<{ returnvalue: unknown } | undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), Math.min(left ?? 5000, 5000));
          void woken.then(resolve);
        });
        clearTimeout(timer);
        // The completed event carries the return value: no need to read the job again.
        if (completed && completed.returnvalue !== null && completed.returnvalue !== undefined)
          return fromWire(tool, completed.returnvalue, id);
      } finally {
        set.delete(waiter);
        if (set.size === 0) this.waiters.delete(id);
      }
    }
  }

  private async finished(tool: ToolDefinition, id: string): Promise<Result | undefined> {
    const job = await Job.fromId<ToolJobData>(this.bullQueue, id);
    if (!job) {
      if (await this.isCancelled(id))
        return fromWire(tool, { outcome: 'failure', message: 'The call was cancelled.', cancelled: true }, id);
      return Result.exception(
        tool,
        new ToolJobError(`Job ${id} is not in Redis: it never existed, or it finished and was removed (keepFinished).`, id),
      );
    }
    if (job.finishedOn === undefined) return undefined;
    if (job.failedReason !== undefined && job.returnvalue === null) {
      if (await this.isCancelled(id))
        return fromWire(tool, { outcome: 'failure', message: 'The call was cancelled.', cancelled: true }, id);
      return Result.exception(tool, new ToolJobError(`Job ${id} failed: ${job.failedReason}`, id));
    }
    return fromWire(tool, job.returnvalue, id);
  }

  private wake(id: string, completed?: { returnvalue: unknown }): void {
    for (const waiter of this.waiters.get(id) ?? []) waiter.resolve(completed);
  }

  private listen(): Promise<unknown> {
    if (!this.eventsReady) {
      this.events = new QueueEvents(this.name, { connection: this.bullQueue.opts.connection, prefix: this.prefix });
      this.events.on('error', this.connectionError);
      this.events.on('completed', ({ jobId, returnvalue }) => this.wake(jobId, { returnvalue }));
      this.events.on('failed', ({ jobId }) => this.wake(jobId));
      this.events.on('removed', ({ jobId }) => this.wake(jobId));
      this.eventsReady = this.events.waitUntilReady();
    }
    return this.eventsReady;
  }
}

/** A queue for tool calls on Redis (BullMQ): `createToolQueue({ connection: { host, port } })`. */
export function createToolQueue(options: ToolQueueOptions): ToolQueue {
  return new ToolQueue(options);
}
