/**
 * An own `McpTaskQueue`: MCP tasks run in this process, in memory, without Redis. What the server
 * asks of a task queue, and nothing more (docs/guide/queue-tasks.md, "Your own task queue"):
 *
 * - `enqueue(tool, args, { ambientContext, approved, outcome, jobId })` keeps the call under
 *   `jobId` (the task's id: `job.id` must be it) and runs `args` (already validated) with
 *   `ambientContext`. `approved: true`: a person approved the call, so it runs without asking again;
 *   without it a tool that needs approval is refused, as it would be anywhere. `outcome`: the server
 *   already answered the call (a refusal, invalid arguments): the job ends with that Result and the
 *   tool never runs.
 * - `job(id)` finds the job again, on every server process that serves the task methods: an
 *   in-memory queue serves one process only (use `createToolQueue` from toolwright/queue for more).
 * - `info().status`: `waiting`, `delayed` or `active` is a working task; `completed`, whatever the
 *   tool's outcome; `cancelled`; `unknown` (or no job) is an unknown task; anything else (`failed`) is a
 *   task whose call could not be run, shown to the client as `failed`.
 */
import { randomUUID } from 'node:crypto';
import { invoke, SetupError, type AmbientSource, type Result, type ToolDefinition } from 'toolwright';
import type { McpTaskJob, McpTaskQueue } from 'toolwright/mcp';

type Status = 'active' | 'completed' | 'failed' | 'cancelled';

class MemoryJob implements McpTaskJob {
  status: Status = 'active';
  failedReason?: string;
  readonly enqueuedAt = new Date();
  updatedAt = this.enqueuedAt;
  readonly controller = new AbortController();
  readonly outcome: Promise<Result>;

  constructor(
    readonly id: string,
    readonly tool: ToolDefinition,
    run: (signal: AbortSignal) => Promise<Result>,
  ) {
    this.outcome = run(this.controller.signal);
    // The tool's outcome, success or failure, is a completed job; a run that could not finish is failed.
    this.outcome.then(
      () => this.settle('completed'),
      (error: unknown) => this.settle('failed', error instanceof Error ? error.message : String(error)),
    );
  }

  settle(status: Status, reason?: string): void {
    if (this.status !== 'active') return; // cancelled or stopped first: that stays
    this.status = status;
    this.failedReason = reason;
    this.updatedAt = new Date();
  }

  async info() {
    return { status: this.status, enqueuedAt: this.enqueuedAt, updatedAt: this.updatedAt, failedReason: this.failedReason };
  }

  /** The call's outcome (a cancelled call's is the tool's cancellation). */
  result(): Promise<Result> {
    return this.outcome;
  }

  async cancel(): Promise<boolean> {
    if (this.status !== 'active') return false;
    this.settle('cancelled');
    this.controller.abort(new Error('The call was cancelled.'));
    return true;
  }
}

/** MCP tasks in this process: `serveHttp({ …, tasks: { queue: new MemoryTaskQueue() } })`. */
export class MemoryTaskQueue implements McpTaskQueue {
  private readonly jobs = new Map<string, MemoryJob>();

  /** Finished jobs are kept until `forget` or `stop`: clients are told their tasks do not expire. */
  readonly keepFinishedMs = null;

  async enqueue(
    tool: ToolDefinition,
    args: unknown,
    options: { ambientContext?: AmbientSource; approved?: boolean; outcome?: Result; jobId?: string },
  ): Promise<McpTaskJob> {
    const { ambientContext, approved, outcome, jobId = randomUUID() } = options;
    if (this.jobs.has(jobId)) throw new SetupError(`MemoryTaskQueue: a job ${jobId} exists already; give each call its own jobId.`);
    const job = new MemoryJob(jobId, tool, (signal) =>
      outcome
        ? Promise.resolve(outcome)
        : invoke(tool, args, { ambientContext, signal, ...(approved === true ? { approve: () => true } : {}) }),
    );
    this.jobs.set(jobId, job);
    return job;
  }

  async job(id: string): Promise<McpTaskJob | undefined> {
    return this.jobs.get(id);
  }

  /** Forgets a finished job: its task is unknown from then on. */
  forget(id: string): boolean {
    return this.jobs.get(id)?.status !== 'active' && this.jobs.delete(id);
  }

  /** Stops the queue (process shutdown): every running call is aborted and its task ends `failed`. */
  stop(): void {
    for (const job of this.jobs.values()) {
      job.settle('failed', 'The queue was stopped.');
      job.controller.abort(new Error('The queue was stopped.'));
    }
  }
}
