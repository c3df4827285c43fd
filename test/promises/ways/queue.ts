/**
 * The queue (toolwright/queue) and MCP tasks on it, on both revisions: one redis-server and one
 * worker for all of them. What Redis holds once the calls have ended counts as what an operator
 * reads (a sensitive value must not be there).
 */
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Redis } from 'ioredis';
import { describeTool } from 'toolwright';
import { serveHttp, type McpHttpHandle } from 'toolwright/mcp';
import { createToolQueue, startToolWorker, type ToolQueue, type ToolWorker } from 'toolwright/queue';
import { ledger, mcpAuth, TOOLS, type Caller } from '../../fixtures/promises/members';
import { matrixServerOptions } from '../../fixtures/promises/server-options';
import { TASK_TOOLS } from '../../fixtures/promises/task-members';
import { startRedis, type TestRedis } from '../../helpers/redis';
import { MODERN_ENVELOPE, modernHeaders } from '../../helpers/mcp';
import type { Answer, Harness, Outcome, Runs } from '../harness';
import { Observer } from '../observer';
import { resultText } from './mcp-client';

const runs = async (): Promise<Runs> => ({ ...ledger, users: [...ledger.users] });
const NAME = 'matrix';

/** The shared Redis and worker, started by the first way in that needs them and stopped with the last. */
let shared: Promise<{ redis: TestRedis; worker: ToolWorker; observer: Observer }> | undefined;
let users = 0;
async function backend() {
  users++;
  shared ??= (async () => {
    const redis = await startRedis();
    const observer = new Observer();
    const worker = startToolWorker({ connection: redis.connection, name: NAME, tools: [...TOOLS, ...TASK_TOOLS.slice(0, 4)], invoker: observer.invoker() });
    await worker.ready();
    return { redis, worker, observer };
  })();
  return shared;
}
async function release(): Promise<void> {
  if (--users > 0 || !shared) return;
  const { redis, worker } = await shared;
  shared = undefined;
  await worker.close({ force: true });
  await redis.stop();
}

/** Every value Redis holds, as text. */
async function redisDump(port: number): Promise<string> {
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
  await client.connect();
  try {
    const out: string[] = [];
    for (const key of await client.keys('*')) {
      const type = await client.type(key);
      if (type === 'hash') out.push(JSON.stringify(await client.hgetall(key)));
      else if (type === 'string') out.push(String(await client.get(key)));
      else if (type === 'list') out.push(JSON.stringify(await client.lrange(key, 0, -1)));
      else if (type === 'zset') out.push(JSON.stringify(await client.zrange(key, '0', '-1')));
      else if (type === 'stream') out.push(JSON.stringify(await client.xrange(key, '-', '+')));
    }
    return out.join('\n');
  } finally {
    client.disconnect();
  }
}

const byName = new Map(TOOLS.map((tool) => [describeTool(tool).toolName(), tool]));

/** Enqueueing in process: the application asked its person and says so with `approved`. */
export async function queueWay(): Promise<Harness> {
  const { redis, observer } = await backend();
  observer.start();
  const queue = createToolQueue({ connection: redis.connection, name: NAME, invoker: observer.invoker() });
  return {
    async call(name, args, { answer, caller }): Promise<Outcome> {
      const tool = byName.get(name)!;
      const job = await queue.enqueue(tool, args, { ambientContext: { user: caller }, ...(answer === 'approve' ? { approved: true } : {}) });
      const result = await job.result({ timeoutMs: 20_000 });
      return { ok: result.ok, text: result.ok ? JSON.stringify(result.value ?? null) : result.message, questions: [] };
    },
    runs,
    observed: async () => `${observer.text()}\n${await redisDump(redis.port)}`,
    async close() {
      observer.stop();
      await queue.close();
      await release();
    },
  };
}

/** MCP tasks: serveHttp with `tasks` on the queue, every tool task-capable. */
async function taskServer(): Promise<{ handle: McpHttpHandle; queue: ToolQueue; observer: Observer; port: number }> {
  const { redis, observer } = await backend();
  observer.start();
  const queue = createToolQueue({ connection: redis.connection, name: NAME });
  const handle = await serveHttp(
    { ...matrixServerOptions(observer.invoker(), { tools: TASK_TOOLS, resources: [], prompts: [], completions: [] }), tasks: { queue, pollIntervalMs: 20 }, requestState: { keys: ['promise-matrix-key-0123456789abcdef-0123'] } },
    { port: 0, auth: mcpAuth },
  );
  return { handle, queue, observer, port: redis.port };
}

