/**
 * The task fixtures of the conformance suite's tasks-* scenarios (the io.modelcontextprotocol/tasks
 * extension, and 2025-11-25 tasks), on a queue: a throwaway redis-server from the PATH, a queue and
 * one worker in this process. `protocol_error_job` is deliberately not given to the worker, which
 * fails its jobs (a protocol-level failure: the task ends `failed`). `confirm_delete` and
 * `multi_input` ask inside their task (`context.elicit` on the worker: the task is `input_required`
 * on tasks/get until tasks/update answers).
 */
import 'reflect-metadata';
import { Expects, Integer, Tool } from 'toolwright';
import type { McpTasksOptions } from 'toolwright/mcp';
import type { ElicitSchema, ToolContext } from 'toolwright';
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

const CONFIRM: ElicitSchema = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] };

@Tool({
  name: 'confirm_delete',
  description: 'Asks the user to confirm, inside its task, before it deletes the file',
  adapters: { mcp: { taskSupport: 'required' } },
})
@Expects({ filename: String })
class ConfirmDelete {
  async call({ filename }: { filename: string }, context: ToolContext): Promise<string> {
    const answer = await context.elicit(`Delete ${filename}?`, CONFIRM);
    return answer.action === 'accept' && answer.content?.confirm === true ? `Deleted ${filename}` : `Kept ${filename}`;
  }
}

@Tool({
  name: 'multi_input',
  description: 'Asks two questions at once inside its task',
  adapters: { mcp: { taskSupport: 'required' } },
})
@Expects({})
class MultiInput {
  async call(_input: unknown, context: ToolContext): Promise<string> {
    // The suite answers both with { name, confirm }: each form offers both fields.
    const form: ElicitSchema = { type: 'object', properties: { name: { type: 'string' }, confirm: { type: 'boolean' } } };
    const [name, confirm] = await Promise.all([context.elicit('What is your name?', form), context.elicit('Please confirm', form)]);
    return `${String(name.content?.name)} ${confirm.content?.confirm === true ? 'confirmed' : 'did not confirm'}`;
  }
}

export const taskTools = [Greet, SlowCompute, FailingJob, ProtocolErrorJob, ConfirmDelete, MultiInput];

/** Redis, the queue and a worker for the task fixtures; `close` stops them. */
export async function startTasks(): Promise<{ tasks: McpTasksOptions; close(): Promise<void> }> {
  const redis = await startRedis();
  const queue = createToolQueue({ connection: redis.connection, name: 'conformance-tasks' });
  const worker = startToolWorker({
    connection: redis.connection,
    name: 'conformance-tasks',
    tools: [Greet, SlowCompute, FailingJob, ConfirmDelete, MultiInput],
    concurrency: 8,
  });
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
