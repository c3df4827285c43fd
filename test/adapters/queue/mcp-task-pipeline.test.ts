/**
 * A task call goes through everything a direct tools/call goes through before it is enqueued: scopes,
 * validation, middleware (a refusal, a rate limit, an audit record) and approval (under
 * requireApprovalForDestructive, asked once by elicitation). The worker runs the approved input and
 * does not ask again; a job put into Redis without the approval never runs a tool that needs one.
 * Real Redis, real HTTP, the SDK Client.
 */
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { audit, AuditRecord, configure, Expects, Middleware, rateLimit, SemanticHints, Tool } from 'toolwright';
import { McpHttpHandle, serveHttp } from 'toolwright/mcp';
import { createToolQueue, startToolWorker, ToolQueue, ToolWorker } from 'toolwright/queue';
import { startRedis, TestRedis } from '../../helpers/redis';

const ran: string[] = [];

@Tool({ adapters: { mcp: { taskSupport: 'optional' } }, success: 'Account deleted' })
@SemanticHints('destructive')
@Expects({ account: String })
class DeleteAccount {
  call({ account }: { account: string }) {
    ran.push(`delete ${account}`);
    return `deleted ${account}`;
  }
}

@Tool({ adapters: { mcp: { taskSupport: 'optional' } } })
@Expects({ n: Number })
class Touchy {
  call({ n }: { n: number }) {
    ran.push(`touchy ${n}`);
    return n;
  }
}

@Tool({ adapters: { mcp: { taskSupport: 'optional' } } })
@SemanticHints('readOnly')
@Expects({ n: Number })
class Counted {
  call({ n }: { n: number }) {
    ran.push(`counted ${n}`);
    return n;
  }
}

@Tool({ adapters: { mcp: { taskSupport: 'optional', scopes: ['admin'] } } })
@Expects({})
class AdminOnly {
  call() {
    ran.push('admin');
    return 'done';
  }
}

const TOOLS = [DeleteAccount, Touchy, Counted, AdminOnly];
const records: AuditRecord[] = [];
const closedToday: Middleware = function closedToday(call, next) {
  return call.tool.target === Touchy ? call.fail('Touchy is closed today') : next();
};
const limiter = rateLimit({ points: 2, per: 'hour' });
const countedLimit: Middleware = function countedLimit(call, next) {
  return call.tool.target === Counted ? limiter(call, next) : next();
};

let redis: TestRedis;
let worker: ToolWorker;
let queue: ToolQueue;
let handle: McpHttpHandle;
const clients: Client[] = [];

beforeAll(async () => {
  redis = await startRedis();
  configure({ onException: () => undefined });
  // The worker has the same approval rule as the server: a job that was not approved is refused.
  worker = startToolWorker({ connection: redis.connection, name: 'gated', tools: TOOLS, invoker: { requireApprovalForDestructive: true } });
  await worker.ready();
  queue = createToolQueue({ connection: redis.connection, name: 'gated' });
  handle = await serveHttp(
    {
      name: 'gated',
      version: '1',
      tools: TOOLS,
      tasks: { queue, pollIntervalMs: 20 },
      invoker: { requireApprovalForDestructive: true, middleware: [audit((record) => void records.push(record)), closedToday, countedLimit] },
    },
    { port: 0 },
  );
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await handle?.close();
  await worker?.close({ force: true });
  await queue?.close();
  configure({ onException: undefined });
  await redis?.stop();
});
beforeEach(() => {
  ran.length = 0;
  records.length = 0;
});

/** An SDK Client; with `answer`, it supports elicitation and answers every question so (counting them). */
async function connect(answer?: ElicitResult): Promise<{ client: Client; questions: string[] }> {
  const client = new Client({ name: 'test', version: '1' }, { capabilities: answer ? { elicitation: { form: {} } } : {} });
  const questions: string[] = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      questions.push(request.params.message);
      return answer;
    });
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
  clients.push(client);
  return { client, questions };
}

/** Calls as a task and waits for the task's result. */
async function asTask(client: Client, name: string, args: Record<string, unknown>) {
  const { task } = await client.request({ method: 'tools/call', params: { name, arguments: args } }, CreateTaskResultSchema, { task: { ttl: 60_000 } });
  return client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
}

const APPROVE: ElicitResult = { action: 'accept', content: { approve: true } };

