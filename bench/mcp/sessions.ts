/**
 * bench/mcp/sessions.ts: 20,000 abandoned sessions (clients that initialize and never send DELETE)
 * against `serveHttp` with its session limits lowered (maxSessions 1,000, idle timeout 10 s), and, as
 * a reference, against the same server with the limits raised out of reach. The server runs in its
 * own process (bench/mcp/sessions-worker.ts, --expose-gc), so its heap is its own: before the flood,
 * the highest `heapUsed` sampled during it (every 50 ms, no GC), after it (GC), and after idle
 * expiry (GC). Counts the initializes answered 200 and 503, and runs one well-behaved SDK Client
 * (connected before the flood, one tools/call every 20 ms) throughout. Writes
 * bench/results/mcp-sessions.md (bench/run-all.ts assembles RESULTS.md).
 */
import { Agent, request } from 'node:http';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { fmt, machine, markdownTable, writeReport } from '../lib/stats';
import type { HeapSample } from './sessions-worker';
import { Session } from './spawn';

const ABANDONED = Number(process.env.BENCH_SESSIONS ?? 20_000);
const CONCURRENCY = 32;
const SAMPLE_MS = 2500;
const CONFIGS = [
  { key: 'bounded', label: '`maxSessions: 1000`, `sessionIdleTimeoutMs: 10000`', maxSessions: 1000, idleMs: 10_000 },
  { key: 'reference', label: 'reference: limits out of reach (`maxSessions: 1e6`, idle 1 h)', maxSessions: 1_000_000, idleMs: 3_600_000 },
];

const mib = (bytes: number) => `${fmt(bytes / 2 ** 20)} MiB`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const body = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'abandoned', version: '1.0.0' } },
});

/** One abandoned client: initialize, read the answer, never come back. Resolves the status. */
function abandon(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A client that behaves: connected before the flood, calling a tool every 20 ms until stopped. */
function wellBehaved(url: string) {
  const stats = { ok: 0, failed: 0, slowestMs: 0 };
  let running = true;
  const done = (async () => {
    const client = new Client({ name: 'well-behaved', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    while (running) {
      const start = performance.now();
      try {
        const result = await client.callTool({ name: 'ping', arguments: {} });
        if ((result.structuredContent as { pong?: boolean })?.pong === true) stats.ok++;
        else stats.failed++;
      } catch {
        stats.failed++;
      }
      stats.slowestMs = Math.max(stats.slowestMs, performance.now() - start);
      await sleep(20);
    }
    await transport.terminateSession();
    await client.close();
  })();
  return { stats, stop: () => ((running = false), done) };
}

interface Row extends HeapSample {
  second: number;
  accepted: number;
  refused: number;
}

async function run(config: (typeof CONFIGS)[number]) {
  const server = new Session(
    path.join(__dirname, 'sessions-worker.ts'),
    [String(config.maxSessions), String(config.idleMs)],
    ['--expose-gc'],
  );
  const url = await server.started<string>();
  const ask = () => server.ask<HeapSample>({});

  // Warm-up: one full session, so that first-use costs are not charged to the flood.
  const warm = wellBehaved(url);
  await sleep(200);
  await warm.stop();
  const before = await ask();

  const client = wellBehaved(url);
  await sleep(200);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const counts = { accepted: 0, refused: 0, other: 0 };
  let next = 0;
  const start = performance.now();
  let flooding = true;
  const flood = Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < ABANDONED) {
        next++;
        const status = await abandon(url, agent);
        if (status === 200) counts.accepted++;
        else if (status === 503) counts.refused++;
        else counts.other++;
      }
    }),
  ).finally(() => (flooding = false));
  const timeline: Row[] = [];
  const sample = async () => {
    const row = { second: (performance.now() - start) / 1000, ...(await ask()), accepted: counts.accepted, refused: counts.refused };
    timeline.push(row);
    return row;
  };
  while (flooding) {
    await Promise.race([sleep(SAMPLE_MS), flood]);
    await sample();
  }
  await flood;
  const floodSeconds = (performance.now() - start) / 1000;
  agent.destroy();
  const afterFlood = timeline[timeline.length - 1];

  // Idle expiry: every abandoned session closes; the well-behaved client's stays (its event stream is open).
  let afterExpiry: HeapSample | undefined;
  if (config.idleMs < 60_000) {
    const deadline = performance.now() + config.idleMs + 15_000;
    while (performance.now() < deadline && (afterExpiry = await sample()).sessions > 1) await sleep(SAMPLE_MS);
  }
  const { stats } = client;
  await client.stop();
  server.close();
  const peakHeap = Math.max(...timeline.map((row) => row.peakHeap));
  const peakRss = Math.max(...timeline.map((row) => row.peakRss));
  const maxLive = Math.max(...timeline.map((row) => row.live));
  if (counts.other > 0) throw new Error(`${counts.other} initializes were answered neither 200 nor 503`);
  return { config, before, peakHeap, peakRss, maxLive, afterFlood, afterExpiry, counts, floodSeconds, stats, timeline };
}

