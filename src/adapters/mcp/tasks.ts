/**
 * MCP tasks on the 2025-11-25 wire backed by a job queue: a task-augmented `tools/call` passes the
 * server's pipeline (checks, middleware, approval), enqueues the approved call and answers at once;
 * `tasks/get`, `tasks/result`, `tasks/cancel` (and `tasks/list`, refused) are answered here from
 * the queue, so any server process sharing it can answer them, and a restart of the process that
 * took the call loses nothing. (The SDK 2.x no longer answers `tasks/*` itself; it keeps the
 * 2025-11-25 task vocabulary as deprecated wire types, which these handlers speak.)
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type CallToolResult,
  type RequestMethod,
  type Server,
  type Task,
} from '@modelcontextprotocol/server';
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
  enqueue(
    tool: ToolDefinition,
    args: unknown,
    options: { ambientContext?: AmbientSource; approved?: boolean; outcome?: Result },
  ): Promise<McpTaskJob>;
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

function notFound(taskId: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${taskId}`);
}

const TERMINAL = new Set<Task['status']>(['completed', 'failed', 'cancelled']);

/** The task id of a tasks/* request, or a one-line -32602. */
function taskIdOf(request: { params?: unknown }, method: string): string {
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

/**
 * Answers `tasks/get`, `tasks/result`, `tasks/cancel` and `tasks/list` on a 2025-11-25 server from
 * the queue. Task ids are the jobs' random UUIDs: whoever holds one can read the task, as the spec's
 * capability model has it; `tasks/list` is refused, since a shared queue would list other callers'
 * tasks. `tasks/result` waits (polling the queue) until the task ends, as the spec has it.
 */
export function handleTasks(
  server: Server,
  options: McpTasksOptions,
  tools: readonly ToolDefinition[],
  toCallToolResult: (tool: ToolDefinition, result: Result) => CallToolResult,
): void {
  const { queue } = options;
  const pollInterval = options.pollIntervalMs ?? 1000;
  const ttl = queue.keepFinishedMs ?? null;

  const task = async (taskId: string): Promise<{ job: McpTaskJob; task: Task }> => {
    const job = await queue.job(taskId, { tools });
    const info = job ? await job.info() : undefined;
    if (!job || !info || info.status === 'unknown' || info.status === 'rejected') throw notFound(taskId);
    const status: Task['status'] = WORKING.has(info.status)
      ? 'working'
      : info.status === 'completed'
        ? 'completed'
        : info.status === 'cancelled'
          ? 'cancelled'
          : 'failed';
    const now = new Date().toISOString();
    return {
      job,
      task: {
        taskId: job.id!,
        status,
        ttl,
        createdAt: info.enqueuedAt?.toISOString() ?? now,
        lastUpdatedAt: info.updatedAt?.toISOString() ?? now,
        pollInterval,
        ...(status === 'failed' ? { statusMessage: 'The worker running the call stopped or refused it.' } : {}),
        ...(status === 'cancelled' ? { statusMessage: 'The call was cancelled.' } : {}),
      },
    };
  };

  // Per the spec, a tasks/get answer carries no related-task metadata: the taskId is the source of truth.
  server.setRequestHandler(method('tasks/get'), async (request) => (await task(taskIdOf(request, 'tasks/get'))).task as never);

  server.setRequestHandler(method('tasks/result'), async (request, ctx) => {
    const taskId = taskIdOf(request, 'tasks/result');
    let found = await task(taskId);
    while (!TERMINAL.has(found.task.status)) {
      await pause(pollInterval, ctx.mcpReq.signal);
      found = await task(taskId);
    }
    const result = toCallToolResult(found.job.tool, await found.job.result());
    return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } } as never;
  });

  server.setRequestHandler(method('tasks/cancel'), async (request) => {
    const taskId = taskIdOf(request, 'tasks/cancel');
    const { job, task: current } = await task(taskId);
    if (TERMINAL.has(current.status)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task in terminal status: ${current.status}`);
    }
    await job.cancel();
    return { _meta: {}, ...(await task(taskId)).task } as never;
  });

  server.setRequestHandler(method('tasks/list'), async () => {
    throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'tasks/list is not offered by this server: ask for a task by its id.');
  });
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