describe('a task call passes the pipeline before it is enqueued', () => {
  it('a destructive tool under requireApprovalForDestructive: a client that cannot be asked is refused as a direct call is, and nothing runs', async () => {
    const { client } = await connect();
    const task = await asTask(client, 'delete_account', { account: 'a1' });
    const direct = await client.callTool({ name: 'delete_account', arguments: { account: 'a1' } });
    expect(task.isError).toBe(true);
    expect(task.content).toEqual(direct.content);
    expect(task.content).toEqual([
      { type: 'text', text: "delete_account needs a person's approval, and this client cannot be asked (it does not support elicitation), so it did not run." },
    ]);
    expect(ran).toEqual([]);
  });

  it('asks once, at enqueue time, with the input; declined it never runs, approved the worker runs that input without asking again', async () => {
    const declining = await connect({ action: 'decline' });
    const declined = await asTask(declining.client, 'delete_account', { account: 'a2' });
    expect(declined).toMatchObject({ isError: true, content: [{ type: 'text', text: 'The call to delete_account was not approved: the user declined. It did not run.' }] });
    expect(declining.questions).toEqual(['Allow the tool delete_account to run with these arguments?\naccount: "a2"']);

    const approving = await connect(APPROVE);
    const approved = await asTask(approving.client, 'delete_account', { account: 'a3' });
    expect(approved.isError).toBeFalsy();
    expect(approved.content).toEqual([{ type: 'text', text: 'deleted a3' }]);
    expect(approving.questions).toEqual(['Allow the tool delete_account to run with these arguments?\naccount: "a3"']);
    expect(ran).toEqual(['delete a3']);
  });

  it('a middleware that refuses refuses the task, with the same answer as a direct call', async () => {
    const { client } = await connect();
    const task = await asTask(client, 'touchy', { n: 1 });
    const direct = await client.callTool({ name: 'touchy', arguments: { n: 1 } });
    expect(task).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Touchy is closed today' }] });
    expect(task.content).toEqual(direct.content);
    expect(ran).toEqual([]);
  });

  it('the rate limit counts task calls: the third call in the hour is refused, task or direct, and runs nowhere', async () => {
    const { client } = await connect();
    expect((await asTask(client, 'counted', { n: 1 })).content).toEqual([{ type: 'text', text: '1' }]);
    expect((await asTask(client, 'counted', { n: 2 })).content).toEqual([{ type: 'text', text: '2' }]);
    const third = await asTask(client, 'counted', { n: 3 });
    expect(third.isError).toBe(true);
    expect((third.content as Array<{ text: string }>)[0].text).toMatch(/^Too many calls to counted: the limit is 2 per hour\. Retry in \d+ s\.$/);
    expect((await client.callTool({ name: 'counted', arguments: { n: 4 } })).isError).toBe(true);
    expect(ran).toEqual(['counted 1', 'counted 2']);
  });

  it('every task call leaves an audit record: admitted, refused by a middleware, or denied approval', async () => {
    const { client } = await connect();
    await asTask(client, 'touchy', { n: 5 });
    await asTask(client, 'delete_account', { account: 'a4' });
    const approving = await connect(APPROVE);
    await asTask(approving.client, 'delete_account', { account: 'a5' });
    expect(records.map(({ tool, transport, outcome, input }) => ({ tool, transport, outcome, input }))).toEqual([
      { tool: 'touchy', transport: 'mcp', outcome: 'failure', input: { n: 5 } },
      { tool: 'delete_account', transport: 'mcp', outcome: 'failure', input: { account: 'a4' } },
      { tool: 'delete_account', transport: 'mcp', outcome: 'success', input: { account: 'a5' } },
    ]);
    expect(records[1].errorType).toBe('ToolApprovalError');
  });

  it('a tool the caller lacks the scope for is an unknown tool as a task too, and runs nowhere', async () => {
    const { client } = await connect();
    await expect(
      client.request({ method: 'tools/call', params: { name: 'admin_only', arguments: {} } }, CreateTaskResultSchema, { task: {} }),
    ).rejects.toThrow('Unknown tool: admin_only');
    expect(records).toEqual([]);
    expect(ran).toEqual([]);
  });
});

describe('a worker runs a tool that needs approval only for a job approved where it was enqueued', () => {
  it('refuses a job put straight into Redis, and one enqueued without approval', async () => {
    const forged = await queue.bullQueue.add('delete_account', { tool: 'delete_account', version: 1, input: { account: 'x1' }, ambient: {} });
    const viaQueue = await queue.enqueue(DeleteAccount, { account: 'x2' });
    for (const id of [forged.id!, viaQueue.id!]) {
      const result = await (await queue.job(id, { tools: TOOLS }))!.result();
      expect(result).toMatchObject({
        ok: false,
        error: "delete_account needs a person's approval, and nobody could be asked in this call, so it did not run.",
      });
    }
    expect(ran).toEqual([]);
  });

  it('runs one enqueued as approved; an outcome that is not a Result is refused at enqueue', async () => {
    const job = await queue.enqueue(DeleteAccount, { account: 'x3' }, { approved: true });
    expect(await job.result()).toMatchObject({ ok: true, value: 'deleted x3' });
    expect(ran).toEqual(['delete x3']);
    await expect(queue.enqueue(DeleteAccount, {}, { outcome: { ok: false } as never })).rejects.toThrow(
      'enqueue(delete_account): outcome must be the Result the call was answered with; got {"ok":false}.',
    );
  });
});