async function main(): Promise<void> {
  const results = [];
  for (const config of CONFIGS) {
    process.stderr.write(`bench/mcp/sessions: ${config.key}…\n`);
    results.push(await run(config));
  }
  const bounded = results[0];
  const reference = results[1];
  const perSession = (reference.afterFlood.live - reference.before.live) / Math.max(1, reference.afterFlood.sessions - 1);

  const report = [
    '## MCP sessions under abandonment (`bench/mcp/sessions.ts`)',
    '',
    `${machine()}; one run per configuration.`,
    '',
    `${ABANDONED.toLocaleString('en-US')} abandoned clients (raw HTTP, ${CONCURRENCY} at a time over keep-alive connections: each sends`,
    '`initialize`, reads the answer and never comes back, as the SDK Client does when it closes without `DELETE`) against',
    '`serveHttp` in its own process, first with the session limits lowered for the run, then, for reference, with them',
    `out of reach. Live heap is the server process's \`heapUsed\` after a full GC, taken every ${SAMPLE_MS / 1000} s (the highest of these is`,
    '"highest live heap"); the peaks are the highest `heapUsed` (garbage included) and `rss` sampled every 50 ms. A separate well-behaved SDK Client,',
    'connected before the flood, calls a tool every 20 ms throughout; its open event stream keeps its session active.',
    '',
    markdownTable(
      [
        'server',
        'answered 200',
        '503 (`Retry-After`)',
        'flood took',
        'live heap before',
        'highest live heap',
        'peak `heapUsed` / `rss`',
        'after the flood',
        'after idle expiry',
        'well-behaved client: calls ok / failed',
        'its slowest call',
      ],
      results.map((r) => [
        r.config.label,
        r.counts.accepted.toLocaleString('en-US'),
        r.counts.refused.toLocaleString('en-US'),
        `${fmt(r.floodSeconds)} s`,
        mib(r.before.live),
        mib(r.maxLive),
        `${mib(r.peakHeap)} / ${mib(r.peakRss)}`,
        `${mib(r.afterFlood.live)} (${r.afterFlood.sessions.toLocaleString('en-US')} sessions)`,
        r.afterExpiry ? `${mib(r.afterExpiry.live)} (${r.afterExpiry.sessions} session)` : 'n/a (1 h)',
        `${r.stats.ok.toLocaleString('en-US')} / ${r.stats.failed}`,
        `${fmt(r.stats.slowestMs)} ms`,
      ]),
    ),
    '',
    `An open session costs about ${fmt(perSession / 1024)} KiB of heap (reference run: heap after the flood minus before, over its`,
    `sessions). With the limits, the server holds at most ${bounded.config.maxSessions.toLocaleString('en-US')} sessions whatever the number of abandoned clients, and`,
    'returns to its starting heap once they idle out; without them, the heap grows with every abandoned client.',
    '',
    `**Timeline of the bounded run**, every ${SAMPLE_MS / 1000} s: open sessions, live heap (after GC), the highest \`heapUsed\` since the`,
    'previous row, initializes answered so far:',
    '',
    markdownTable(
      ['second', 'open sessions', 'live heap', 'peak `heapUsed`', 'answered 200', 'answered 503'],
      bounded.timeline.map((row) => [
        fmt(row.second, 1),
        row.sessions.toLocaleString('en-US'),
        mib(row.live),
        mib(row.peakHeap),
        row.accepted.toLocaleString('en-US'),
        row.refused.toLocaleString('en-US'),
      ]),
    ),
    '',
  ].join('\n');
  writeReport('mcp-sessions', report);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
