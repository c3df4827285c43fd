import { UnrecoverableError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import IORedis from 'ioredis';
import type { DependencyContainer } from 'tsyringe';
import {
  AmbientSource,
  Invoker,
  InvokerOptions,
  Result,
  ToolCancelledError,
  ToolDefinition,
  ToolLike,
  ToolResolver,
  Tools,
} from '../../index';
import { checkCallOptions, checkKnownKeys, describeValue } from '../../adapter-kit';
import { isPlainObject } from '../../adapter-kit/internal';
import { cancelChannel, DEFAULT_PREFIX, DEFAULT_QUEUE_NAME, isRetryable } from './delivery';
import { isScrubbed, scrubJobData } from './scrub';
import { endStrandedDisconnects, endStrandedDisconnectsOf, redisClientOf } from './connections';
import { InputWaits, inputChannel, inputKey, JobAsks, jobContext } from './asks';
import { toWire, ToolJobData, WireResult } from './wire';
import { DeclarationError } from '../../index';

/** What a worker's `ambientContext` function receives. */
export interface QueuedCall {
  readonly jobId: string;
  readonly tool: ToolDefinition;
  /** The ambient values the enqueuing process sent, as they came out of Redis. */
  readonly enqueued: Readonly<Record<string, unknown>>;
}

/** The options of `startToolWorker({ ... })`: where Redis is, the queue's name, the tools it runs, the container, concurrency, ambient values, the invoker and the job lock. */
export interface ToolWorkerOptions {
  /** Where Redis is: ioredis options or an ioredis instance, as BullMQ takes them. */
  connection: ConnectionOptions;
  /** The queue's name (default `toolwright`): the same as `createToolQueue`'s. */
  name?: string;
  /** BullMQ's key prefix (default `bull`). */
  prefix?: string;
  /** The tools this worker runs. Default: every member of adapter `queue`, all versions. */
  tools?: readonly ToolLike[];
  /** The container tools resolve from; each job gets a child of it. */
  container?: DependencyContainer;
  /** How the instance a tool runs on is made (default: tsyringe, from `container`). It gets the BullMQ job as `call.request`. */
  resolver?: ToolResolver;
  /** Jobs run at once in this process (default 1). */
  concurrency?: number;
  /**
   * The ambient values a job's tool receives. Default: those the enqueuing process sent. Derive
   * values here that the worker should not take from Redis.
   */
  ambientContext?: (call: QueuedCall) => AmbientSource | undefined | Promise<AmbientSource | undefined>;
  /** Invoker options: time limits, `onException`, `rejectUndeclaredInputs`, … */
  invoker?: Omit<InvokerOptions, 'container'>;
  /**
   * How long a running job's lock lasts without renewal (default 30 000 ms). A worker that dies
   * mid-call is noticed after about this long; its retryable jobs then run elsewhere.
   */
  lockDurationMs?: number;
  /** How often this worker looks for jobs whose worker died (default: lockDurationMs). */
  stalledIntervalMs?: number;
  /**
   * How long a job enqueued with `asks` waits for an answer to one ask (`context.elicit` /
   * `context.sample`) before it is stopped and ends failed, saying so (default 600 000 ms: ten minutes).
   */
  inputTimeoutMs?: number;
}

/** What `startToolWorker` returns: a worker running the queue's jobs through the invoker. */
export interface ToolWorker {
  /** The BullMQ worker underneath, for monitoring. */
  readonly bullWorker: Worker<ToolJobData, WireResult>;
  /** Resolves when the worker is connected and taking jobs. */
  ready(): Promise<void>;
  /** Stops taking jobs and waits for running calls to finish (`{ force: true }` aborts them). */
  close(options?: { force?: boolean }): Promise<void>;
}

const OPTION_KEYS = new Set([
  'connection',
  'name',
  'prefix',
  'tools',
  'container',
  'resolver',
  'concurrency',
  'ambientContext',
  'invoker',
  'lockDurationMs',
  'stalledIntervalMs',
  'inputTimeoutMs',
]);

/** How long a job waits for an answer to one ask unless told (inputTimeoutMs). */
const DEFAULT_INPUT_TIMEOUT_MS = 600_000;

/** How long a cancel for a job this worker was not running is remembered. */
const RECENT_CANCEL_MS = 60_000;

/** Stalls are counted by the processor against the delivery rules, not by BullMQ. */
const STALLS_LEFT_TO_TOOLWRIGHT = 1_000_000;

function toolKey(name: string, version: number): string {
  return `${name}@${version}`;
}

function integer(value: unknown, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new DeclarationError(`startToolWorker: ${name} must be an integer of at least ${min}; got ${describeValue(value)}.`);
  }
  return value;
}

