/**
 * Scale-out, shown: two stateless MCP server processes and two worker processes sharing one Redis.
 *
 * 1. `calls` task calls from `clients` concurrent MCP clients, spread over both servers: every one
 *    completes with the right result, and each ran exactly once.
 * 2. A worker killed with SIGKILL mid-run: its idempotent calls complete on the other worker; its
 *    non-idempotent call is reported failed and never run again.
 * 3. Throughput of an I/O-waiting tool with one worker process, then with two.
 */
import type { ChildProcess } from 'node:child_process';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { createToolQueue, ToolQueue } from 'toolwright/queue';
import { start, stop } from './processes';
import { startRedis } from './redis-server';
import { ChargeCard, FINISHED, ledgerClient, QuotePrice, STARTED } from './tools';

export interface ScaleDemoOptions {
  /** Task calls in step 1 (default 500). */
  calls?: number;
  /** Concurrent MCP clients in step 1 (default 20). */
  clients?: number;
  /** Calls per throughput run in step 3 (default 300). */
  throughputCalls?: number;
  /** Jobs each worker runs at once (default 4). */
  concurrency?: number;
  log?: (line: string) => void;
}

export interface ScaleDemoReport {
  calls: { total: number; correct: number; ranOnce: number };
  kill: {
    idempotent: { total: number; completed: number; startedTwice: number };
    nonIdempotent: { status: string; outcome: string; started: number; finished: number; message: string };
  };
  throughput: { oneWorker: number; twoWorkers: number; ratio: number };
}

