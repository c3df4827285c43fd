/**
 * MCP tasks over stdio: `serveStdio` (a child process, a real redis-server) serves 2025-11-25 tasks,
 * and does not offer the 2026-07-28 tasks extension, whose methods it has no entry to answer (the
 * SDK's 2026-07-28 dispatch refuses them by name): a 2026-07-28 client that declares the extension
 * is not told it exists, gets an optional tool's answer at once, and a task-only tool is refused
 * saying where tasks are offered.
 */
import 'reflect-metadata';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { connectStdioFixture, v2Client } from '../../helpers/mcp';
import { startRedis, TestRedis } from '../../helpers/redis';

const TASKS = 'io.modelcontextprotocol/tasks';
const ANY = { '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value }) } };
const fixture = path.join(__dirname, '../../fixtures/mcp-tasks/stdio-server.ts');
let redis: TestRedis;
const open: Client[] = [];

async function stdio(modern: boolean): Promise<Client> {
  const client = v2Client('stdio-tasks', modern ? 'pin' : 'legacy', modern ? { capabilities: { extensions: { [TASKS]: {} } } } : {});
  await connectStdioFixture(client, fixture, { env: { REDIS_PORT: String(redis.port) } });
  open.push(client);
  return client;
}

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(open.map((client) => client.close().catch(() => undefined)));
  await redis?.stop();
});

describe('MCP tasks over stdio', () => {
  it('2025-11-25: a task call runs on the queue and tasks/result answers it', async () => {
    const client = await stdio(false);
    expect(client.getServerCapabilities()?.tasks).toBeDefined();
    const created = (await client.request({ method: 'tools/call', params: { name: 'double', arguments: { n: 4 }, task: {} } }, ANY)) as {
      task: { taskId: string };
    };
    const result = (await client.request({ method: 'tasks/result', params: { taskId: created.task.taskId } }, ANY)) as { content: Array<{ text: string }> };
    expect(result.content[0].text).toBe('8');
  }, 60_000);

  it('2026-07-28: the extension is not advertised, an optional tool answers at once, a task-only tool is refused naming HTTP', async () => {
    const client = await stdio(true);
    expect(client.getProtocolEra()).toBe('modern');
    expect((client.getServerCapabilities() as { extensions?: object }).extensions).toBeUndefined();
    expect(await client.callTool({ name: 'double', arguments: { n: 4 } })).toMatchObject({ content: [{ type: 'text', text: '8' }] });
    await expect(client.callTool({ name: 'only_as_task', arguments: { n: 1 } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/runs only as a task.*2026-07-28 tasks over HTTP only \(serveHttp\)/),
    });
    await expect(client.request({ method: 'tasks/get', params: { taskId: 'any' } }, ANY)).rejects.toMatchObject({ code: -32601 });
  }, 60_000);
});
