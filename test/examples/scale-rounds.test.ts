/**
 * Scale-out for MCP 2026-07-28 input-required rounds: three toolwright MCP server processes
 * (examples/scale/replica.ts, the same requestState key) behind nginx (round-robin, unbuffered),
 * and a 2026-07-28 client through nginx. An approval and an elicitation whose two rounds land on
 * different replicas (each replica reports every round it serves), and the same with the replica
 * that served the first round SIGKILLed before the second: the call completes on another.
 */
import 'reflect-metadata';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startNginx, TestNginx } from '../helpers/nginx';

jest.setTimeout(180_000); // three ts-node processes start on a shared 2-core machine

const ROOT = path.resolve(__dirname, '..', '..');
const KEY = randomBytes(32).toString('base64');

interface Served {
  replica: string;
  tool: string;
  ticket: string;
}

const replicas = new Map<string, ChildProcess>();
const served: Served[] = [];
const waiting: Array<() => void> = [];
let nginx: TestNginx;
let mcpPath = '/mcp';

function startReplica(name: string): Promise<number> {
  const child = fork(path.join(ROOT, 'examples/scale/replica.ts'), [], {
    cwd: ROOT,
    execArgv: ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register'],
    env: { ...process.env, REPLICA: name, PORT: '0', MCP_STATE_KEY: KEY },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  replicas.set(name, child);
  return new Promise((resolve, reject) => {
    child.on('message', (message: { url?: string; port?: number; served?: Served }) => {
      if (message.served) {
        served.push(message.served);
        for (const wake of waiting.splice(0)) wake();
      }
      if (message.url) {
        mcpPath = new URL(message.url).pathname;
        resolve(message.port!);
      }
    });
    child.once('exit', (code) => reject(new Error(`replica ${name} exited with ${code} before it was ready`)));
  });
}

/** The rounds served for one ticket, in order; waits (event-driven) until there are `count`. */
async function roundsOf(ticket: string, count: number): Promise<Served[]> {
  for (;;) {
    const found = served.filter((each) => each.ticket === ticket);
    if (found.length >= count) return found;
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
}

function kill(name: string): Promise<void> {
  const child = replicas.get(name)!;
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

beforeAll(async () => {
  const ports = await Promise.all(['r1', 'r2', 'r3'].map(startReplica));
  nginx = await startNginx(ports);
});
afterAll(async () => {
  await nginx?.stop();
  await Promise.all([...replicas.values()].map((child) => new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  })));
});

/** A 2026-07-28 client through nginx whose user answers with `answer` (after `between`, if given). */
async function connect(answer: (message: string) => Record<string, unknown>, between?: () => Promise<void>): Promise<Client> {
  const client = new Client({ name: 'scale-rounds', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  client.setRequestHandler('elicitation/create', async (request) => {
    await between?.();
    return answer(String(request.params.message)) as never;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(nginx.url(mcpPath))));
  return client;
}

function text(result: object): string {
  return (((result as { content?: unknown }).content as Array<{ text?: string }>) ?? []).map((part) => part.text ?? '').join('');
}

const approve = () => ({ action: 'accept', content: { approve: true } });
const rename = () => ({ action: 'accept', content: { name: 'orion' } });

describe('input-required rounds across replicas behind nginx', () => {
  it('an approval: the asking round and the approved run land on different replicas', async () => {
    const client = await connect(approve);
    const result = await client.callTool({ name: 'deploy', arguments: { service: 'api', ticket: 'approve-1' } });
    await client.close();
    const [asked, ran] = await roundsOf('approve-1', 2);
    expect(asked.replica).not.toBe(ran.replica);
    expect(text(result)).toBe(`deployed api on replica ${ran.replica}`);
  });

  it('an elicitation: the asking round and the answered run land on different replicas', async () => {
    const client = await connect(rename);
    const result = await client.callTool({ name: 'rename', arguments: { ticket: 'elicit-1' } });
    await client.close();
    const [asked, answered] = await roundsOf('elicit-1', 2);
    expect(asked.replica).not.toBe(answered.replica);
    expect(text(result)).toBe(`renamed to orion on replica ${answered.replica}`);
    expect(served.filter((each) => each.ticket === 'elicit-1')).toHaveLength(2);
  });

  it.each([
    ['rename', { ticket: 'kill-elicit' }, rename, 'renamed to orion on replica '],
    ['deploy', { service: 'db', ticket: 'kill-approve' }, approve, 'deployed db on replica '],
  ])('%s with the replica of the first round SIGKILLed before the answer: the call completes on another', async (tool, args, answer, prefix) => {
    let killed = '';
    const client = await connect(answer, async () => {
      const [first] = await roundsOf(args.ticket, 1);
      killed = first.replica;
      await kill(killed);
    });
    const result = await client.callTool({ name: tool, arguments: args });
    await client.close();
    const [first, second] = await roundsOf(args.ticket, 2);
    expect(first.replica).toBe(killed);
    expect(replicas.get(killed)!.signalCode).toBe('SIGKILL');
    expect(second.replica).not.toBe(killed);
    expect(text(result)).toBe(`${prefix}${second.replica}`);
  });
});
