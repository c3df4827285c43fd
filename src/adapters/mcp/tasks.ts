/**
 * MCP tasks (spec 2025-11-25, the SDK's experimental support) backed by a job queue: a task-augmented
 * `tools/call` passes the server's pipeline (checks, middleware, approval), enqueues the approved call
 * and answers at once; `tasks/get`, `tasks/result` and `tasks/cancel`
 * read the job from the queue, so any server process sharing it can answer them, and a restart of
 * the process that took the call loses nothing.
 */
import type { CreateTaskOptions, TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import { ErrorCode, McpError, type CallToolResult, type Task } from '@modelcontextprotocol/sdk/types.js';
import { AmbientSource, CallOptions, Invoker, Result, ToolDefinition } from '../../index';
import { describeValue } from '../../adapter-kit';
import { isPlainObject } from '../../adapter-kit/internal';
import { DeclarationError } from '../../index';

/** A queued call as the task store reads it; `toolwright/queue`'s `ToolJob` is one. */
export interface McpTaskJob {
  readonly id: string | undefined;
  readonly tool: ToolDefinition;
  info(): Promise<{ status: string; enqueuedAt?: Date; updatedAt?: Date; failedReason?: string }>;
  result(): Promise<Result>;
  cancel(): Promise<boolean>;
}

/** Where task calls run; `toolwright/queue`'s `ToolQueue` is one (`createToolQueue({ connection })`). */
export interface McpTaskQueue {
  /**
   * Enqueues a call the server admitted (`approved`: a person approved it), or (`outcome`) a job that
   * ends with the answer the server gave instead, without running the tool.
   */
  enqueue(tool: ToolDefinition, args: unknown, options: { ambientContext?: AmbientSource; approved?: boolean; outcome?: Result }): Promise<McpTaskJob>;
  job(id: string, options: { tools: readonly ToolDefinition[] }): Promise<McpTaskJob | undefined>;
  /** How long finished jobs stay readable, in milliseconds (null: until removed). */
  readonly keepFinishedMs?: number | null;
}

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

function notFound(taskId: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Task not found: ${taskId}`);
}

/**
 * The SDK task store over the queue. Task ids are the jobs' random UUIDs: whoever holds one can read
 * the task, as the spec's capability model has it; `tasks/list` is not offered, since a shared queue
 * would list other callers' tasks.
 */
export function queueTaskStore(
  options: McpTasksOptions,
  tools: readonly ToolDefinition[],
  toCallToolResult: (tool: ToolDefinition, result: Result) => CallToolResult,
): TaskStore {
  const { queue } = options;
  const pollInterval = options.pollIntervalMs ?? 1000;
  const ttl = queue.keepFinishedMs ?? null;

  const find = async (taskId: string): Promise<McpTaskJob | undefined> => {
    return queue.job(taskId, { tools });
  };

  const task = async (job: McpTaskJob): Promise<Task | null> => {
    const info = await job.info();
    if (info.status === 'unknown' || info.status === 'rejected') return null;
    const status: Task['status'] = WORKING.has(info.status)
      ? 'working'
      : info.status === 'completed'
        ? 'completed'
        : info.status === 'cancelled'
          ? 'cancelled'
          : 'failed';
    const now = new Date().toISOString();
    return {
      taskId: job.id!,
      status,
      ttl,
      createdAt: info.enqueuedAt?.toISOString() ?? now,
      lastUpdatedAt: info.updatedAt?.toISOString() ?? now,
      pollInterval,
      ...(status === 'failed' ? { statusMessage: 'The worker running the call stopped or refused it.' } : {}),
      ...(status === 'cancelled' ? { statusMessage: 'The call was cancelled.' } : {}),
    };
  };

  return {
    async createTask(_params: CreateTaskOptions): Promise<Task> {
      throw new Error('Tasks of this server are created by tools/call through its queue, not by createTask.');
    },
    async getTask(taskId) {
      const job = await find(taskId);
      return job ? task(job) : null;
    },
    async storeTaskResult() {
      throw new Error("A queued task's result is stored by the worker that ran it.");
    },
    async getTaskResult(taskId) {
      const job = await find(taskId);
      if (!job) throw notFound(taskId);
      return toCallToolResult(job.tool, await job.result());
    },
    async updateTaskStatus(taskId, status) {
      const job = await find(taskId);
      if (!job) throw notFound(taskId);
      if (status === 'cancelled') await job.cancel();
    },
    async listTasks() {
      throw new McpError(ErrorCode.MethodNotFound, 'tasks/list is not offered by this server: ask for a task by its id.');
    },
  };
}

/**
 * A task-augmented tools/call goes through the server's pipeline exactly as a direct call does (input
 * checks, middleware, approval) before anything is enqueued; the worker then runs the approved,
 * validated input. A call the pipeline answers (a refusal, a denied approval, invalid input) becomes
 * a task that ends with that answer: the tool never runs.
 */
export async function enqueueTaskCall(
  invoker: Invoker,
  queue: McpTaskQueue,
  tool: ToolDefinition,
  args: unknown,
  call: CallOptions & { ambientContext: AmbientSource },
): Promise<McpTaskJob> {
  let job: McpTaskJob | undefined;
  const answer = await invoker.admit(tool, args, call, async ({ wire, approved }) => {
    job = await queue.enqueue(tool, wire, { ambientContext: call.ambientContext, approved });
    // Enqueued: the middleware sees the call admitted (the audit record of a task is its admission).
    return job.id === undefined ? job.result() : Result.success(tool, undefined);
  });
  const enqueued = job as McpTaskJob | undefined;
  if (enqueued?.id !== undefined) {
    if (answer.ok) return enqueued;
    // Failed on the way out after it was enqueued (an audit hook that threw): it must not run.
    await enqueued.cancel();
  }
  return queue.enqueue(tool, {}, { outcome: answer });
}

/** The task a call created, as `tools/call` answers it. */
export async function createdTask(job: McpTaskJob, options: McpTasksOptions, ttl: number | null): Promise<{ task: Task }> {
  const now = new Date().toISOString();
  return {
    task: {
      taskId: job.id!,
      status: 'working',
      ttl,
      createdAt: now,
      lastUpdatedAt: now,
      pollInterval: options.pollIntervalMs ?? 1000,
    },
  };
}
