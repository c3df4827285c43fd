/**
 * bench/nest/run.ts: toolwright in a Nest app against MCP-Nest. The loan desk's `check_credit`
 * served over Streamable HTTP by MCP-Nest (@rekog/mcp-nest, Nest 12 on Fastify) and by toolwright's
 * standalone `serveHttp` (and, where present, toolwright/nest on Fastify), each server in its own
 * process (bench/nest/server-worker.ts). This process is the load generator of bench/mcp/http.ts
 * (`load` of bench/mcp/http-load.ts, SDK Clients over `StreamableHTTPClientTransport`): 1, 10 and
 * 100 clients calling back to back for ROUND_MS per cell, cells interleaved with the contenders'
 * order alternating, median over rounds. Writes bench/results/nest.md (bench/run-all.ts assembles
 * RESULTS.md).
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fmt, machine, markdownTable, median, writeReport } from '../lib/stats';
import { load, times } from '../mcp/http-load';
import { Session } from '../mcp/spawn';
import { CALL, CONTENDER_SERVERS } from './servers';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 600);
const LEVELS = [1, 10, 100];
const MODES = (process.env.BENCH_MODES ?? 'stateless,session').split(',');
const LABELS: Record<string, string> = {
  'mcp-nest': 'MCP-Nest',
  toolwright: 'toolwright `serveHttp`',
  'toolwright-nest': 'toolwright/nest',
};
const KEYS = Object.keys(LABELS).filter((key) => key in CONTENDER_SERVERS);

async function connectClient(url: string): Promise<Client> {
  const client = new Client({ name: 'nest-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0];
  const servers = new Map<string, Session>();
  const pools = new Map<string, Client[]>();
  for (const mode of MODES) {
    for (const key of KEYS) {
      const server = new Session(path.join(__dirname, 'server-worker.ts'), [key, mode]);
      const url = await server.started<string>();
      servers.set(`${key}:${mode}`, server);
      const clients = await Promise.all(Array.from({ length: Math.max(...LEVELS) }, () => connectClient(url)));
      const check = (await clients[0].callTool(CALL)) as { structuredContent?: { score?: number; band?: string } };
      if (check.structuredContent?.score !== 812 || check.structuredContent.band !== 'excellent') {
        throw new Error(`${key} ${mode}: unexpected answer ${JSON.stringify(check)}`);
      }
      pools.set(`${key}:${mode}`, clients);
    }
  }
  const cell = async (key: string, mode: string, level: number) => {
    const server = servers.get(`${key}:${mode}`)!;
    const before = await server.ask<number>({});
    const result = await load(pools.get(`${key}:${mode}`)!.slice(0, level), ROUND_MS, CALL);
    const cpu = (await server.ask<number>({})) - before;
    return { ...result, cpuPerCall: cpu / ((result.rate * result.elapsed) / 1e3) };
  };

  for (const mode of MODES) for (const level of LEVELS) for (const key of KEYS) await cell(key, mode, level);
  const samples = new Map<string, { rate: number[]; p99: number[]; cpu: number[] }>();
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? KEYS : [...KEYS].reverse();
    for (const mode of MODES) {
      for (const level of LEVELS) {
        for (const key of order) {
          const { rate, p99, cpuPerCall } = await cell(key, mode, level);
          const id = `${key}:${mode}:${level}`;
          const entry = samples.get(id) ?? { rate: [], p99: [], cpu: [] };
          entry.rate.push(rate);
          entry.p99.push(p99);
          entry.cpu.push(cpuPerCall);
          samples.set(id, entry);
        }
      }
    }
  }
  const loadAfter = os.loadavg()[0];
  await Promise.all([...pools.values()].flat().map((client) => client.close()));
  servers.forEach((server) => server.close());

  const get = (key: string, mode: string, level: number, what: 'rate' | 'p99' | 'cpu') =>
    median(samples.get(`${key}:${mode}:${level}`)![what]);
  const nest = KEYS.includes('toolwright-nest');
  const rows = MODES.flatMap((mode) =>
    LEVELS.map((level) => {
      const cells = [mode, String(level)];
      for (const key of KEYS) cells.push(fmt(get(key, mode, level, 'rate'), 0));
      cells.push(times(get('toolwright', mode, level, 'rate') / get('mcp-nest', mode, level, 'rate')));
      if (nest) {
        cells.push(times(get('toolwright-nest', mode, level, 'rate') / get('mcp-nest', mode, level, 'rate')));
        cells.push(times(get('toolwright-nest', mode, level, 'rate') / get('toolwright', mode, level, 'rate')));
      }
      for (const key of KEYS) cells.push(`${fmt(get(key, mode, level, 'p99'))} ms`);
      for (const key of KEYS) cells.push(`${fmt(get(key, mode, level, 'cpu'), 0)} µs`);
      return cells;
    }),
  );
  const header = [
    'mode',
    'clients',
    ...KEYS.map((key) => `${LABELS[key]} calls/s`),
    '`serveHttp` / MCP-Nest',
    ...(nest ? ['toolwright/nest / MCP-Nest (goal ≥ 1.2×)', 'toolwright/nest / `serveHttp` (goal ≥ 0.95×)'] : []),
    ...KEYS.map((key) => `${LABELS[key]} p99`),
    ...KEYS.map((key) => `${LABELS[key]} server CPU/call`),
  ];
  const report = [
    '## toolwright in NestJS against MCP-Nest (`bench/nest`)',
    '',
    `${machine()}; median of ${ROUNDS} rounds of ${ROUND_MS} ms per cell after one warm-up round, cells interleaved and contenders alternating; ` +
      `1-minute load average ${fmt(loadBefore, 1)} at the start and ${fmt(loadAfter, 1)} at the end (2 cores).`,
    '',
    "The loan desk's `check_credit` (an applicant string of at most 200 characters in, `{ score, band }` out, both",
    'with a schema, the same `CreditBureau` class behind it) served over Streamable HTTP by: MCP-Nest',
    '(@rekog/mcp-nest 2.0.5: an `@McpController` with zod input and output schemas in a Nest 12 app on the Fastify',
    "platform, served by its `McpStrategy` and `StreamableHttpTransport` on the app's own server; 2.x replaced",
    "`McpModule.forRoot` by this strategy), by toolwright's standalone `serveHttp`" +
      (nest ? ', and by `ToolwrightModule` (toolwright/nest) in a Nest 12 app on the Fastify platform.' : '.'),
    'Each server runs in its own process; the load generator (one more process) drives 1, 10 or 100 SDK Clients',
    '(`StreamableHTTPClientTransport`, 1.x SDK) calling back to back. "stateless" is MCP-Nest\'s default mode',
    '(one server per request, JSON answers); "session" keeps an MCP session per client. The machine\'s 2 cores are',
    'shared by the load generator and the server, so calls/s swings from run to run; server CPU per call (the',
    "server process's `process.cpuUsage()` over the cell, divided by its calls) is the steadier measure.",
    '',
    markdownTable(header, rows),
    '',
  ].join('\n');
  writeReport('nest', report);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
