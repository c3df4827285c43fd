/**
 * bench/mcp/revisions.ts: serving speed over Streamable HTTP in both MCP revisions. A trivial tool
 * (`echo`) served by toolwright's `serveHttp` and by the SDK 2.x's `McpServer.registerTool` (zod)
 * behind the same hosting code (`hostHttp`: bench/mcp/http-server-worker.ts, session mode), one server
 * process per contender and revision. On 2025-11-25 the SDK 2.x `Client` in its default mode (one
 * session per client); on 2026-07-28 the same `Client` pinned to 2026-07-28, whose requests both
 * servers hand to the SDK's `createMcpHandler` (a server instance per request: toolwright's factory
 * over its prebuilt tools, the SDK contender's `new McpServer` + `registerTool`, the SDK's per-request
 * pattern). 1, 10, 50 and 100 clients, cells interleaved with the contenders alternating, median over
 * rounds: calls/s, p50, p99 and the server process's CPU per call. Then a profiling pass
 * (`--cpu-prof`, every server again, 50 clients) splits each server's CPU by whose code ran: toolwright's
 * `src/`, the hosting code both run, the MCP SDK, zod, Node's own, garbage collection
 * (BENCH_KEEP_PROFILES=1 keeps the .cpuprofile files and prints where). Writes
 * bench/results/mcp-revisions.md.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { fmt, machine, markdownTable, median, writeReport } from '../lib/stats';
import { ECHO, load, times } from './http-load';
import { Session } from './spawn';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 600);
const PROFILE_MS = Number(process.env.BENCH_PROFILE_MS ?? 4000);
const LEVELS = [1, 10, 50, 100];
const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
type Revision = (typeof REVISIONS)[number];
const KEYS = ['toolwright', 'sdk'] as const;
/** The goal per revision (issue 25): toolwright's calls/s over the SDK's, with p99 no worse. */
const GOAL: Record<Revision, number> = { '2025-11-25': 1.0, '2026-07-28': 1.2 };
const repo = path.resolve(__dirname, '..', '..');
/** toolwright's hosting code, which both contenders run (`hostHttp`): charged to neither. */
const HOSTING = [
  'serve.ts',
  'http-body.ts',
  'web-bridge.ts',
  'hosts.ts',
  'sessions.ts',
  'limits.ts',
  'event-store.ts',
  'session-events.ts',
];

async function connectClient(url: string, revision: Revision): Promise<Client> {
  const client = new Client(
    { name: 'revisions-bench', version: '1.0.0' },
    revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const era = client.getProtocolEra();
  if (era !== (revision === '2026-07-28' ? 'modern' : 'legacy')) throw new Error(`${revision}: the client negotiated era ${era}`);
  return client;
}

async function startServer(key: string, revision: Revision, clients: number, flags: string[] = []) {
  const server = new Session(path.join(__dirname, 'http-server-worker.ts'), [key, 'session'], flags);
  const url = await server.started<string>();
  const pool = await Promise.all(Array.from({ length: clients }, () => connectClient(url, revision)));
  const check = (await pool[0].callTool(ECHO)) as { content?: Array<{ text?: string }> };
  if (check.content?.[0]?.text !== 'hello') throw new Error(`${key} ${revision}: unexpected answer ${JSON.stringify(check)}`);
  return { server, pool };
}

/** Self time of a --cpu-prof profile by whose code ran, as fractions of the non-idle time. */
function splitProfile(
  file: string,
  from: number,
  to: number,
): { shares: Record<string, number>; top: Array<[string, number]>; ownTop: Array<[string, number]> } {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
    startTime: number;
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const owner = ({ functionName, url: where }: { functionName: string; url: string }): string => {
    const url = where.replace(/^file:\/\//, '');
    if (functionName === '(idle)') return 'idle';
    if (functionName === '(garbage collector)') return 'GC';
    if (HOSTING.some((file) => url === path.join(repo, 'src', 'adapters', 'mcp', 'hosting', file))) return 'hosting (shared)';
    if (url.startsWith(path.join(repo, 'src'))) return 'toolwright';
    if (url.includes('@modelcontextprotocol')) return 'MCP SDK';
    if (url.includes('/zod/')) return 'zod';
    if (url.startsWith('node:') || url === '' || functionName === '(program)') return 'Node';
    if (url.startsWith(path.join(repo, 'bench'))) return 'bench';
    return 'other packages';
  };
  const self = new Map<string, number>();
  const functions = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < from || at > to) return; // outside the measured window (start-up, warm-up, shutdown)
    const frame = byId.get(id)!;
    const delta = profile.timeDeltas[i] ?? 0;
    const who = owner(frame);
    self.set(who, (self.get(who) ?? 0) + delta);
    if (who !== 'idle') {
      const name = `${frame.functionName || '(anonymous)'} (${who}: ${path.basename(frame.url) || 'native'})`;
      functions.set(name, (functions.get(name) ?? 0) + delta);
    }
  });
  const busy = [...self.entries()].filter(([who]) => who !== 'idle').reduce((sum, [, value]) => sum + value, 0);
  const shares = Object.fromEntries([...self.entries()].filter(([who]) => who !== 'idle').map(([who, value]) => [who, value / busy]));
  const ranked = [...functions.entries()].sort((a, b) => b[1] - a[1]).map(([name, value]): [string, number] => [name, value / busy]);
  return { shares, top: ranked.slice(0, 8), ownTop: ranked.filter(([name]) => name.includes('(toolwright:')).slice(0, 8) };
}