/**
 * Runs queued tool calls through the invoker (DI, ambient values, time limits, validation again).
 * Start as many as you like, in as many processes, on the same Redis and queue name.
 */
export function startToolWorker(options: ToolWorkerOptions): ToolWorker {
  if (!isPlainObject(options) || options.connection === undefined) {
    throw new DeclarationError(
      "startToolWorker needs { connection }: where Redis is, e.g. { connection: { host: '127.0.0.1', port: 6379 } }.",
    );
  }
  checkKnownKeys('startToolWorker', options, OPTION_KEYS, { heading: 'Known' });
  checkCallOptions('startToolWorker', { resolver: options.resolver });
  if (options.ambientContext !== undefined && typeof options.ambientContext !== 'function') {
    throw new DeclarationError(
      `startToolWorker: ambientContext must be a function (call) => values; got ${describeValue(options.ambientContext)}.`,
    );
  }
  const concurrency = integer(options.concurrency, 'concurrency', 1) ?? 1;
  const lockDuration = integer(options.lockDurationMs, 'lockDurationMs', 100) ?? 30_000;
  const stalledInterval = integer(options.stalledIntervalMs, 'stalledIntervalMs', 100) ?? lockDuration;
  const inputTimeoutMs = integer(options.inputTimeoutMs, 'inputTimeoutMs', 10) ?? DEFAULT_INPUT_TIMEOUT_MS;
  const name = options.name ?? DEFAULT_QUEUE_NAME;
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const waits = new InputWaits();

  const tools = new Map<string, ToolDefinition>();
  const definitions = options.tools ? options.tools.map((tool) => Tools.resolve(tool)) : Tools.forAdapter('queue', { allVersions: true });
  for (const tool of definitions) tools.set(toolKey(tool.toolName('queue'), tool.version), tool);
  const known = () => [...tools.keys()].sort().join(', ') || 'none';

  const invoker = new Invoker({
    ...options.invoker,
    ...(options.container ? { container: options.container } : {}),
    ...(options.resolver ? { resolver: options.resolver } : {}),
  });

  const toolOf = (data: unknown) => (isPlainObject(data) ? tools.get(toolKey(String(data.tool), Number(data.version))) : undefined);
  const run = async (job: Job<ToolJobData, WireResult>, tool: ToolDefinition | undefined, signal?: AbortSignal): Promise<WireResult> => {
    const data = job.data;
    if (!tool) {
      throw new UnrecoverableError(
        `This worker has no tool '${isPlainObject(data) ? String(data.tool) : '?'}' version ${isPlainObject(data) ? String(data.version) : '?'} (it runs: ${known()}). ` +
          'Start it with startToolWorker({ tools: [...] }) including that tool, or make the tool a member of adapter queue.',
      );
    }
    if (isPlainObject(data.rejected)) return data.rejected;
    if (isScrubbed(data)) {
      throw new UnrecoverableError(
        `The worker running ${tool.toolName('queue')} stopped after the call had ended, before it could report the outcome; the outcome is lost and the input was removed, so it is not run again.`,
      );
    }
    const retryable = isRetryable(tool);
    if (job.stalledCounter > 0) {
      // Its worker stopped mid-call. Only a tool that may run twice runs again, and only within its attempts.
      if (!retryable) {
        throw new UnrecoverableError(
          `The worker running ${tool.toolName('queue')} stopped mid-call, and the tool is neither idempotent nor readOnly, so it is not run again: it may or may not have taken effect.`,
        );
      }
      if (job.stalledCounter + job.attemptsMade >= (job.opts.attempts ?? 1)) {
        throw new UnrecoverableError(
          `The workers running ${tool.toolName('queue')} stopped mid-call ${job.stalledCounter} times; no attempts left.`,
        );
      }
    }
    // Cancelled just as this worker took it (the cancel found it no longer waiting): the tool never runs.
    if (cancelledHere.has(job.id!)) return toWire(cancelledResult(tool));
    let ambientContext: AmbientSource = data.ambient ?? {};
    if (options.ambientContext) {
      ambientContext = (await options.ambientContext({ jobId: job.id!, tool, enqueued: ambientContext as Record<string, unknown> })) ?? {};
    }
    const child = (options.container ?? undefined)?.createChildContainer();
    // Enqueued with asks: the tool's context.elicit/sample wait in Redis for the caller's answer.
    const asks =
      Array.isArray(data.asks) && data.asks.length > 0
        ? new JobAsks(await redisClientOf(worker), inputKey(prefix, name, job.id!), job.id!, tool.toolName('queue'), inputTimeoutMs, waits)
        : undefined;
    await asks?.start();
    let result: Result;
    try {
      // Approved where it was enqueued: run as approved. Any other job of a tool that needs approval is refused.
      result = await invoker.invoke(tool, data.input, {
        ambientContext,
        signal,
        transport: 'queue',
        request: job,
        context: jobContext(asks, data.asks),
        ...(data.approved === true ? { approve: () => true } : {}),
        ...(child ? { container: child } : {}),
      });
    } finally {
      await asks?.end().catch(() => undefined);
    }
    // It waited for an answer too long: the job ends failed, saying so (whatever the tool made of it).
    if (asks?.timedOut !== undefined) throw new UnrecoverableError(asks.timedOut);
    if (!result.ok && result.outcome === 'exception' && retryable && job.attemptsMade + 1 < (job.opts.attempts ?? 1)) {
      // Thrown so BullMQ retries it with backoff; the detail was reported by the invoker already.
      throw new Error(`${tool.toolName('queue')} ended in an exception (attempt ${job.attemptsMade + 1}); retrying.`);
    }
    try {
      return toWire(result);
    } catch (error) {
      return toWire(Result.exception(tool, error) as Result);
    }
  };

  // A job's input and ambient values leave Redis once it has ended (scrub.ts); not before a retry.
  const processor = async (job: Job<ToolJobData, WireResult>, _token?: string, signal?: AbortSignal): Promise<WireResult> => {
    const tool = toolOf(job.data);
    try {
      const outcome = await run(job, tool, signal);
      await scrubJobData(job, tool);
      return outcome;
    } catch (error) {
      if (error instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await scrubJobData(job, tool);
      throw error;
    }
  };

  const worker = new Worker<ToolJobData, WireResult>(name, processor, {
    connection: options.connection,
    prefix,
    concurrency,
    lockDuration,
    stalledInterval,
    maxStalledCount: STALLS_LEFT_TO_TOOLWRIGHT,
    autorun: true,
  });
  // BullMQ logs nothing by itself; an error event without a listener would crash the process.
  worker.on('error', () => undefined);
  // A close while a connection waits to reconnect must not wait forever (connections.ts).
  endStrandedDisconnectsOf(worker);

  // Cancels this worker heard for jobs it was not running yet: one it takes a moment later is not run.
  const cancelledHere = new Map<string, NodeJS.Timeout>();

  // Cancellation of a running job: every worker listens; the one running it aborts its signal.
  const connection = options.connection as IORedis | Record<string, unknown>;
  const subscriber =
    typeof (connection as IORedis).duplicate === 'function'
      ? (connection as IORedis).duplicate({ lazyConnect: true })
      : new IORedis({ ...(connection as Record<string, unknown>), lazyConnect: true, maxRetriesPerRequest: null });
  subscriber.on('error', () => undefined);
  endStrandedDisconnects(subscriber);
  const subscribed = subscriber.connect().then(() => subscriber.subscribe(cancelChannel(prefix, name), inputChannel(prefix, name)));
  subscriber.on('message', (channel: string, jobId: string) => {
    if (channel === inputChannel(prefix, name)) return waits.wake(jobId);
    if (worker.cancelJob(jobId, 'cancelled') || cancelledHere.has(jobId)) return;
    const timer = setTimeout(() => cancelledHere.delete(jobId), RECENT_CANCEL_MS);
    timer.unref();
    cancelledHere.set(jobId, timer);
  });

  let closing: Promise<void> | undefined;
  return {
    bullWorker: worker,
    async ready() {
      await Promise.all([worker.waitUntilReady(), subscribed]);
    },
    close(closeOptions = {}) {
      if (closeOptions.force) worker.cancelAllJobs('worker closing');
      closing ??= (async () => {
        await worker.close();
        await subscribed.catch(() => undefined);
        await subscriber.quit().catch(() => subscriber.disconnect());
      })();
      return closing;
    },
  };
}

function cancelledResult(tool: ToolDefinition): Result {
  return Result.failure(tool, 'The call was cancelled.', new ToolCancelledError('The call was cancelled.'));
}
