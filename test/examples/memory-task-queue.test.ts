/**
 * The own-task-queue example (examples/task-queue/memory-task-queue.ts) behind a real serveHttp, as
 * docs/guide/queue-tasks.md describes the contract: 2026-07-28 clients declaring the tasks extension
 * over raw HTTP (the SDK 2.x Client cannot read a CreateTaskResult yet), and a 2025-11-25 SDK client.
 */
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Expects, Exposes, fail, Tool, ToolContext } from 'toolwright';
import { McpHttpHandle, McpServerOptions, serveHttp } from 'toolwright/mcp';
import { MemoryTaskQueue } from '../../examples/task-queue/memory-task-queue';
import { postModern } from '../helpers/mcp';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const ran: string[] = [];

@Tool({ adapters: { mcp: { taskSupport: 'optional' } } })
@Expects({ region: String })
@Exposes({ region: String, rows: Number })
class BuildReport {
  call({ region }: { region: string }) {
    ran.push(region);
    if (region === 'nowhere') fail('No such region.');
    return { region, rows: 120 };
  }
}

@Tool({ adapters: { mcp: { taskSupport: 'optional' } } })
@Expects({})
class Wait {
  call(_input: object, { signal }: ToolContext) {
    ran.push('wait');
    // Runs until cancelled or stopped.
    return new Promise<string>((_resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason));
    });
  }
}

@Tool({ adapters: { mcp: { taskSupport: 'optional' } }, approval: 'required' })
@Expects({ account: String })
class CloseAccount {
  call({ account }: { account: string }) {
    ran.push(`close ${account}`);
    return `closed ${account}`;
  }
}

type Task = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const handles: McpHttpHandle[] = [];
afterAll(() => Promise.all(handles.map((handle) => handle.close())));
beforeEach(() => (ran.length = 0));

async function serve(queue: MemoryTaskQueue, options: Partial<McpServerOptions> = {}): Promise<McpHttpHandle> {
  const handle = await serveHttp(
    { name: 'reports', version: '1.0.0', tools: [BuildReport, Wait, CloseAccount], tasks: { queue, pollIntervalMs: 10 }, ...options },
    { port: 0 },
  );
  handles.push(handle);
  return handle;
}

const create = async (handle: McpHttpHandle, name: string, args: object): Promise<Task> =>
  (await postModern(handle.url, 'tools/call', { name, arguments: args }, { capabilities: TASKS })).result as Task;
const get = async (handle: McpHttpHandle, taskId: string): Promise<Task> =>
  (await postModern(handle.url, 'tasks/get', { taskId }, { capabilities: TASKS })).result as Task;

/** tasks/get until the task ends. */
async function settled(handle: McpHttpHandle, taskId: string): Promise<Task> {
  for (;;) {
    const task = await get(handle, taskId);
    if (['completed', 'failed', 'cancelled'].includes(task.status)) return task;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('an own McpTaskQueue (the in-memory example) behind serveHttp', () => {
  it('2026-07-28: a task is created under the id the queue kept; it completes with the result, a tool failure completes with isError', async () => {
    const handle = await serve(new MemoryTaskQueue());
    const created = await create(handle, 'build_report', { region: 'north' });
    expect(created).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 10 });
    expect(created).not.toHaveProperty('ttlMs', expect.any(Number)); // keepFinishedMs null: the task does not expire
    expect(await settled(handle, created.taskId)).toMatchObject({ status: 'completed', result: { structuredContent: { region: 'north', rows: 120 } } });
    const failing = await settled(handle, (await create(handle, 'build_report', { region: 'nowhere' })).taskId);
    expect(failing).toMatchObject({ status: 'completed', result: { isError: true, content: [{ type: 'text', text: 'No such region.' }] } });
    expect(ran).toEqual(['north', 'nowhere']);
  });

  it('invalid arguments and an unapproved call are enqueued as their outcome: the task ends with it and the tool never runs', async () => {
    const handle = await serve(new MemoryTaskQueue());
    const invalid = await settled(handle, (await create(handle, 'build_report', { region: 5 })).taskId);
    expect(invalid).toMatchObject({ status: 'completed', result: { isError: true } });
    // No elicitation declared, and the client's confirmation not trusted: the approval is refused.
    const refused = await settled(handle, (await create(handle, 'close_account', { account: 'a-1' })).taskId);
    expect(refused).toMatchObject({ status: 'completed', result: { isError: true } });
    expect(ran).toEqual([]);
  });

  it('an approved call runs on the queue without asking again (approved: true)', async () => {
    const handle = await serve(new MemoryTaskQueue(), { trustClientConfirmation: true });
    const done = await settled(handle, (await create(handle, 'close_account', { account: 'a-2' })).taskId);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'closed a-2' }] } });
    expect(ran).toEqual(['close a-2']);
  });

  it('tasks/cancel aborts the running call (cancelled); a stopped queue ends a running call failed; a forgotten job is an unknown task', async () => {
    const queue = new MemoryTaskQueue();
    const handle = await serve(queue);
    const cancelled = await create(handle, 'wait', {});
    expect((await postModern(handle.url, 'tasks/cancel', { taskId: cancelled.taskId }, { capabilities: TASKS })).error).toBeUndefined();
    expect(await settled(handle, cancelled.taskId)).toMatchObject({ status: 'cancelled' });

    const stopped = await create(handle, 'wait', {});
    queue.stop();
    expect(await settled(handle, stopped.taskId)).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'The worker running the call stopped or refused it.' },
    });
    expect(queue.forget(stopped.taskId)).toBe(true);
    const unknown = await postModern(handle.url, 'tasks/get', { taskId: stopped.taskId }, { capabilities: TASKS });
    expect(unknown.error).toMatchObject({ code: -32602, message: `Task not found: ${stopped.taskId}` });
  });

  it('2025-11-25: the same queue answers params.task calls and tasks/result', async () => {
    const handle = await serve(new MemoryTaskQueue());
    const client = new Client({ name: 'tasks-2025', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
    try {
      const { task } = await client.request(
        { method: 'tools/call', params: { name: 'build_report', arguments: { region: 'south' }, task: {} } },
        CreateTaskResultSchema,
      );
      const result = await client.request({ method: 'tasks/result', params: { taskId: task.taskId } }, CallToolResultSchema);
      expect(result).toMatchObject({ structuredContent: { region: 'south', rows: 120 } });
    } finally {
      await client.close();
    }
  });
});
