/**
 * MCP tasks backed by a job queue, shared by both protocol revisions: a task-creating `tools/call`
 * passes the server's pipeline (checks, middleware, approval), enqueues the approved call and answers
 * at once; the task methods read the queue, so any server process sharing it answers for any task,
 * and a restart of the process that took the call loses nothing. This file has the task store and the
 * 2025-11-25 wire (`tasks/get`, `tasks/result`, `tasks/cancel`; `tasks/list` refused: the SDK 2.x no
 * longer answers them itself and keeps their vocabulary as deprecated wire types); tasks-extension.ts
 * has the 2026-07-28 `io.modelcontextprotocol/tasks` extension.
 *
 * A task belongs to the caller that created it: its id ends with a digest of the caller's identity
 * (the verified token's client, subject and issuer; anonymous callers share one), so every server
 * process can tell, without shared state, that a task id presented by another caller is not theirs,
 * and answers it exactly as an unknown one.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type CallToolResult,
  type RequestMethod,
  type Server,
  type ServerContext,
  type Task,
} from '@modelcontextprotocol/server';
import { AmbientSource, CallOptions, Invoker, Result, ToolDefinition } from '../../../index';
import type { ElicitResult, ElicitSchema, SampleRequest, SampleResult } from '../../../index';
import { describeValue } from '../../../adapter-kit';
import { isPlainObject } from '../../../adapter-kit/internal';
import { DeclarationError, SetupError } from '../../../index';

/** What the tool of a running task asked and waits for (`context.elicit` / `context.sample`). */
export type McpTaskAsk =
  | { readonly kind: 'elicit'; readonly message: string; readonly schema: ElicitSchema }
  | { readonly kind: 'sample'; readonly request: SampleRequest };

/** A queued call as the task store reads it; `toolwright/queue`'s `ToolJob` is one. */
export interface McpTaskJob {
  readonly id: string | undefined;
  readonly tool: ToolDefinition;
  info(): Promise<{ status: string; enqueuedAt?: Date; updatedAt?: Date; failedReason?: string }>;
  result(): Promise<Result>;
  cancel(): Promise<boolean>;
  /**
   * The asks the running call waits for, under their ids, the ids answered already, and why it
   * ended if it waited too long. A queue without it runs tasks that never ask.
   */
  input?(): Promise<{
    readonly pending: ReadonlyArray<{ readonly id: string; readonly ask: McpTaskAsk }>;
    readonly answered: readonly string[];
    readonly timedOut?: string;
  }>;
  /** Answers the waiting ask `id` (once: a second answer is `answered-before`). */
  answer?(id: string, answer: ElicitResult | SampleResult): Promise<'answered' | 'answered-before' | 'unknown'>;
}

/**
 * Where task calls run; `toolwright/queue`'s `ToolQueue` is one (`createToolQueue({ connection })`).
 * Writing one: the contract (which process calls what, how `info().status` becomes the task's
 * status) is in the guide's "Your own task queue" (docs/guide/queue-tasks.md).
 */
export interface McpTaskQueue {
  /**
   * Enqueues a call the server admitted (`approved`: a person approved it), or (`outcome`) a job that
   * ends with the answer the server gave instead, without running the tool. `jobId`: the task's id.
   */
  enqueue(
    tool: ToolDefinition,
    args: unknown,
    options: {
      ambientContext?: AmbientSource;
      approved?: boolean;
      outcome?: Result;
      jobId?: string;
      /** What the tool may ask the task's client while it runs (the client answers through tasks/update). */
      asks?: ReadonlyArray<'elicit' | 'sample'>;
    },
  ): Promise<McpTaskJob>;
  job(id: string, options: { tools: readonly ToolDefinition[] }): Promise<McpTaskJob | undefined>;
  /** How long finished jobs stay readable, in milliseconds (null: until removed). */
  readonly keepFinishedMs?: number | null;
}

/** The `tasks` option of an MCP server: the queue task-augmented `tools/call`s run on, and the poll interval clients are told. */
export interface McpTasksOptions {
  /** The queue task calls run on: workers started with `startToolWorker` run them. */
  queue: McpTaskQueue;
  /** The interval clients are told to poll `tasks/get` at (default 1000 ms). */
  pollIntervalMs?: number;
}

const WORKING = new Set(['waiting', 'delayed', 'active']);

export function checkTasksOptions(tasks: unknown): McpTasksOptions | undefined {
  if (tasks === undefined) return undefined;
  if (!isPlainObject(tasks) || (!isPlainObject(tasks.queue) && typeof tasks.queue !== 'object')) {
    throw new DeclarationError(
      `createMcpServer: tasks must be { queue } with a queue from createToolQueue() (toolwright/queue); got ${describeValue(tasks)}.`,
    );
  }
  const queue = tasks.queue as McpTaskQueue | null;
  if (!queue || typeof queue.enqueue !== 'function' || typeof queue.job !== 'function') {
    throw new DeclarationError(
      `createMcpServer: tasks.queue must be a queue from createToolQueue() (toolwright/queue); got ${describeValue(queue)}.`,
    );
  }
  const poll = tasks.pollIntervalMs;
  if (poll !== undefined && (typeof poll !== 'number' || !Number.isSafeInteger(poll) || poll < 10)) {
    throw new DeclarationError(`createMcpServer: tasks.pollIntervalMs must be an integer of at least 10; got ${describeValue(poll)}.`);
  }
  return tasks as unknown as McpTasksOptions;
}