/** How long the throughput tool waits on its "downstream service". */
const IO_WAIT_MS = 50;
const KILL_QUOTES = 8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A result schema that takes the answer as it is (the 2.x Client's custom requests need one). */
export const ANY_RESULT = { '~standard': { version: 1 as const, vendor: 'scale-demo', validate: (value: unknown) => ({ value }) } };

/**
 * A task call on MCP 2025-11-25 with the SDK 2.x Client (which has no task helpers): `tools/call`
 * with `params.task`, then `tasks/result`, which waits until the task ends.
 */
async function callAsTask(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const created = (await client.request({ method: 'tools/call', params: { name, arguments: args, task: {} } }, ANY_RESULT)) as {
    task?: { taskId: string };
  };
  if (!created.task) throw new Error(`${name} did not create a task: ${JSON.stringify(created)}`);
  return (await client.request({ method: 'tasks/result', params: { taskId: created.task.taskId } }, ANY_RESULT)) as CallToolResult;
}

export async function runScaleDemo(options: ScaleDemoOptions = {}): Promise<ScaleDemoReport> {
  const calls = options.calls ?? 500;
  const clientCount = options.clients ?? 20;
  const throughputCalls = options.throughputCalls ?? 300;
  const concurrency = String(options.concurrency ?? 4);
  const log = options.log ?? (() => undefined);
  const t0 = Date.now();
  const elapsed = () => `[${((Date.now() - t0) / 1000).toFixed(1)} s]`;
  const redis = await startRedis();
  const REDIS_URL = `redis://127.0.0.1:${redis.port}`;
  process.env.REDIS_URL = REDIS_URL;
  const ledger = ledgerClient();
  const children: ChildProcess[] = [];
  const spawn = async (script: string, env: Record<string, string> = {}) => {
    const started = await start(script, { REDIS_URL, WORKER_CONCURRENCY: concurrency, LOCK_MS: '5000', ...env });
    children.push(started.child);
    return started;
  };
  let queue: ToolQueue | undefined;
  try {
    // 1. Two servers, two workers, `calls` task calls from `clientCount` clients.
    const [s1, s2, w1, w2] = await Promise.all([spawn('server.ts'), spawn('server.ts'), spawn('worker.ts'), spawn('worker.ts')]);
    log(`${elapsed()} processes up`);
    const urls = [s1.message.url as string, s2.message.url as string];
    log(`servers on ${urls.join(' and ')}; workers ${w1.child.pid} and ${w2.child.pid}`);
    const clients = await Promise.all(
      Array.from({ length: clientCount }, async (_, i) => {
        const client = new Client({ name: `client-${i}`, version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(urls[i % 2])));
        return client;
      }),
    );
    let next = 0;
    let correct = 0;
    await Promise.all(
      clients.map(async (client) => {
        for (let n = next++; n < calls; n = next++) {
          const callId = `c${n}`;
          if (n % 2 === 0) {
            const symbol = `S${n}`;
            const result = await callAsTask(client, 'quote_price', { callId, symbol });
            if (!result.isError && JSON.stringify(result.structuredContent) === JSON.stringify({ symbol, price: symbol.length * 100 }))
              correct++;
          } else {
            const result = await callAsTask(client, 'charge_card', { callId, cents: n });
            if (!result.isError && (result.structuredContent as { charged?: number })?.charged === n) correct++;
          }
        }
      }),
    );
    await Promise.all(clients.map((client) => client.close()));
    const started = await ledger.hgetall(STARTED);
    const finished = await ledger.hgetall(FINISHED);
    const ranOnce = Array.from({ length: calls }, (_, n) => `c${n}`).filter((id) => started[id] === '1' && finished[id] === '1').length;
    log(`${elapsed()} step 1: ${correct}/${calls} calls correct, ${ranOnce} ran exactly once`);

    // 2. SIGKILL a worker mid-run: w1 takes the calls (w2 paused meanwhile), then dies.
    await new Promise((resolve) => (w2.child.once('message', resolve), w2.child.send('pause')));
    w1.child.send({ concurrency: KILL_QUOTES + 1 }); // all nine calls run at once on w1
    queue = createToolQueue({ connection: { host: '127.0.0.1', port: redis.port } });
    const quotes = await Promise.all(
      Array.from({ length: KILL_QUOTES }, (_, i) =>
        queue!.enqueue(QuotePrice, { callId: `k${i}`, symbol: `K${i}`, ms: 2000 }, { backoffMs: 10 }),
      ),
    );
    const charge = await queue.enqueue(ChargeCard, { callId: 'k-charge', cents: 999, ms: 2000 });
    while (Object.keys(await ledger.hgetall(STARTED)).filter((id) => id.startsWith('k')).length < KILL_QUOTES + 1) await sleep(10);
    await stop(w1.child, 'SIGKILL');
    w2.child.send('resume');
    log(`${elapsed()} step 2: SIGKILLed worker ${w1.child.pid} with ${KILL_QUOTES + 1} calls running; worker ${w2.child.pid} takes over`);
    const quoteResults = await Promise.all(quotes.map((job) => job.result({ timeoutMs: 30_000 })));
    const chargeResult = await charge.result({ timeoutMs: 30_000 });
    const kStarted = await ledger.hgetall(STARTED);
    const kFinished = await ledger.hgetall(FINISHED);
    const kill: ScaleDemoReport['kill'] = {
      idempotent: {
        total: quotes.length,
        completed: quoteResults.filter((r, i) => r.ok && (r.value as { symbol: string }).symbol === `K${i}`).length,
        startedTwice: quotes.filter((_, i) => kStarted[`k${i}`] === '2').length,
      },
      nonIdempotent: {
        status: await charge.status(),
        outcome: chargeResult.outcome,
        started: Number(kStarted['k-charge'] ?? 0),
        finished: Number(kFinished['k-charge'] ?? 0),
        message: (chargeResult.exception as Error)?.message ?? '',
      },
    };
    log(
      `${elapsed()} step 2: ${kill.idempotent.completed}/${kill.idempotent.total} idempotent calls completed; the charge is ${kill.nonIdempotent.status}, started ${kill.nonIdempotent.started}×`,
    );

    // 3. Throughput of an I/O-waiting tool (IO_WAIT_MS), one worker process then two.
    const run = async (label: string): Promise<number> => {
      const t0 = process.hrtime.bigint();
      const jobs = await Promise.all(
        Array.from({ length: throughputCalls }, (_, i) =>
          queue!.enqueue(QuotePrice, { callId: `${label}${i}`, symbol: 'T', ms: IO_WAIT_MS }),
        ),
      );
      const results = await Promise.all(jobs.map((job) => job.result({ timeoutMs: 60_000 })));
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      if (results.some((r) => !r.ok)) throw new Error(`a throughput call failed: ${results.find((r) => !r.ok)!.message}`);
      return throughputCalls / seconds;
    };
    await run('warm'); // connections and JIT warm, not measured
    const oneWorker = await run('one');
    const w3 = await spawn('worker.ts');
    const twoWorkers = await run('two');
    await Promise.all([stop(w2.child), stop(w3.child)]);
    const throughput = {
      oneWorker: Math.round(oneWorker),
      twoWorkers: Math.round(twoWorkers),
      ratio: Math.round((twoWorkers / oneWorker) * 100) / 100,
    };
    log(`${elapsed()} step 3: ${throughput.oneWorker} calls/s with one worker, ${throughput.twoWorkers} with two (${throughput.ratio}×)`);

    return { calls: { total: calls, correct, ranOnce }, kill, throughput };
  } finally {
    await queue?.close();
    await Promise.all(children.map((child) => stop(child)));
    await ledger.quit().catch(() => ledger.disconnect());
    await redis.stop();
  }
}