/** A profiling pass: each server alone under 50 clients for PROFILE_MS, its profile split by owner. */
async function profilePass(): Promise<Map<string, ReturnType<typeof splitProfile> & { cpuPerCall: number }>> {
  const split = new Map<string, ReturnType<typeof splitProfile> & { cpuPerCall: number }>();
  for (const revision of REVISIONS) {
    for (const key of KEYS) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-prof-'));
      const { server, pool } = await startServer(key, revision, 50, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
      await load(pool, 1000); // warm
      const [before, from] = await server.ask<[number, number]>({ clock: true });
      const { rate, elapsed } = await load(pool, PROFILE_MS);
      const [after, to] = await server.ask<[number, number]>({ clock: true });
      const cpu = after - before;
      await Promise.all(pool.map((client) => client.close()));
      server.close();
      for (let i = 0; i < 200 && fs.readdirSync(dir).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, 300)); // the profile is written as the process exits
      const [file] = fs.readdirSync(dir);
      split.set(`${key}:${revision}`, { ...splitProfile(path.join(dir, file), from, to), cpuPerCall: cpu / ((rate * elapsed) / 1e3) });
      if (process.env.BENCH_KEEP_PROFILES) console.error(`profile of ${key} ${revision}: ${path.join(dir, file)}`);
      else fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return split;
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0];
  const started = new Map<string, Awaited<ReturnType<typeof startServer>>>();
  for (const revision of REVISIONS)
    for (const key of KEYS) started.set(`${key}:${revision}`, await startServer(key, revision, Math.max(...LEVELS)));
  const cell = async (key: string, revision: Revision, level: number) => {
    const { server, pool } = started.get(`${key}:${revision}`)!;
    const before = await server.ask<number>({});
    const result = await load(pool.slice(0, level), ROUND_MS);
    const cpu = (await server.ask<number>({})) - before;
    return { ...result, cpuPerCall: cpu / ((result.rate * result.elapsed) / 1e3) };
  };
  for (const revision of REVISIONS) for (const level of LEVELS) for (const key of KEYS) await cell(key, revision, level); // warm-up
  const samples = new Map<string, Array<Awaited<ReturnType<typeof cell>>>>();
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? KEYS : [...KEYS].reverse();
    for (const revision of REVISIONS) {
      for (const level of LEVELS) {
        for (const key of order) {
          const id = `${key}:${revision}:${level}`;
          samples.set(id, [...(samples.get(id) ?? []), await cell(key, revision, level)]);
        }
      }
    }
  }
  const loadAfter = os.loadavg()[0];
  for (const { server, pool } of started.values()) {
    await Promise.all(pool.map((client) => client.close()));
    server.close();
  }
  const profiles = await profilePass();
  const loadProfiled = os.loadavg()[0];

  const stat = (key: string, revision: Revision, level: number, field: 'rate' | 'p50' | 'p99' | 'cpuPerCall') =>
    median(samples.get(`${key}:${revision}:${level}`)!.map((sample) => sample[field]));
  const rows = REVISIONS.flatMap((revision) =>
    LEVELS.map((level) => {
      const s = (key: string, field: 'rate' | 'p50' | 'p99' | 'cpuPerCall') => stat(key, revision, level, field);
      const speed = s('toolwright', 'rate') / s('sdk', 'rate');
      const p99Ratio = s('toolwright', 'p99') / s('sdk', 'p99');
      return [
        revision,
        String(level),
        fmt(s('toolwright', 'rate'), 0),
        fmt(s('sdk', 'rate'), 0),
        times(speed),
        `${fmt(s('toolwright', 'p50'))} / ${fmt(s('sdk', 'p50'))} ms`,
        `${fmt(s('toolwright', 'p99'))} / ${fmt(s('sdk', 'p99'))} ms`,
        times(p99Ratio),
        `${fmt(s('toolwright', 'cpuPerCall'), 0)} / ${fmt(s('sdk', 'cpuPerCall'), 0)} µs`,
        times(s('sdk', 'cpuPerCall') / s('toolwright', 'cpuPerCall')),
        speed >= GOAL[revision] && p99Ratio <= 1 ? 'met' : 'not met',
      ];
    }),
  );
  const table = markdownTable(
    [
      'revision',
      'clients',
      'toolwright calls/s',
      'SDK calls/s',
      'toolwright ×',
      'p50 toolwright / SDK',
      'p99 toolwright / SDK',
      'p99 ratio',
      'server CPU/call toolwright / SDK',
      'calls per server CPU second ×',
      'goal (2025: ≥1.0×, 2026: ≥1.2×; p99 ≤ SDK)',
    ],
    rows,
  );
  const owners = ['toolwright', 'hosting (shared)', 'MCP SDK', 'zod', 'Node', 'GC', 'other packages'];
  const profileRows = REVISIONS.flatMap((revision) =>
    KEYS.map((key) => {
      const { shares, cpuPerCall } = profiles.get(`${key}:${revision}`)!;
      return [revision, key, `${fmt(cpuPerCall, 0)} µs`, ...owners.map((who) => `${fmt((shares[who] ?? 0) * 100, 1)}%`)];
    }),
  );
  const topLines = REVISIONS.flatMap((revision) =>
    KEYS.map(
      (key) =>
        `- ${revision}, ${key}: ` +
        profiles
          .get(`${key}:${revision}`)!
          .top.map(([name, share]) => `${name} ${fmt(share * 100, 1)}%`)
          .join('; '),
    ),
  );
  const ownLines = REVISIONS.map(
    (revision) =>
      `- ${revision}: ` +
      profiles
        .get(`toolwright:${revision}`)!
        .ownTop.map(([name, share]) => `${name.replace(/ \(toolwright: (.*)\)$/, ' ($1)')} ${fmt(share * 100, 1)}%`)
        .join('; '),
  );
  const report = [
    '## MCP in both revisions over Streamable HTTP (`bench/mcp/revisions.ts`)',
    '',
    `${machine()}; median of ${ROUNDS} rounds of ${ROUND_MS} ms per cell after one warm-up round, cells interleaved and contenders alternating; ` +
      `1-minute load average ${fmt(loadBefore, 1)} at the start, ${fmt(loadAfter, 1)} after the rounds and ${fmt(loadProfiled, 1)} after the profiling pass (2 cores).`,
    '',
    "The `echo` tool of `bench/mcp/http.ts`, served by toolwright's `serveHttp` and by the SDK 2.x's `McpServer.registerTool`",
    '(zod) behind the same hosting code (`hostHttp`, session mode), one server process per contender and revision. The clients',
    'are the SDK 2.x `Client`: on 2025-11-25 in its default mode (a session each), on 2026-07-28 pinned (no session: both servers',
    "hand every request to the SDK's `createMcpHandler`, which builds a server per request: toolwright's factory over its",
    "prebuilt tool list, the SDK contender's `new McpServer` and `registerTool`, as the SDK's serving guide does it). p50/p99",
    "are the cell's call latencies; the server CPU per call is the server process's `process.cpuUsage()` over the cell",
    'divided by its calls (the steadier measure on a shared machine).',
    '',
    table,
    '',
    `Whose code the server CPU is (\`--cpu-prof\`: each server alone under 50 clients for ${PROFILE_MS} ms after a 1 s warm-up; self time,`,
    'non-idle; CPU/call measured during the profiled run, profiler overhead included):',
    '',
    markdownTable(['revision', 'server', 'CPU/call', ...owners], profileRows),
    '',
    'The functions with the most self time in each profile:',
    '',
    ...topLines,
    '',
    "toolwright's own functions (outside the shared hosting code) with the most self time:",
    '',
    ...ownLines,
    '',
  ].join('\n');
  writeReport('mcp-revisions', report);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
