/**
 * Scale-out, shown for MCP 2026-07-28 tasks: two stateless MCP server replicas behind nginx
 * (round-robin) and one worker on one Redis.
 *
 * 1. A 2026-07-28 client creates a task through nginx (`tools/call`: the server makes a task of it);
 *    the client polls `tasks/get` through nginx until a replica other than the creating one serves
 *    the result. Each replica names itself in every answer's `_meta` serverInfo, so the replica that
 *    answered each request is known.
 * 2. Another task; the creating replica is killed with SIGKILL before the result is read; nginx
 *    takes it out, and the surviving replica serves the result.
 *
 * The SDK 2.x Client (pinned to 2026-07-28) polls with `tasks/get` as a custom request; the task is
 * created over raw HTTP, since its 2026-07-28 codec refuses a `CreateTaskResult` (`resultType: 'task'`).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ChildProcess } from 'node:child_process';
import { ANY_RESULT } from './demo';
import { startNginx, type TestNginx } from './nginx';
import { start, stop } from './processes';
import { startRedis } from './redis-server';
import { ledgerClient } from './tools';

const TASKS = 'io.modelcontextprotocol/tasks';
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

export interface NginxTaskReport {
  /** Step 1: the replica that created the task, the one that served its result, and the result. */
  handedOver: { createdBy: string; servedBy: string; status: string; symbol: unknown };
  /** Step 2: the replica killed (the creator), the one that served the result after, and the result. */
  afterKill: { createdBy: string; killed: string; servedBy: string; status: string; symbol: unknown };
}

interface Answer {
  taskId?: string;
  status?: string;
  result?: { structuredContent?: { symbol?: unknown } };
  _meta?: Record<string, { name?: string }>;
}

/** Which replica answered: the name in the answer's serverInfo (`scale-a` → `a`). */
const replicaOf = (answer: Answer): string => String(answer._meta?.[SERVER_INFO]?.name ?? '?').replace(/^scale-/, '');

let nextId = 1;

/** A 2026-07-28 `tools/call` over raw HTTP, declaring the tasks extension: the `CreateTaskResult`. */
async function createTask(url: string, name: string, args: Record<string, unknown>): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'scale-demo', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
        },
      },
    }),
  });
  const body = (await response.json()) as { result?: Answer; error?: unknown };
  if (!body.result?.taskId) throw new Error(`${name} did not create a task (HTTP ${response.status}): ${JSON.stringify(body)}`);
  return body.result;
}

/** tasks/get through nginx until the task has ended and a replica other than `not` answered. */
async function resultFrom(client: Client, taskId: string, not: string): Promise<Answer> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const task = (await client.request({ method: 'tasks/get', params: { taskId } }, ANY_RESULT)) as Answer;
    if (['completed', 'failed', 'cancelled'].includes(task.status ?? '') && replicaOf(task) !== not) return task;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`task ${taskId}: no replica but ${not} served its end within 500 polls`);
}

export async function runNginxTaskDemo(log: (line: string) => void = () => undefined): Promise<NginxTaskReport> {
  const redis = await startRedis();
  const REDIS_URL = `redis://127.0.0.1:${redis.port}`;
  process.env.REDIS_URL = REDIS_URL;
  const children: ChildProcess[] = [];
  let nginx: TestNginx | undefined;
  let client: Client | undefined;
  try {
    const spawn = async (script: string, env: Record<string, string> = {}) => {
      const started = await start(script, { REDIS_URL, WORKER_CONCURRENCY: '4', ...env });
      children.push(started.child);
      return started;
    };
    const [a, b] = await Promise.all([spawn('server.ts', { REPLICA: 'a' }), spawn('server.ts', { REPLICA: 'b' }), spawn('worker.ts')]);
    const replicas: Record<string, ChildProcess> = { a: a.child, b: b.child };
    const ports = [a, b].map(({ message }) => Number(new URL(message.url as string).port));
    nginx = await startNginx(ports, { failTimeoutSeconds: 30 });
    const url = nginx.url('/mcp');
    log(`replicas a and b on ports ${ports.join(' and ')}; nginx on ${nginx.port}`);
    client = new Client(
      { name: 'scale-2026', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { extensions: { [TASKS]: {} } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));

    // 1. Created on one replica, its result served by the other.
    const first = await createTask(url, 'quote_price', { callId: 'n1', symbol: 'NGX', ms: 50 });
    const firstBy = replicaOf(first);
    const served = await resultFrom(client, first.taskId!, firstBy);
    const handedOver = {
      createdBy: firstBy,
      servedBy: replicaOf(served),
      status: served.status!,
      symbol: served.result?.structuredContent?.symbol,
    };
    log(`step 1: task ${first.taskId} created by replica ${handedOver.createdBy}, its result served by replica ${handedOver.servedBy}`);

    // 2. The creating replica SIGKILLed before the result is read.
    const second = await createTask(url, 'quote_price', { callId: 'n2', symbol: 'KILL', ms: 300 });
    const secondBy = replicaOf(second);
    await stop(replicas[secondBy], 'SIGKILL');
    const after = await resultFrom(client, second.taskId!, secondBy);
    const afterKill = {
      createdBy: secondBy,
      killed: secondBy,
      servedBy: replicaOf(after),
      status: after.status!,
      symbol: after.result?.structuredContent?.symbol,
    };
    log(
      `step 2: task ${second.taskId} created by replica ${secondBy}, which was SIGKILLed; replica ${afterKill.servedBy} served its result`,
    );
    return { handedOver, afterKill };
  } finally {
    await client?.close().catch(() => undefined);
    await nginx?.stop();
    await Promise.all(children.map((child) => stop(child)));
    await ledgerClient()
      .quit()
      .catch(() => ledgerClient().disconnect());
    await redis.stop();
  }
}
