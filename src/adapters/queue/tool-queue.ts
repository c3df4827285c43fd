import { randomUUID } from 'node:crypto';
import { Job, Queue, QueueEvents, type ConnectionOptions, type JobsOptions } from 'bullmq';
import { Invoker, Result, ToolDefinition, ToolLike, Tools } from '../../index';
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
} from './delivery';
import { ambientToJson, fromWire, toWire, ToolJobData, ToolJobError } from './wire';
import { closeConnections, endStrandedDisconnectsOf, redisClientOf } from './connections';
import { DEFAULT_REDIS_TIMEOUT_MS, describeRedis, EXPIRED, failFast, RedisGate, within } from './reachability';
import { isTimeoutMs, TIMEOUT_RULE } from '../../adapter-kit/internal';
import { DeclarationError } from '../../index';
import type { EnqueueOptions, ToolJob, ToolJobInfo, ToolQueueOptions } from './handles';
import { asksOf, inputChannel, inputKey, jobInput } from './asks';

interface Waiter {
  /** Called with the job's return value when its 'completed' event carried one. */
  resolve: (completed?: { returnvalue: unknown }) => void;
}

const OPTION_KEYS = new Set(['connection', 'name', 'prefix', 'invoker', 'keepFinished', 'redisTimeoutMs']);
const ENQUEUE_KEYS = new Set([
  'ambientContext',
  'jobId',
  'delay',
  'attempts',
  'backoffMs',
  'priority',
  'nullMeansAbsent',
  'invalidInputAsJob',
  'approved',
  'outcome',
  'asks',
]);

