/**
 * bench/http: one tool over `toolwright/http` beside a hand-written Fastify route with the same JSON
 * Schemas and a Fastify route validating with class-transformer + class-validator, each server in its
 * own process, driven by autocannon over loopback at 1, 10 and 100 connections, in one run.
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import autocannon from 'autocannon';
import { fmt, machine, markdownTable, median, writeReport } from '../lib/stats';
import { BODY } from './tool';

const ROUNDS = Number(process.env.BENCH_SAMPLES ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = [1, 10, 100];
/** Another checkout of toolwright (e.g. the previous commit), whose plugin runs as one more contender. */
const BASELINE = process.env.BENCH_BASELINE;
const CONTENDERS: Array<[string, string]> = [
  ['toolwright', '`toolwright/http` plugin'],
  ...(BASELINE ? [['baseline', `\`toolwright/http\` of ${process.env.BENCH_BASELINE_LABEL ?? BASELINE}`] as [string, string]] : []),
  ['fastify', 'Fastify route, same JSON Schemas (ajv + fast-json-stringify)'],
  ['class-validator', 'Fastify route + class-transformer/class-validator'],
];
const repo = path.resolve(__dirname, '..', '..');

function start(kind: string): Promise<{ child: ChildProcess; url: string }> {
  const root = kind === 'baseline' ? path.resolve(BASELINE!) : repo;
  const child = spawn(
    process.execPath,
    [
      '-r',
      'ts-node/register/transpile-only',
      '-r',
      'tsconfig-paths/register',
      path.join(root, 'bench', 'http', 'server.ts'),
      kind === 'baseline' ? 'toolwright' : kind,
    ],
    { cwd: root, stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, NODE_ENV: 'production' } },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve({ child, url: (JSON.parse(out) as { url: string }).url });
    });
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

async function cpu(url: string): Promise<number> {
  const { user, system } = (await (await fetch(new URL('/__cpu', url))).json()) as { user: number; system: number };
  return user + system;
}

interface Sample {
  rps: number;
  p99: number;
  /** The server's CPU time per request, µs. */
  cpu: number;
}

async function load(url: string, connections: number, seconds: number): Promise<Sample> {
  const before = await cpu(url);
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: BODY,
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const used = (await cpu(url)) - before;
  return { rps: result.requests.average, p99: result.latency.p99, cpu: used / result.requests.total };
}

/** What a profile of the toolwright server shows (`node --cpu-prof` on bench/http/server.ts). */
const LIMITS = [
  'What limits it: a profile of the toolwright server (`node --cpu-prof`, 10 connections) puts the HTTP adapter\'s',
  'own work under 2 µs a request (the route handler, the body-deadline hook, serializing the success) and the invoker',
  'at about 3 µs since issue 38 (one generated function per contract, the fast `@IsEmail` check, the output rendered by',
  'generated code; it was about 13 µs); socket writes (`writev`) in the kernel are half of every contender\'s CPU. It',
  'allocates more than the bare route, so garbage collection (whose',
  'helper threads count in the server\'s CPU time too) costs a few µs more than the bare route\'s. Parsing, routing and',
  'the socket write are the same work on both sides. Taken out of the adapter\'s request path: a PassThrough stream, a',
  'timer and four listeners for the body deadline (now only for a body that did not arrive with its headers: this was',
  'most of the 60–80 µs saved at 10 and 100 connections), the per-tool setting lookups, the call options object, and',
  '`JSON.stringify` of a success (fast-json-stringify from the route\'s response schema, which is the `@Exposes` schema).',
  'An AbortController per request costs about 10 µs more, which is why `abortOnDisconnect` is opt-in.',
];

