/**
 * MCP tasks on 2026-07-28 (the io.modelcontextprotocol/tasks extension, SEP-2663) on the queue: the
 * SDK 2.x Client pinned to 2026-07-28 (custom-method requests where it has no typed API) and raw
 * HTTP, against two serveHttp processes on one real redis-server and a worker, with 2025-11-25 task
 * clients on the same endpoints.
 */
import 'reflect-metadata';
import type { IncomingMessage } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { configure, Expects, Exposes, Integer, Tool, ToolContext } from 'toolwright';
import { McpHttpHandle, McpServerOptions, McpTaskQueue, serveHttp } from 'toolwright/mcp';
import { createToolQueue, startToolWorker, ToolQueue, ToolWorker } from 'toolwright/queue';
import { rawTaskRequest, TaskAnswer, TASKS_EXTENSION } from '../../helpers/mcp-tasks';
import { startRedis, TestRedis } from '../../helpers/redis';

const TASKS = TASKS_EXTENSION;
const started: string[] = [];

@Tool({ adapters: { mcp: { taskSupport: 'optional' } } })
@Expects({ label: String, ms: { type: Integer, min: 0, max: 60_000 } })
@Exposes({ label: String, done: Boolean })
class SlowCompute {
  async call({ label, ms }: { label: string; ms: number }, { signal }: ToolContext) {
    started.push(label);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)));
    });
    return { label, done: true };
  }
}

@Tool({ adapters: { mcp: { taskSupport: 'required' } } })
@Expects({ n: Number })
class OnlyAsTask {
  call({ n }: { n: number }) {
    return n + 1;
  }
}

@Tool({ adapters: { mcp: { taskSupport: 'optional' } }, error: 'The job failed.' })
class FailingJob {
  call(): string {
    throw new Error('boom');
  }
}

@Tool()
@Expects({ name: String })
class Greet {
  call({ name }: { name: string }) {
    return `Hello, ${name}!`;
  }
}

@Tool({ adapters: { mcp: { taskSupport: 'optional' } }, approval: 'required' })
@Expects({ account: String })
class CloseAccount {
  call({ account }: { account: string }) {
    started.push(account);
    return `closed ${account}`;
  }
}

const TOOLS = [SlowCompute, OnlyAsTask, FailingJob, Greet];
const TOKENS = ['alice', 'bob'];
const auth = {
  verifyAccessToken: (token: string) =>
    TOKENS.includes(token) ? { token, clientId: token, scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 } : undefined,
};

