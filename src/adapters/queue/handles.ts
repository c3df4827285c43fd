/**
 * The queue's public shapes: its options, a call's options, and the handle of a queued call.
 */
import type { ConnectionOptions } from 'bullmq';
import type { AmbientSource, ElicitResult, InvokerOptions, Result, SampleResult, ToolDefinition } from '../../index';
import type { AnswerOutcome, AskKind, ToolJobInput } from './asks';

/** The options of `createToolQueue({ ... })`: where Redis is, the queue's name, the invoker that validates before enqueueing, how long finished jobs stay, and how long to wait for Redis. */
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
  /**
   * How long a call (`enqueue`, `job`, and a handle's `status`, `info`, `result`, `cancel`) waits
   * for an unreachable Redis (a connection, or a command's answer) before it fails with a
   * `RedisUnreachableError` (default 10 000 ms); also the `commandTimeout` of the queue's own
   * connection, and what `close()` waits for Redis in all. `result({ timeoutMs })` settles by its own
   * timeout even while Redis does not answer.
   */
  redisTimeoutMs?: number;
}

/** The options of `queue.enqueue(tool, args, { ... })`: ambient values, the job id, delay, retries, priority, and whether a person already approved the call. */
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
  /**
   * A person approved this call before it was enqueued (an MCP task asks as a direct call does): the
   * worker runs it without asking again. A job without it never runs a tool that needs approval under
   * the worker's own rules (`@Tool({ approval })`, its `requireApprovalForDestructive`).
   */
  approved?: boolean;
  /**
   * A call answered before it was enqueued (refused by middleware, an approval or its input, or
   * answered by a middleware): enqueued as a job that ends with this outcome without running the
   * tool, so every process finds it by id (MCP tasks do this). The arguments are not read.
   */
  outcome?: Result;
  /**
   * What the tool may ask its caller while it runs (`context.elicit`: `'elicit'`, `context.sample`:
   * `'sample'`): the worker keeps each ask in Redis until someone answers it through the job's
   * handle (`input()`, `answer()`; an MCP task's client does, with `tasks/get` and `tasks/update`).
   * Default none: the tool's `context.supports()` is false and an ask fails naming why.
   */
  asks?: readonly AskKind[];
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
   * `timeoutMs` bounds the whole wait, Redis included: a job not finished by then, or a Redis that
   * has not answered by then, gives an exception Result whose `ToolJobError` says so.
   */
  result(options?: { timeoutMs?: number }): Promise<Result<T>>;
  /**
   * Cancels the call: a waiting job is removed; a running one has its tool's `signal` aborted and
   * ends with the cancelled failure. Resolves false when the call had already finished.
   */
  cancel(): Promise<boolean>;
  /**
   * What the running call waits for: the asks of its tool (`context.elicit` / `context.sample`) no
   * one has answered yet, each under its id, and why it ended if it waited longer than its worker's
   * `inputTimeoutMs`. Empty for a job enqueued without `asks`.
   */
  input(): Promise<ToolJobInput>;
  /**
   * Answers the waiting ask `id` (an `ElicitResult` for an `elicit`, a `SampleResult` for a `sample`;
   * Redis must be trusted, as for the job's input): `answered`, `answered-before` (the first answer
   * stands), or `unknown` (no such ask waits in this run of the call). An answer past
   * `INPUT_LIMITS.maxAnswerBytes` is refused with a `JobInputError`.
   */
  answer(id: string, answer: ElicitResult | SampleResult): Promise<AnswerOutcome>;
}