async function main(): Promise<void> {
  const servers = new Map<string, { child: ChildProcess; url: string }>();
  for (const [key] of CONTENDERS) servers.set(key, await start(key));
  const samples = new Map<string, { rps: number[]; p99: number[]; cpu: number[] }>();
  try {
    for (const [key] of CONTENDERS) await load(servers.get(key)!.url, 10, 1); // warm-up: JIT, caches
    for (const connections of CONNECTIONS) {
      for (let round = 0; round < ROUNDS; round++) {
        const keys = CONTENDERS.map(([key]) => key);
        for (const key of round % 2 === 0 ? keys : keys.reverse()) {
          const sample = await load(servers.get(key)!.url, connections, SECONDS);
          const id = `${key}:${connections}`;
          const entry = samples.get(id) ?? { rps: [], p99: [], cpu: [] };
          entry.rps.push(sample.rps);
          entry.p99.push(sample.p99);
          entry.cpu.push(sample.cpu);
          samples.set(id, entry);
          process.stderr.write(`  ${id}: ${fmt(sample.rps)} req/s, p99 ${sample.p99} ms, ${fmt(sample.cpu)} µs CPU/request\n`);
        }
      }
    }
  } finally {
    for (const { child } of servers.values()) child.stdin!.end();
  }
  const rps = (key: string, c: number) => median(samples.get(`${key}:${c}`)!.rps);
  const p99 = (key: string, c: number) => median(samples.get(`${key}:${c}`)!.p99);
  const cpuOf = (key: string, c: number) => median(samples.get(`${key}:${c}`)!.cpu);
  const range = (values: number[]) => `${fmt(Math.min(...values))}–${fmt(Math.max(...values))}`;
  const rows = CONNECTIONS.flatMap((c) =>
    CONTENDERS.map(([key, label]) => [
      String(c),
      label,
      `${fmt(rps(key, c))} (${range(samples.get(`${key}:${c}`)!.rps)})`,
      key === 'toolwright' ? '1.00×' : `${fmt(rps('toolwright', c) / rps(key, c))}×`,
      `${fmt(p99(key, c))} ms`,
      `${fmt(cpuOf(key, c))} µs (${range(samples.get(`${key}:${c}`)!.cpu)})`,
      key === 'toolwright' ? '1.00×' : `${fmt(cpuOf(key, c) / cpuOf('toolwright', c))}×`,
    ]),
  );
  const mark = (met: boolean) => (met ? 'met' : '**not met**');
  const goals = CONNECTIONS.map((c) => {
    const bare = rps('toolwright', c) / rps('fastify', c);
    const perCpu = cpuOf('fastify', c) / cpuOf('toolwright', c);
    const cv = cpuOf('class-validator', c) / cpuOf('toolwright', c);
    const before = BASELINE
      ? `; before this change ${fmt(rps('baseline', c) / rps('fastify', c))}× its requests/s and ${fmt(cpuOf('fastify', c) / cpuOf('baseline', c))}× per CPU second`
      : '';
    return `- ${c} connection${c > 1 ? 's' : ''}: ${fmt(bare)}× the bare route's requests/s (goal ≥ 0.95: ${mark(bare >= 0.95)}), ${fmt(perCpu)}× its throughput per CPU second${before}; ${fmt(cv)}× the class-validator route's throughput per CPU second.`;
  });
  const raw = CONNECTIONS.flatMap((c) =>
    CONTENDERS.map(
      ([key]) =>
        `- ${key}, ${c} connection${c > 1 ? 's' : ''}: req/s ${samples.get(`${key}:${c}`)!.rps.map((v) => fmt(v)).join(', ')}; µs CPU/request ${samples
          .get(`${key}:${c}`)!
          .cpu.map((v) => fmt(v))
          .join(', ')}`,
    ),
  );
  writeReport(
    'http',
    [
      '## HTTP API (`bench/http`)',
      '',
      `${machine()}; load average ${os.loadavg().map((load) => load.toFixed(1)).join(' / ')} (1/5/15 min) at the end of the run; autocannon over loopback, ${ROUNDS} rounds of ${SECONDS} s per cell (contenders alternating), medians (ranges); each server in its own process.`,
      '',
      'One POST tool (7 input fields: a UUID, an email, two bounded integers, an enum, an optional boolean, an',
      'optional bounded string; 3 output fields), valid input every time. "toolwright ×" is toolwright\'s',
      "requests/s divided by the contender's (in the CPU column, the contender's CPU time per request divided",
      "by toolwright's): above 1× means toolwright is faster. The server's own CPU time per request",
      '(`process.cpuUsage()` around each load) is the steadier measure on a shared machine: requests/s from',
      'autocannon, which competes with the server for the same two cores, swing between rounds.',
      '',
      ...goals,
      '',
      ...LIMITS,
      '',
      markdownTable(['connections', 'server', 'requests/s', 'toolwright ×', 'p99 latency', 'server CPU per request', 'toolwright ×'], rows),
      '',
      'Raw samples, in round order:',
      '',
      ...raw,
      '',
    ].join('\n'),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