/** MCP tasks on 2025-11-25: the 1.x SDK Client's task stream; approvals asked on the session before the task exists. */
export async function tasks2025Way(): Promise<Harness> {
  const { handle, queue, observer, port } = await taskServer();
  const clients = new Map<Caller, LegacyClient>();
  let answer: Answer = 'deny';
  let questions: string[] = [];
  const client = async (caller: Caller) => {
    let made = clients.get(caller);
    if (!made) {
      made = new LegacyClient({ name: `tasks-${caller}`, version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
      made.setRequestHandler(ElicitRequestSchema, (request) => {
        questions.push(`${request.params.message}\n${JSON.stringify((request.params as { requestedSchema?: unknown }).requestedSchema ?? {})}`);
        return answer === 'approve' ? { action: 'accept', content: { approve: true } } : { action: 'decline' };
      });
      await made.connect(new LegacyHttpTransport(new URL(handle.url), { requestInit: { headers: { authorization: `Bearer ${caller}` } } }));
      await made.listTools();
      clients.set(caller, made);
    }
    return made;
  };
  return {
    async call(name, args, options): Promise<Outcome> {
      answer = options.answer;
      questions = [];
      let text = 'no result';
      let ok = false;
      try {
        for await (const message of (await client(options.caller)).experimental.tasks.callToolStream({ name, arguments: args })) {
          if (message.type === 'result') ({ ok, text } = { ok: message.result.isError !== true, text: resultText(message.result as never) });
          if (message.type === 'error') text = `error: ${message.error.message}`;
        }
      } catch (error) {
        text = `error: ${(error as Error).message}`;
      }
      return { ok, text, questions };
    },
    list: async (_kind, caller) => (await (await client(caller)).listTools()).tools.map((tool) => tool.name),
    runs,
    crossIdentity: async () => {
      const own = await client('admin');
      let taskId = '';
      answer = 'approve';
      for await (const message of own.experimental.tasks.callToolStream({ name: 'whoami', arguments: { note: 'mine' } })) {
        if (message.type === 'taskCreated') taskId = message.task.taskId;
      }
      const other = await client('reader');
      const tried = async (as: LegacyClient, id: string) =>
        (await as.experimental.tasks.getTask(id).then((task) => `200 ${task.status}`, (error: Error) => `error: ${error.message}`)).split(id).join('<task>');
      return { own: await tried(own, taskId), other: await tried(other, taskId), unknown: await tried(other, '00000000-0000-4000-8000-000000000000') };
    },
    observed: async () => `${observer.text()}\n${await redisDump(port)}`,
    async close() {
      for (const made of clients.values()) await made.close().catch(() => undefined);
      observer.stop();
      await handle.close();
      await queue.close();
      await release();
    },
  };
}

type Raw = { result?: Record<string, any>; error?: { code: number; message: string } }; // eslint-disable-line @typescript-eslint/no-explicit-any
let rawId = 0;
const ENVELOPE = {
  ...MODERN_ENVELOPE,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

async function raw(url: string, caller: Caller, method: string, params: Record<string, unknown>): Promise<Raw> {
  const name = method === 'tools/call' ? String(params.name) : typeof params.taskId === 'string' ? params.taskId : undefined;
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...modernHeaders(method, name), authorization: `Bearer ${caller}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rawId, method, params: { ...params, _meta: ENVELOPE } }),
  });
  const body = await response.text();
  const json = body.startsWith('{') ? body : body.split('\n').filter((line) => line.startsWith('data: ')).pop()!.slice(6);
  return JSON.parse(json) as Raw;
}

/**
 * MCP tasks on 2026-07-28 over raw HTTP (the SDK 2.x Client cannot read a CreateTaskResult): the
 * approval is an input-required round answered here, then the task is polled to its end.
 */
export async function tasks2026Way(): Promise<Harness> {
  const { handle, queue, observer, port } = await taskServer();
  const settle = async (caller: Caller, taskId: string): Promise<Raw> => {
    for (let i = 0; i < 1000; i++) {
      const task = await raw(handle.url, caller, 'tasks/get', { taskId });
      if (!task.result || ['completed', 'failed', 'cancelled'].includes(task.result.status)) return task;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`task ${taskId} did not end`);
  };
  const call = async (name: string, args: Record<string, unknown>, caller: Caller, answer: Answer): Promise<Outcome & { taskId?: string }> => {
    const questions: string[] = [];
    let params: Record<string, unknown> = { name, arguments: args };
    for (let round = 0; round < 4; round++) {
      const answered = await raw(handle.url, caller, 'tools/call', params);
      if (answered.error) return { ok: false, text: `error: ${answered.error.message}`, questions };
      const result = answered.result!;
      if (result.resultType === 'input_required') {
        const [key, request] = Object.entries(result.inputRequests as Record<string, { params: { message: string; requestedSchema?: unknown } }>)[0];
        questions.push(`${request.params.message}\n${JSON.stringify(request.params.requestedSchema ?? {})}`);
        const reply = answer === 'approve' ? { action: 'accept', content: { approve: true } } : { action: 'decline' };
        params = { name, arguments: args, requestState: result.requestState, inputResponses: { [key]: reply } };
        continue;
      }
      if (result.resultType === 'task') {
        const task = await settle(caller, result.taskId);
        const final = task.result?.result ?? {};
        return { ok: task.result?.status === 'completed' && final.isError !== true, text: resultText(final), questions, taskId: result.taskId };
      }
      return { ok: result.isError !== true, text: resultText(result), questions };
    }
    return { ok: false, text: 'too many rounds', questions };
  };
  return {
    call: (name, args, { caller, answer }) => call(name, args, caller, answer),
    list: async (_kind, caller) => ((await raw(handle.url, caller, 'tools/list', {})).result!.tools as Array<{ name: string }>).map((tool) => tool.name),
    runs,
    crossIdentity: async () => {
      const { taskId } = await call('whoami', { note: 'mine' }, 'admin', 'approve');
      const tried = async (caller: Caller, id: string) => {
        const answered = await raw(handle.url, caller, 'tasks/get', { taskId: id });
        return (answered.error ? `error: ${answered.error.code} ${answered.error.message}` : `200 ${answered.result!.status}`).split(id).join('<task>');
      };
      return { own: await tried('admin', taskId!), other: await tried('reader', taskId!), unknown: await tried('reader', '00000000-0000-4000-8000-000000000000') };
    },
    observed: async () => `${observer.text()}\n${await redisDump(port)}`,
    async close() {
      observer.stop();
      await handle.close();
      await queue.close();
      await release();
    },
  };
}