/** A result schema that takes any answer, for the methods the 2.x Client has no type of. */
const ANY = { '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value }) } };
type Answer = TaskAnswer;

let redis: TestRedis;
let worker: ToolWorker;
const queues: ToolQueue[] = [];
const servers: McpHttpHandle[] = [];
const open: Array<{ close(): Promise<void> }> = [];

async function server(options: Partial<McpServerOptions> = {}): Promise<McpHttpHandle> {
  const queue = createToolQueue({ connection: redis.connection, name: 'tasks-ext' });
  queues.push(queue);
  const handle = await serveHttp({ name: 'jobs', version: '1.0.0', tools: TOOLS, tasks: { queue, pollIntervalMs: 20 }, ...options }, { port: 0, auth });
  servers.push(handle);
  return handle;
}

/** The 2.x Client pinned to 2026-07-28, declaring the tasks extension unless told not to. */
async function modern(handle: McpHttpHandle, { token = 'alice', extension = true } = {}): Promise<Client> {
  const client = new Client(
    { name: 'tasks-2026', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: extension ? { extensions: { [TASKS]: {} } } : {} },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  open.push(client);
  return client;
}

async function legacy(handle: McpHttpHandle, token = 'alice'): Promise<LegacyClient> {
  const client = new LegacyClient({ name: 'tasks-2025', version: '1.0.0' });
  await client.connect(new LegacyHttpTransport(new URL(handle.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  open.push(client);
  return client;
}

/** A 2026-07-28 request over raw HTTP (../../helpers/mcp-tasks.ts). */
const raw = rawTaskRequest;

/** Creates a task over raw HTTP: the CreateTaskResult. */
async function create(handle: McpHttpHandle, name: string, args: object, token = 'alice'): Promise<Answer> {
  const answer = await raw(handle, 'tools/call', { name, arguments: args }, { token });
  if (!answer.result) throw new Error(`no task: ${JSON.stringify(answer)}`);
  return answer.result;
}

const call = (client: Client, name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<Answer>;
const request = (client: Client, method: string, params: Record<string, unknown>) => client.request({ method, params }, ANY) as Promise<Answer>;

/** tasks/get until the task ends. */
async function settled(client: Client, taskId: string): Promise<Answer> {
  for (;;) {
    const task = await request(client, 'tasks/get', { taskId });
    if (['completed', 'failed', 'cancelled'].includes(task.status)) return task;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The JSON-RPC error a request was answered with. */
async function refusal(promise: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  const error = (await promise.then(
    () => undefined,
    (e: unknown) => e,
  )) as { code: number; message: string; data?: unknown } | undefined;
  if (!error) throw new Error('expected the request to be refused');
  return error;
}

beforeAll(async () => {
  redis = await startRedis();
  configure({ onException: () => undefined });
  worker = startToolWorker({ connection: redis.connection, name: 'tasks-ext', tools: [...TOOLS, CloseAccount], concurrency: 4 });
  await worker.ready();
});
afterAll(async () => {
  await Promise.all(open.map((client) => client.close().catch(() => undefined)));
  await Promise.all(servers.map((s) => s.close()));
  await worker?.close({ force: true });
  await Promise.all(queues.map((q) => q.close()));
  configure({ onException: undefined });
  await redis?.stop();
});
beforeEach(() => (started.length = 0));

describe('MCP tasks on 2026-07-28: the io.modelcontextprotocol/tasks extension on the queue', () => {
  it('advertises the extension under capabilities.extensions (no 2025 tasks slot); 2025-11-25 clients keep capabilities.tasks', async () => {
    const handle = await server();
    const client = await modern(handle);
    expect(client.getProtocolEra()).toBe('modern');
    const capabilities = client.getServerCapabilities() as Answer;
    expect(capabilities.extensions).toEqual({ [TASKS]: {} });
    expect(capabilities.tasks).toBeUndefined();
    const old = await legacy(handle);
    expect(old.getServerCapabilities()?.tasks).toEqual({ cancel: {}, requests: { tools: { call: {} } } });
    expect((old.getServerCapabilities() as Answer).extensions).toBeUndefined();
  });

  it('a task-capable tool called by a declaring client makes a task (flat CreateTaskResult); tasks/get inlines the result', async () => {
    const handle = await server();
    const client = await modern(handle);
    const created = await create(handle, 'slow_compute', { label: 'create', ms: 50 });
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 20 });
    for (const key of ['task', 'ttl', 'pollInterval', 'result', 'error', 'requestState']) expect(created).not.toHaveProperty(key);
    expect(created.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    // Durable before the answer: tasks/get at once finds it (and carries resultType complete).
    const first = await raw(handle, 'tasks/get', { taskId: created.taskId });
    expect(first).toMatchObject({ status: 200, result: { resultType: 'complete', taskId: created.taskId } });
    const done = await settled(client, created.taskId);
    expect(done).toMatchObject({ status: 'completed', ttlMs: 3_600_000, result: { structuredContent: { label: 'create', done: true } } });
    expect(done.result._meta?.['io.modelcontextprotocol/related-task']).toBeUndefined();
    expect(done).not.toHaveProperty('requestState');
    expect(started).toEqual(['create']);
  });

  it('a tool that fails ends completed with result.isError (not failed); invalid arguments end the same way without running it', async () => {
    const handle = await server();
    const client = await modern(handle);
    const failing = await settled(client, (await create(handle, 'failing_job', {})).taskId);
    expect(failing).toMatchObject({ status: 'completed', result: { isError: true, content: [{ type: 'text', text: 'The job failed.' }] } });
    expect(failing).not.toHaveProperty('error');
    const invalid = await settled(client, (await create(handle, 'slow_compute', { label: 'x', ms: -1 })).taskId);
    expect(invalid).toMatchObject({ status: 'completed', result: { isError: true } });
    expect(started).toEqual([]);
  });

  it('another server process on the queue serves the result after the creating one is closed', async () => {
    const first = await server();
    const created = await create(first, 'slow_compute', { label: 'moved', ms: 100 });
    await first.close();
    const b = await modern(await server());
    expect(await settled(b, created.taskId)).toMatchObject({ status: 'completed', result: { structuredContent: { label: 'moved' } } });
  });

  it('tasks/cancel acks with an empty result on any server, the task settles cancelled, and a second cancel acks the same', async () => {
    const handle = await server();
    const other = await server();
    const created = await create(handle, 'slow_compute', { label: 'slow', ms: 20_000 });
    while (!started.includes('slow')) await new Promise((resolve) => setTimeout(resolve, 10));
    const ack = await raw(other, 'tasks/cancel', { taskId: created.taskId });
    expect(ack.status).toBe(200);
    expect(Object.keys(ack.result!).filter((key) => key !== '_meta')).toEqual(['resultType']);
    expect(ack.result!.resultType).toBe('complete');
    expect(await settled(await modern(handle), created.taskId)).toMatchObject({ status: 'cancelled', statusMessage: 'The call was cancelled.' });
    expect((await request(await modern(other), 'tasks/cancel', { taskId: created.taskId })).taskId).toBeUndefined();
    expect((await raw(other, 'tasks/cancel', { taskId: created.taskId })).result).toMatchObject({ resultType: 'complete' });
  });

  it('an unknown, malformed or another caller’s task id is refused with -32602 (the same answer); tasks/result and tasks/list do not exist', async () => {
    const handle = await server();
    const alice = await modern(handle);
    const bob = await modern(handle, { token: 'bob' });
    const created = await create(handle, 'slow_compute', { label: 'mine', ms: 0 });
    const unknown = await refusal(request(alice, 'tasks/get', { taskId: '00000000-0000-4000-8000-000000000000' }));
    expect(unknown).toMatchObject({ code: -32602, message: expect.stringMatching(/Task not found/) });
    const stolen = await refusal(request(bob, 'tasks/get', { taskId: created.taskId }));
    expect(stolen).toMatchObject({ code: -32602, message: `Task not found: ${created.taskId}` });
    expect(await raw(handle, 'tasks/cancel', { taskId: created.taskId }, { token: 'bob' })).toMatchObject({ status: 200, error: { code: -32602 } });
    expect(await raw(handle, 'tasks/get', { taskId: 42 })).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/params.taskId must be/) } });
    expect(await raw(handle, 'tasks/result', { taskId: created.taskId })).toMatchObject({ error: { code: -32601 } });
    expect(await raw(handle, 'tasks/list', {})).toMatchObject({ error: { code: -32601 } });
    // This server's tasks never wait for input: tasks/update says so (and checks its params first).
    expect(await raw(handle, 'tasks/update', { taskId: created.taskId, inputResponses: {} })).toMatchObject({
      error: { code: -32602, message: expect.stringMatching(/takes no answers/) },
    });
    expect(await raw(handle, 'tasks/update', { taskId: created.taskId })).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/inputResponses/) } });
    // An Mcp-Name header that names another task is a header mismatch (SEP-2243): 400, -32020.
    expect(await raw(handle, 'tasks/get', { taskId: created.taskId }, { headers: { 'mcp-name': 'another-task' } })).toMatchObject({
      status: 400,
      error: { code: -32020 },
    });
    expect(await settled(alice, created.taskId)).toMatchObject({ status: 'completed' });
  });

  it('a task id re-signed with another caller’s digest names no task: the digest binds the id, it does not grant it', async () => {
    const handle = await server();
    const alices = await create(handle, 'slow_compute', { label: 'alice', ms: 0 });
    const bobs = await create(handle, 'slow_compute', { label: 'bob', ms: 0 }, 'bob');
    const [uuid] = alices.taskId.split('.');
    const [, bobTag] = bobs.taskId.split('.');
    const forged = `${uuid}.${bobTag}`;
    expect(await raw(handle, 'tasks/get', { taskId: forged }, { token: 'bob' })).toMatchObject({ error: { code: -32602, message: `Task not found: ${forged}` } });
    expect(await raw(handle, 'tasks/get', { taskId: uuid }, { token: 'alice' })).toMatchObject({ error: { code: -32602 } });
    expect(await raw(handle, 'tasks/get', { taskId: bobs.taskId }, { token: 'bob' })).toMatchObject({ result: { taskId: bobs.taskId } });
  });

  it('a task queue that does not keep the task id as the job id is a setup error naming the fix, and the job it made is cancelled', async () => {
    const real = createToolQueue({ connection: redis.connection, name: 'tasks-ext' });
    queues.push(real);
    // Drops jobId: its jobs get ids of their own.
    const careless: McpTaskQueue = {
      enqueue: (tool, args, { jobId: _ignored, ...options }) => real.enqueue(tool, args, options),
      job: (id, options) => real.job(id, options),
    };
    const handle = await serveHttp({ name: 'jobs', version: '1.0.0', tools: TOOLS, tasks: { queue: careless } }, { port: 0, auth });
    servers.push(handle);
    const answer = await raw(handle, 'tools/call', { name: 'slow_compute', arguments: { label: 'lost', ms: 20_000 } });
    expect(answer.error).toMatchObject({ code: -32603 });
    expect(answer.error!.message).toMatch(/must use options\.jobId as the job's id.*createToolQueue/);
    const jobId = /as job ([0-9a-f-]{36})/.exec(answer.error!.message)![1];
    const job = await real.job(jobId, { tools: [SlowCompute] });
    expect((await job!.info()).status).toBe('cancelled');
  });

  it('the same ownership holds on 2025-11-25: another caller’s task is "not found" there too', async () => {
    const handle = await server();
    const alice = await legacy(handle, 'alice');
    const bob = await legacy(handle, 'bob');
    const { task } = await alice.request({ method: 'tools/call', params: { name: 'slow_compute', arguments: { label: 'old', ms: 0 } } }, CreateTaskResultSchema, {
      task: {},
    });
    await expect(bob.experimental.tasks.getTask(task.taskId)).rejects.toThrow(/not found/i);
    expect(await alice.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).toMatchObject({ structuredContent: { label: 'old' } });
    // The store is one: the 2026-07-28 client of the same caller reads the 2025 task.
    expect(await request(await modern(handle), 'tasks/get', { taskId: task.taskId })).toMatchObject({ status: 'completed' });
  });

  it('a task belongs to the identity a host names (serveHttp({ identity })) as to a token’s: another user and an anonymous caller find none, on both revisions', async () => {
    const queue = createToolQueue({ connection: redis.connection, name: 'tasks-ext' });
    queues.push(queue);
    const identity = (req: IncomingMessage) => req.headers['x-user'] as string | undefined;
    const handle = await serveHttp({ name: 'jobs', version: '1.0.0', tools: TOOLS, tasks: { queue, pollIntervalMs: 20 } }, { port: 0, identity });
    servers.push(handle);
    const as = (user?: string) => ({ headers: user ? { 'x-user': user } : ({} as Record<string, string>) });
    const created = await raw(handle, 'tools/call', { name: 'slow_compute', arguments: { label: 'named', ms: 0 } }, as('alice'));
    const taskId = created.result!.taskId as string;
    for (const intruder of ['bob', undefined]) {
      expect(await raw(handle, 'tasks/get', { taskId }, as(intruder))).toMatchObject({ error: { code: -32602, message: `Task not found: ${taskId}` } });
      expect(await raw(handle, 'tasks/cancel', { taskId }, as(intruder))).toMatchObject({ error: { code: -32602, message: `Task not found: ${taskId}` } });
    }
    const bob = new LegacyClient({ name: 'tasks-2025', version: '1.0.0' });
    await bob.connect(new LegacyHttpTransport(new URL(handle.url), { requestInit: { headers: { 'x-user': 'bob' } } }));
    open.push(bob);
    await expect(bob.experimental.tasks.getTask(taskId)).rejects.toThrow(/not found/i);
    await expect(bob.experimental.tasks.cancelTask(taskId)).rejects.toThrow(/not found/i);
    // A 2025-11-25 task of bob's is his alone too; alice still reads hers.
    const { task } = await bob.request({ method: 'tools/call', params: { name: 'slow_compute', arguments: { label: 'bob', ms: 0 } } }, CreateTaskResultSchema, { task: {} });
    expect(await raw(handle, 'tasks/get', { taskId: task.taskId }, as('alice'))).toMatchObject({ error: { code: -32602 } });
    expect(await bob.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).toMatchObject({ structuredContent: { label: 'bob' } });
    expect(await raw(handle, 'tasks/get', { taskId }, as('alice'))).toMatchObject({ result: { taskId } });
  });

  it('without the extension: tasks/* answer -32021, a task-capable tool runs at once, a task-only tool is refused with -32021 naming it', async () => {
    const handle = await server();
    const client = await modern(handle, { extension: false });
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update']) {
      const answer = await raw(handle, method, { taskId: 'gate-test', inputResponses: {} }, { extension: false });
      expect(answer).toMatchObject({ status: 400, error: { code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } } });
    }
    const sync = await call(client, 'slow_compute', { label: 'sync', ms: 0 });
    expect(sync).toMatchObject({ structuredContent: { label: 'sync', done: true } });
    expect(sync).not.toHaveProperty('taskId');
    const required = await raw(handle, 'tools/call', { name: 'only_as_task', arguments: { n: 1 } }, { extension: false });
    expect(required).toMatchObject({ status: 400, error: { code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } } });
    expect(required.error!.message).toMatch(/only_as_task runs only as a task.*declare it/);
    // Declared on the request (2026-07-28 has no session): the same call makes a task.
    expect(await create(handle, 'only_as_task', { n: 1 })).toMatchObject({ resultType: 'task' });
  });

  it('the 2025 task param means nothing on 2026-07-28: a plain tool answers at once; only the 2025-11-25 tools/list names taskSupport', async () => {
    const handle = await server();
    const answer = await raw(handle, 'tools/call', { name: 'greet', arguments: { name: 'legacy-hint' }, task: { ttl: 60_000 } });
    expect(answer.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, legacy-hint!' }] });
    // 2026-07-28 tools carry no execution.taskSupport (the wire has no such field; the server decides):
    // the 2025-11-25 list still does.
    const listed = await raw(handle, 'tools/list', {});
    expect(listed.result!.tools.map((t: Answer) => t.execution)).toEqual([undefined, undefined, undefined, undefined]);
    const { tools } = await (await legacy(handle)).listTools();
    expect(Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]))).toEqual({
      slow_compute: 'optional',
      only_as_task: 'required',
      failing_job: 'optional',
      greet: undefined,
    });
  });

  it('an approval-required task tool, from a client declaring tasks and elicitation: approval asked as an input-required round before the task is made; nothing reported to onException', async () => {
    const reports: unknown[] = [];
    const handle = await server({
      tools: [...TOOLS, CloseAccount],
      invoker: { onException: (error) => void reports.push(error) },
      requestState: { keys: ['tasks-extension-test-key-0123456789abcdef'] },
    });
    const client = await modern(handle);
    const round = (args: object, more: object = {}) => raw(handle, 'tools/call', { name: 'close_account', arguments: args, ...more }, { elicitation: true });
    const asked = await round({ account: 'acc-9' });
    expect(asked.result).toMatchObject({ resultType: 'input_required', requestState: expect.stringMatching(/^tw1\./) });
    expect(JSON.stringify(asked.result!.inputRequests['ask-1'])).toMatch(/close_account.*acc-9.*approve/);
    const created = await round({ account: 'acc-9' }, { requestState: asked.result!.requestState, inputResponses: { 'ask-1': { action: 'accept', content: { approve: true } } } });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    expect(await settled(client, created.result!.taskId)).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'closed acc-9' }] } });
    // Declined: a task whose result is the refusal; the tool never runs.
    const again = await round({ account: 'acc-10' });
    const declined = await round({ account: 'acc-10' }, { requestState: again.result!.requestState, inputResponses: { 'ask-1': { action: 'decline' } } });
    expect(await settled(client, declined.result!.taskId)).toMatchObject({
      status: 'completed',
      result: { isError: true, content: [{ type: 'text', text: expect.stringContaining('was not approved: the user declined') }] },
    });
    // The SDK 2.x Client declaring both answers the approval round with its own handler (declined here; its codec then refuses the CreateTaskResult, as above).
    const sdk = new Client(
      { name: 'tasks-ask', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { extensions: { [TASKS]: {} }, elicitation: { form: {} } } },
    );
    const questions: string[] = [];
    sdk.setRequestHandler('elicitation/create', async (request) => {
      questions.push(String(request.params.message));
      return { action: 'decline' };
    });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(handle.url), { requestInit: { headers: { Authorization: 'Bearer alice' } } }));
    open.push(sdk);
    await sdk.callTool({ name: 'close_account', arguments: { account: 'acc-11' } }).catch(() => undefined);
    expect(questions).toEqual([expect.stringContaining('close_account')]);
    expect(reports).toEqual([]);
  });
});
