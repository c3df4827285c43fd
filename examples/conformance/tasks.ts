/**
 * The task fixtures of the conformance suite's tasks-* scenarios (the io.modelcontextprotocol/tasks
 * extension, and 2025-11-25 tasks), on a queue: a throwaway redis-server from the PATH, a queue and
 * one worker in this process. `protocol_error_job` is deliberately not given to the worker, which
 * fails its jobs (a protocol-level failure: the task ends `failed`). The input-required fixtures
 * (`confirm_delete`, `multi_input`, `test_tool_with_task`) are not here: toolwright's tasks do not
 * ask for input yet.
 */
import 'reflect-metadata';
import { Expects, Integer, Tool } from 'toolwright';
import type { McpTasksOptions } from 'toolwright/mcp';
import type { ToolContext } from 'toolwright';
import { createToolQueue, startToolWorker } from 'toolwright/queue';
import { startRedis } from '../scale/redis-server';

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

@Tool({ name: 'greet', description: 'Greets someone (sync only)' })
@Expects({ name: String })
class Greet {
  call({ name }: { name: string }) {
    return `Hello, ${name}!`;
  }
}

@Tool({
  name: 'slow_compute',
  description: 'Sleeps `seconds` seconds, then answers (runs as a task)',
  adapters: { mcp: { taskSupport: 'optional' } },
})
@Expects({ seconds: { type: Integer, min: 0, max: 600 }, label: { type: String, optional: true } })
class SlowCompute {
  async call({ seconds, label }: { seconds: number; label?: string }, { signal }: ToolContext) {
    await sleep(seconds * 1000, signal);
    return `Computed ${label ?? 'result'} after ${seconds}s`;
  }
}

@Expects({})
@Tool({
  name: 'failing_job',
  description: 'Fails with a tool error after about a second (runs only as a task)',
  adapters: { mcp: { taskSupport: 'required' } },
  error: 'The job failed, as it always does.',
})
class FailingJob {
  async call(_input: unknown, { signal }: ToolContext): Promise<string> {
    await sleep(1000, signal);
    throw new Error('failing_job always fails');
  }
}

@Tool({
  name: 'protocol_error_job',
  description: 'A task whose worker cannot run it (a protocol-level failure)',
  adapters: { mcp: { taskSupport: 'optional' } },
})
class ProtocolErrorJob {
  call(): string {
    return 'never runs: no worker has this tool';
  }
}

export const taskTools = [Greet, SlowCompute, FailingJob, ProtocolErrorJob];

/** Redis, the queue and a worker for the task fixtures; `close` stops them. */
export async function startTasks(): Promise<{ tasks: McpTasksOptions; close(): Promise<void> }> {
  const redis = await startRedis();
  const queue = createToolQueue({ connection: redis.connection, name: 'conformance-tasks' });
  const worker = startToolWorker({ connection: redis.connection, name: 'conformance-tasks', tools: [Greet, SlowCompute, FailingJob] });
  await worker.ready();
  return {
    tasks: { queue, pollIntervalMs: 200 },
    async close() {
      await worker.close({ force: true });
      await queue.close();
      await redis.stop();
    },
  };
}
