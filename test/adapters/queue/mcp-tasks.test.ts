import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { configure, Expects, Exposes, Integer, SemanticHints, Tool, ToolContext } from 'toolwright';
import { createMcpServer, McpHttpHandle, McpTaskQueue, serveHttp } from 'toolwright/mcp';
import { createToolQueue, startToolWorker, ToolQueue, ToolWorker } from 'toolwright/queue';
import { startRedis, TestRedis } from '../../helpers/redis';

const started: string[] = [];

@Tool({ adapters: { mcp: { taskSupport: 'optional' } }, success: 'Report ready' })
@SemanticHints('readOnly')
@Expects({ region: String, days: { type: Integer, min: 1, max: 30 } })
@Exposes({ region: String, total: Number })
class BuildReport {
  async call({ region, days }: { region: string; days: number }, { signal }: ToolContext) {
    started.push(region);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, region === 'slow' ? 20_000 : 30);
      signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)));
    });
    return { region, total: days * 10 };
  }
}

@Tool({ adapters: { mcp: { taskSupport: 'required' } } })
@Expects({ n: Number })
class OnlyAsTask {
  call({ n }: { n: number }) {
    return n + 1;
  }
}

@Tool()
@Expects({ n: Number })
class Quick {
  call({ n }: { n: number }) {
    return n * 2;
  }
}

const TOOLS = [BuildReport, OnlyAsTask, Quick];
let redis: TestRedis;
let worker: ToolWorker;
const queues: ToolQueue[] = [];
const servers: McpHttpHandle[] = [];
const clients: Client[] = [];

function queue(): ToolQueue {
  const q = createToolQueue({ connection: redis.connection, name: 'tasks' });
  queues.push(q);
  return q;
}

async function server(): Promise<McpHttpHandle> {
  const handle = await serveHttp({ name: 'reports', version: '1.0.0', tools: TOOLS, tasks: { queue: queue(), pollIntervalMs: 20 } }, { port: 0, stateless: true });
  servers.push(handle);
  return handle;
}

async function connect(handle: McpHttpHandle): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
  clients.push(client);
  return client;
}

beforeAll(async () => {
  redis = await startRedis();
  configure({ onException: () => undefined });
  worker = startToolWorker({ connection: redis.connection, name: 'tasks', tools: TOOLS, concurrency: 4 });
  await worker.ready();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
  await worker?.close({ force: true });
  await Promise.all(queues.map((q) => q.close()));
  configure({ onException: undefined });
  await redis?.stop();
});
beforeEach(() => (started.length = 0));

describe('MCP tasks on the queue', () => {
  it('declares the tasks capability and each tool’s taskSupport', async () => {
    const client = await connect(await server());
    expect(client.getServerCapabilities()?.tasks).toEqual({ cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await client.listTools();
    expect(Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]))).toEqual({
      build_report: 'optional',
      only_as_task: 'required',
      quick: undefined,
    });
  });

  it('runs a task call on a worker; the SDK Client’s task stream yields the task, its status and the result', async () => {
    const client = await connect(await server());
    await client.listTools();
    const kinds: string[] = [];
    let final: unknown;
    for await (const message of client.experimental.tasks.callToolStream({ name: 'build_report', arguments: { region: 'north', days: '3' } })) {
      kinds.push(message.type);
      if (message.type === 'result') final = message.result;
      if (message.type === 'error') throw message.error;
    }
    expect(kinds[0]).toBe('taskCreated');
    expect(kinds[kinds.length - 1]).toBe('result');
    expect(final).toMatchObject({ structuredContent: { region: 'north', total: 30 } });
    expect(started).toEqual(['north']);
  });

  it('another server process answers tasks/get and tasks/result after the first one is gone', async () => {
    const first = await server();
    const a = await connect(first);
    const { task } = await a.request({ method: 'tools/call', params: { name: 'build_report', arguments: { region: 'east', days: 2 } } }, CreateTaskResultSchema, {
      task: { ttl: 60_000 },
    });
    expect(task.status).toBe('working');
    await a.close();
    await first.close();

    const b = await connect(await server());
    const result = await b.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result).toMatchObject({ structuredContent: { region: 'east', total: 20 } });
    expect((await b.experimental.tasks.getTask(task.taskId)).status).toBe('completed');
  });

  it('invalid arguments make a task whose result is the same isError answer with field errors; the tool never runs', async () => {
    const client = await connect(await server());
    const { task } = await client.request({ method: 'tools/call', params: { name: 'build_report', arguments: { region: 'x', days: 99 } } }, CreateTaskResultSchema, { task: {} });
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    const direct = await client.callTool({ name: 'build_report', arguments: { region: 'x', days: 99 } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual(direct.content);
    expect(result._meta?.fieldErrors).toEqual([{ field: 'days', message: expect.stringMatching(/days/) }]);
    expect(started).toEqual([]);
  });

  it('tasks/cancel on any server aborts the running call on the worker', async () => {
    const client = await connect(await server());
    const other = await connect(await server());
    const { task } = await client.request({ method: 'tools/call', params: { name: 'build_report', arguments: { region: 'slow', days: 1 } } }, CreateTaskResultSchema, { task: {} });
    while (!started.includes('slow')) await new Promise((resolve) => setTimeout(resolve, 10));
    const cancelled = await other.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled.status).toBe('cancelled');
    for (let i = 0; i < 100 && (await client.experimental.tasks.getTask(task.taskId)).status !== 'cancelled'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('cancelled');
  });

  it('an unknown task id is "not found" on every server', async () => {
    const client = await connect(await server());
    await expect(client.experimental.tasks.getTask('00000000-0000-4000-8000-000000000000')).rejects.toThrow(/not found/i);
  });

  it('enforces taskSupport: a required tool refuses a plain call, a forbidden one refuses a task call', async () => {
    const client = await connect(await server());
    await expect(client.request({ method: 'tools/call', params: { name: 'only_as_task', arguments: { n: 1 } } }, CallToolResultSchema)).rejects.toThrow(
      /must be called as a task/,
    );
    await expect(
      client.request({ method: 'tools/call', params: { name: 'quick', arguments: { n: 1 } } }, CreateTaskResultSchema, { task: {} }),
    ).rejects.toThrow(/cannot be called as a task/);
    expect(await client.callTool({ name: 'quick', arguments: { n: 2 } })).toMatchObject({ content: [{ type: 'text', text: '4' }] });
  });

  it('refuses a tool that declares taskSupport on a server without a queue, naming the fix', () => {
    expect(() => createMcpServer({ name: 's', version: '1', tools: [BuildReport] })).toThrow(
      /BuildReport.* declares taskSupport 'optional', and the server has no queue.*tasks: \{ queue: createToolQueue/,
    );
    expect(() => createMcpServer({ name: 's', version: '1', tools: [Quick], tasks: { queue: {} as McpTaskQueue } })).toThrow(/tasks.queue must be a queue from createToolQueue/);
  });

  it('a ToolQueue is an McpTaskQueue (checked by the compiler)', () => {
    const asTaskQueue = (q: ToolQueue): McpTaskQueue => q;
    expect(typeof asTaskQueue).toBe('function');
  });
});