/** The owner digest a task id ends with: who created it, as `ownerIdentity` names callers ('' for anonymous). */
function ownerTag(owner: string): string {
  return createHash('sha256').update(owner).digest('base64url').slice(0, 22);
}

/** A fresh task id (the job's id) for a task of this caller. */
export function newTaskId(owner: string): string {
  return `${randomUUID()}.${ownerTag(owner)}`;
}

/** Whether the task id names a task of this caller. */
function ownsTask(taskId: string, owner: string): boolean {
  const dot = taskId.lastIndexOf('.');
  return dot > 0 && taskId.slice(dot + 1) === ownerTag(owner);
}

export function notFound(taskId: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${taskId}`);
}

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
export const TERMINAL = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

/** A task as the store has it, whichever revision asks. */
export interface StoredTask {
  readonly job: McpTaskJob;
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly statusMessage?: string;
  /** What an `input_required` task waits for, and the asks answered already. */
  readonly input?: Awaited<ReturnType<NonNullable<McpTaskJob['input']>>>;
}

/** What the task methods of both revisions share: the queue, the tools it may name, the intervals. */
export class TaskStore {
  readonly pollIntervalMs: number;
  /** How long a finished task stays readable (null: until removed). */
  readonly ttlMs: number | null;

  constructor(
    readonly options: McpTasksOptions,
    private readonly tools: readonly ToolDefinition[],
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.ttlMs = options.queue.keepFinishedMs ?? null;
  }

  /** The caller's task, or a -32602 "not found" (for an unknown id and another caller's task alike). */
  async get(taskId: string, owner: string): Promise<StoredTask> {
    if (!ownsTask(taskId, owner)) throw notFound(taskId);
    const job = await this.options.queue.job(taskId, { tools: this.tools });
    const info = job ? await job.info() : undefined;
    if (!job || !info || info.status === 'unknown' || info.status === 'rejected') throw notFound(taskId);
    let status: TaskStatus = WORKING.has(info.status)
      ? 'working'
      : info.status === 'completed'
        ? 'completed'
        : info.status === 'cancelled'
          ? 'cancelled'
          : 'failed';
    // A running call that waits for answers is input_required; one that waited too long failed saying so.
    const input = (status === 'working' && info.status === 'active') || status === 'failed' ? await job.input?.() : undefined;
    if (status === 'working' && input !== undefined && input.pending.length > 0) status = 'input_required';
    const now = new Date().toISOString();
    return {
      job,
      taskId,
      status,
      createdAt: info.enqueuedAt?.toISOString() ?? now,
      lastUpdatedAt: info.updatedAt?.toISOString() ?? now,
      ...(input !== undefined ? { input } : {}),
      ...(status === 'failed' ? { statusMessage: input?.timedOut ?? 'The worker running the call stopped or refused it.' } : {}),
      ...(status === 'cancelled' ? { statusMessage: 'The call was cancelled.' } : {}),
      ...(status === 'input_required' ? { statusMessage: 'The call waits for the answers to inputRequests (tasks/update).' } : {}),
    };
  }

  /** Cancels the caller's task unless it has ended; its state after. */
  async cancel(taskId: string, owner: string): Promise<StoredTask> {
    const found = await this.get(taskId, owner);
    if (TERMINAL.has(found.status)) return found;
    await found.job.cancel();
    return this.get(taskId, owner);
  }
}

/** The task id of a tasks/* request, or a one-line -32602. */
export function taskIdOf(request: { params?: unknown }, method: string): string {
  const taskId = (request.params as { taskId?: unknown } | undefined)?.taskId;
  if (typeof taskId !== 'string' || taskId === '') {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid ${method} request: params.taskId must be the task's id (a string).`);
  }
  return taskId;
}

/** Waits a poll interval, or rejects when the request is cancelled. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const cancelled = () => reject(new ProtocolError(ProtocolErrorCode.InvalidRequest, 'Request cancelled'));
    if (signal.aborted) return cancelled();
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      cancelled();
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The 2025-11-25 task methods (deprecated wire vocabulary in the SDK 2.x, so absent from its typed method map). */
const method = (name: 'tasks/get' | 'tasks/result' | 'tasks/cancel' | 'tasks/list') => name as unknown as RequestMethod;

/** A stored task on the 2025-11-25 wire. */
function legacyTask(store: TaskStore, found: StoredTask): Task {
  const { taskId, status, createdAt, lastUpdatedAt, statusMessage } = found;
  return {
    taskId,
    status,
    ttl: store.ttlMs,
    createdAt,
    lastUpdatedAt,
    pollInterval: store.pollIntervalMs,
    ...(statusMessage !== undefined ? { statusMessage } : {}),
  };
}