/** What enqueue needs of a tool, read once per tool. */
interface EnqueueFacts {
  readonly name: string;
  readonly where: string;
  readonly retryable: boolean;
}
const enqueueFactsByTool = new WeakMap<ToolDefinition, EnqueueFacts>();
function enqueueFacts(definition: ToolDefinition): EnqueueFacts {
  let facts = enqueueFactsByTool.get(definition);
  if (!facts) {
    const name = definition.toolName('queue');
    enqueueFactsByTool.set(definition, (facts = { name, where: `enqueue(${name})`, retryable: isRetryable(definition) }));
  }
  return facts;
}

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
  /** The events are up: result() waits for them no more. */
  private listening = false;
  private readonly waiters = new Map<string, Set<Waiter>>();
  private closed = false;
  /** The connection as given: QueueEvents blocks on it, so it gets no command timeout. */
  private readonly connection: ConnectionOptions;
  private readonly redis: RedisGate;

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
    const redisTimeoutMs = options.redisTimeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
    if (!isTimeoutMs(redisTimeoutMs)) {
      throw new DeclarationError(
        `createToolQueue: redisTimeoutMs must be ${TIMEOUT_RULE}; got ${describeValue(options.redisTimeoutMs)}. Leave it out for the default (${DEFAULT_REDIS_TIMEOUT_MS}).`,
      );
    }
    this.connection = options.connection;
    this.bullQueue = new Queue<ToolJobData>(this.name, { connection: failFast(options.connection, redisTimeoutMs), prefix: this.prefix });
    this.redis = new RedisGate(() => redisClientOf(this.bullQueue), describeRedis(options.connection), redisTimeoutMs);
    this.bullQueue.on('error', this.connectionError);
    endStrandedDisconnectsOf(this.bullQueue);
  }

  /**
   * BullMQ reconnects by itself; a connection error is logged as one line (an 'error' event with no
   * listener would crash the process), and the ones a close causes are expected.
   */
  private readonly connectionError = (error: Error): void => {
    if (this.redis) this.redis.lastError = error?.message;
    if (!this.closed) console.error(`toolwright/queue: queue '${this.name}': Redis connection error: ${error?.message ?? String(error)}`);
  };

  /**
   * Validates the arguments through the invoker (an input failure comes back at once, and nothing is
   * enqueued), then enqueues the tool's name, version, prepared input and ambient values.
   */
  async enqueue<T = unknown>(tool: ToolLike, args?: unknown, options: EnqueueOptions = {}): Promise<ToolJob<T>> {
    if (this.closed) throw new TypeError(`ToolQueue '${this.name}' is closed; create another with createToolQueue().`);
    const definition = Tools.resolve(tool);
    const { name, where, retryable } = enqueueFacts(definition);
    checkOptionsObject(where, options, ENQUEUE_KEYS, { heading: 'Known' });
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
    const asks = asksOf(options.asks, where);

    const { outcome } = options;
    if (outcome !== undefined && !(outcome instanceof Result)) {
      throw new DeclarationError(`${where}: outcome must be the Result the call was answered with; got ${describeValue(outcome)}.`);
    }
    const checked = outcome
      ? { ok: false as const, result: outcome as Result<never> }
      : await this.invoker.validate(definition, args, { nullMeansAbsent: options.nullMeansAbsent });
    if (!checked.ok && !options.invalidInputAsJob && !outcome) return this.rejected<T>(definition, checked.result);

    const data: ToolJobData = {
      tool: name,
      version: definition.version,
      ...(checked.ok
        ? {
            input: checked.input,
            ambient,
            ...(options.approved === true ? { approved: true as const } : {}),
            ...(asks.length > 0 ? { asks } : {}),
          }
        : { input: {}, ambient: {}, rejected: toWire(checked.result) }),
    };
    const jobId = options.jobId ?? randomUUID();
    const added = `enqueue(${data.tool}) of job ${jobId}`;
    const retry =
      'The call may not have been enqueued: enqueue it again with this jobId (an id that exists returns that job, never a second one).';
    const job = await this.redis.run(added, retry, () =>
      this.bullQueue.add(data.tool, data, {
        jobId,
        attempts,
        ...(attempts > 1 ? { backoff: { type: 'exponential', delay: backoffMs } } : {}),
        ...(delay ? { delay } : {}),
        ...(priority ? { priority } : {}),
        removeOnComplete: this.keep,
        removeOnFail: this.keep,
      }),
    );
    return this.handle<T>(definition, job.id!);
  }

  /**
   * The handle of a job enqueued before (by this or another process), or undefined when Redis has no
   * such job or its tool is not among `tools` (default: every member of adapter `queue`, all versions).
   */
  async job<T = unknown>(id: string, options: { tools?: readonly ToolLike[] } = {}): Promise<ToolJob<T> | undefined> {
    if (typeof id !== 'string' || id === '') throw new TypeError(`ToolQueue.job: id must be a job id string; got ${describeValue(id)}.`);
    const data = await this.redis.run(`job(${id})`, 'Whether the job exists is unknown.', async () => {
      const job = await Job.fromId<ToolJobData>(this.bullQueue, id);
      return job?.data ?? (await this.cancelledData(id));
    });
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
    await closeConnections(this.bullQueue, this.events, this.redis.timeoutMs);
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
      input: async () => ({ pending: [], answered: [] }),
      answer: async () => 'unknown',
    };
  }

  private handle<T>(tool: ToolDefinition, id: string): ToolJob<T> {
    return {
      id,
      tool,
      accepted: true,
      status: async () => (await this.redis.run(`status() of job ${id}`, 'The job is where it was.', () => this.info(id))).status,
      info: () => this.redis.run(`info() of job ${id}`, 'The job is where it was.', () => this.info(id)),
      result: (options) => this.result(tool, id, options?.timeoutMs) as Promise<Result<T>>,
      cancel: () => this.redis.run(`cancel() of job ${id}`, 'The job may not have been cancelled: cancel it again.', () => this.cancel(id)),
      ...jobInput(
        this.redis,
        () => redisClientOf(this.bullQueue),
        inputKey(this.prefix, this.name, id),
        inputChannel(this.prefix, this.name),
        id,
      ),
    };
  }

  private async isCancelled(id: string): Promise<boolean> {
    const client = await redisClientOf(this.bullQueue);
    return (await client.exists(cancelledKey(this.prefix, this.name, id))) === 1;
  }

  private async info(id: string): Promise<ToolJobInfo> {
    let job = await Job.fromId<ToolJobData>(this.bullQueue, id);
    if (!job) return { status: (await this.isCancelled(id)) ? 'cancelled' : 'unknown' };
    const state = await job.getState();
    // Finished between the two reads: read it again for its outcome and times.
    if ((state === 'completed' || state === 'failed') && job.finishedOn === undefined)
      job = (await Job.fromId<ToolJobData>(this.bullQueue, id)) ?? job;
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
    // Redis is waited for at most redisTimeoutMs at a time, and never past the caller's timeout.
    const budget = () => Math.max(1, Math.min(this.redis.timeoutMs, deadline === undefined ? Infinity : deadline - Date.now()));
    const operation = `result() of job ${id}`;
    const then = 'The call may still run: ask again with result().';
    // Has Redis answered a look yet? If not when the timeout passes, the message says Redis was silent.
    let answered = false;
    const timedOut = () =>
      Result.exception(
        tool,
        new ToolJobError(
          answered
            ? `Job ${id} did not finish within ${timeoutMs} ms; it may still run. Ask again with result().`
            : `Job ${id} did not finish within ${timeoutMs} ms as far as is known: Redis at ${this.redis.where} did not answer in that time. ` +
                'It may still run: ask again with result().',
          id,
        ),
      );
    // Listening makes result() prompt; events that are not up within the budget still leave the polls below.
    if (!this.listening) await within(this.listen(), budget()).catch(() => undefined);
    for (;;) {
      // Listen before looking, so a job that finishes in between still wakes us.
      let waiter!: Waiter;
      const woken = new Promise<{ returnvalue: unknown } | undefined>((resolve) => (waiter = { resolve }));
      let set = this.waiters.get(id);
      if (!set) this.waiters.set(id, (set = new Set()));
      set.add(waiter);
      try {
        // A Redis that is connected but does not answer (stopped, overloaded) is waited for no longer than the timeout.
        const finished = await this.redis.runWithin(operation, then, () => this.finished(tool, id), budget());
        if (finished === EXPIRED) return timedOut();
        if (finished) return finished;
        answered = true;
        if (this.closed) return Result.exception(tool, new ToolJobError(`The queue was closed before job ${id} finished.`, id));
        const left = deadline === undefined ? undefined : deadline - Date.now();
        if (left !== undefined && left <= 0) return timedOut();
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

  /**
   * How a job ended, read as Job.fromId reads it but only the fields that tell: `finishedOn`,
   * `failedReason`, the return value (null when there is none, undefined when it is not JSON).
   * Undefined when the job is not in Redis (every job has a `timestamp` from its add). Never its
   * `data`: the input may be large, and result() may read this several times.
   */
  private async ending(id: string): Promise<{ finishedOn?: string; failedReason?: string; returnvalue: unknown } | undefined> {
    const client = await redisClientOf(this.bullQueue);
    const fields = await client.hmget(this.bullQueue.toKey(id), 'timestamp', 'finishedOn', 'failedReason', 'returnvalue');
    if (fields.every((field) => field === null)) return undefined;
    const [, finishedOn, failedReason, returnvalue] = fields;
    let value: unknown = null;
    if (typeof returnvalue === 'string') {
      try {
        value = JSON.parse(returnvalue);
      } catch {
        value = undefined;
      }
    }
    return { finishedOn: finishedOn || undefined, failedReason: failedReason || undefined, returnvalue: value };
  }

  private async finished(tool: ToolDefinition, id: string): Promise<Result | undefined> {
    const job = await this.ending(id);
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
      this.events = new QueueEvents(this.name, { connection: this.connection, prefix: this.prefix });
      this.events.on('error', this.connectionError);
      endStrandedDisconnectsOf(this.events);
      this.events.on('completed', ({ jobId, returnvalue }) => this.wake(jobId, { returnvalue }));
      this.events.on('failed', ({ jobId }) => this.wake(jobId));
      this.events.on('removed', ({ jobId }) => this.wake(jobId));
      this.eventsReady = this.events.waitUntilReady().then((client) => {
        this.listening = true;
        return client;
      });
    }
    return this.eventsReady;
  }
}

/** A queue for tool calls on Redis (BullMQ): `createToolQueue({ connection: { host, port } })`. */
export function createToolQueue(options: ToolQueueOptions): ToolQueue {
  return new ToolQueue(options);
}
