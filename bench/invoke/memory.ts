/**
 * bench/invoke/memory.ts: ten million calls of bench/invoke's eight-field tool through the compiled
 * path (the default), valid and invalid payloads alternating, with the heap measured after a full
 * garbage collection every million calls. Flat means that what the compiled path builds once per
 * contract stays built once, and nothing a call makes outlives the call.
 *
 *   BENCH_CALLS=10000000 (default)
 */
import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Invoker } from 'toolwright';
import { CreateOrder } from './create-order';
import { INVALID_ARGS, VALID_ARGS } from '../schema/contracts';
import { fmt, machine, markdownTable, writeReport } from '../lib/stats';

// A full collection on demand without starting node with --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const CALLS = Number(process.env.BENCH_CALLS ?? 10_000_000);
const STEP = CALLS / 10;
const payloads = [JSON.stringify(VALID_ARGS), JSON.stringify(INVALID_ARGS)];

function heap(): { heapMb: number; rssMb: number } {
  gc();
  gc();
  const usage = process.memoryUsage();
  return { heapMb: usage.heapUsed / 2 ** 20, rssMb: usage.rss / 2 ** 20 };
}

async function main(): Promise<void> {
  const invoker = new Invoker({ tracing: false });
  // Both payloads once, so the contract is compiled before the first measurement.
  for (const payload of payloads) await invoker.invoke(CreateOrder, JSON.parse(payload));
  const samples = [{ calls: 0, ...heap(), seconds: 0 }];
  const started = process.hrtime.bigint();
  let ok = 0;
  for (let call = 1; call <= CALLS; call++) {
    if ((await invoker.invoke(CreateOrder, JSON.parse(payloads[call & 1]))).ok) ok++;
    if (call % STEP === 0) samples.push({ calls: call, ...heap(), seconds: Number(process.hrtime.bigint() - started) / 1e9 });
  }
  if (ok !== CALLS / 2) throw new Error(`expected ${CALLS / 2} valid calls, got ${ok}`);

  // From the first million on (the first step also fills the caches of V8's optimizing compiler).
  const settled = samples.slice(1);
  const growth = settled[settled.length - 1].heapMb - settled[0].heapMb;
  const spread = Math.max(...settled.map((s) => s.heapMb)) - Math.min(...settled.map((s) => s.heapMb));
  const flat = growth < 1 && spread < 2;
  const millions = (calls: number) => `${fmt(calls / 1e6)}M`;
  const report = [
    '## Memory over ten million calls (`bench/invoke/memory.ts`)',
    '',
    `${machine()}; ${millions(CALLS)} calls of the \`bench/invoke\` tool through the compiled path (\`tracing: false\`), valid and`,
    'invalid payloads alternating (JSON.parse per call); the heap after two full garbage collections every',
    `${millions(STEP)} calls.`,
    '',
    `- Flat (goal: the heap does not grow with the calls): **${flat ? 'met' : 'not met'}**, ${growth >= 0 ? '+' : ''}${fmt(growth)} MB of heap from ${millions(settled[0].calls)} to ${millions(CALLS)} calls, ` +
      `${fmt(spread)} MB between the highest and lowest sample after the first ${millions(STEP)} (${fmt(settled[0].heapMb - samples[0].heapMb)} MB over the first).`,
    '',
    markdownTable(
      ['calls', 'heap used after GC', 'RSS', 'seconds'],
      samples.map((s) => [millions(s.calls), `${fmt(s.heapMb)} MB`, `${fmt(s.rssMb)} MB`, fmt(s.seconds)]),
    ),
    '',
  ].join('\n');
  writeReport('invoke-memory', report);
}

void main();