/**
 * Answers `tasks/get`, `tasks/result`, `tasks/cancel` and `tasks/list` on a 2025-11-25 server from
 * the queue. `tasks/list` is refused, since a shared queue would list other callers' tasks.
 * `tasks/result` waits (polling the queue) until the task ends, as the spec has it. `owner`: the
 * caller of a request (the tasks it may see).
 */
export function handleTasks(
  server: Server,
  store: TaskStore,
  owner: (ctx: ServerContext) => string,
  toCallToolResult: (tool: ToolDefinition, result: Result) => CallToolResult,
): void {
  // Per the spec, a tasks/get answer carries no related-task metadata: the taskId is the source of truth.
  server.setRequestHandler(
    method('tasks/get'),
    async (request, ctx) => legacyTask(store, await store.get(taskIdOf(request, 'tasks/get'), owner(ctx))) as never,
  );

  server.setRequestHandler(method('tasks/result'), async (request, ctx) => {
    const taskId = taskIdOf(request, 'tasks/result');
    let found = await store.get(taskId, owner(ctx));
    while (!TERMINAL.has(found.status)) {
      await pause(store.pollIntervalMs, ctx.mcpReq.signal);
      found = await store.get(taskId, owner(ctx));
    }
    const result = toCallToolResult(found.job.tool, await found.job.result());
    return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } } as never;
  });

  server.setRequestHandler(method('tasks/cancel'), async (request, ctx) => {
    const taskId = taskIdOf(request, 'tasks/cancel');
    const current = await store.get(taskId, owner(ctx));
    if (TERMINAL.has(current.status)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task in terminal status: ${current.status}`);
    }
    return { _meta: {}, ...legacyTask(store, await store.cancel(taskId, owner(ctx))) } as never;
  });

  server.setRequestHandler(method('tasks/list'), async () => {
    throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'tasks/list is not offered by this server: ask for a task by its id.');
  });
}

/**
 * A task-creating tools/call goes through the server's pipeline exactly as a direct call does (input
 * checks, middleware, approval) before anything is enqueued; the worker then runs the approved,
 * validated input. A call the pipeline answers (a refusal, a denied approval, invalid input) becomes
 * a task that ends with that answer: the tool never runs. `owner`: the caller, whose task it is.
 */
export async function enqueueTaskCall(
  invoker: Invoker,
  queue: McpTaskQueue,
  tool: ToolDefinition,
  args: unknown,
  call: CallOptions & { ambientContext: AmbientSource },
  owner: string,
  suspended: () => boolean = () => false,
  asks: ReadonlyArray<'elicit' | 'sample'> = [],
): Promise<McpTaskJob | undefined> {
  const taskId = newTaskId(owner);
  let job: McpTaskJob | undefined;
  const answer = await invoker.admit(tool, args, call, async ({ wire, approved }) => {
    const may = asks.length > 0 ? { asks } : {};
    job = await queue.enqueue(tool, wire, { ambientContext: call.ambientContext, approved, jobId: taskId, ...may });
    // Enqueued: the middleware sees the call admitted (the audit record of a task is its admission).
    return job.id === undefined ? job.result() : Result.success(tool, undefined);
  });
  // The admission stopped to ask the client (2026-07-28 approval round): no task yet, nothing enqueued.
  if (suspended() && job === undefined) return undefined;
  const enqueued = job as McpTaskJob | undefined;
  if (enqueued?.id !== undefined) {
    await keptTaskId(enqueued, taskId);
    if (answer.ok) return enqueued;
    // Failed on the way out after it was enqueued (an audit hook that threw): it must not run.
    await enqueued.cancel();
  }
  const outcomeId = newTaskId(owner);
  return keptTaskId(await queue.enqueue(tool, {}, { outcome: answer, jobId: outcomeId }), outcomeId);
}

/**
 * The job, when the queue kept the task id it was given as the job's id; otherwise the job is
 * cancelled and a SetupError says so (no server could find the task again by the id it would answer).
 */
async function keptTaskId(job: McpTaskJob, taskId: string): Promise<McpTaskJob> {
  if (job.id === taskId) return job;
  if (job.id !== undefined) await job.cancel();
  throw new SetupError(
    `createMcpServer: tasks.queue enqueued the task ${taskId} as job ${String(job.id)}: a task queue must use options.jobId as the job's id (createToolQueue() does), since the task is found again by that id. Use a queue from createToolQueue(), or make enqueue keep jobId.`,
  );
}

/** The task a call created, as a 2025-11-25 `tools/call` answers it. */
export function createdTask(job: McpTaskJob, store: TaskStore): { task: Task } {
  const now = new Date().toISOString();
  return { task: legacyTask(store, { job, taskId: job.id!, status: 'working', createdAt: now, lastUpdatedAt: now }) };
}
