/**
 * One worker process: runs queued calls of the scale example's tools.
 * REDIS_URL, WORKER_CONCURRENCY (default 5), LOCK_MS (default 30000). IPC 'pause', 'resume' and { concurrency }.
 */
import 'reflect-metadata';
import { startToolWorker } from 'toolwright/queue';
import { ledgerClient, SCALE_TOOLS } from './tools';

async function main(): Promise<void> {
  const worker = startToolWorker({
    connection: ledgerClient(),
    tools: SCALE_TOOLS,
    concurrency: Number(process.env.WORKER_CONCURRENCY ?? 5),
    lockDurationMs: Number(process.env.LOCK_MS ?? 30_000),
  });
  await worker.ready();
  process.send?.({ ready: process.pid });
  console.log(`worker ${process.pid} ready`);
  const stop = async () => {
    await worker.close(); // graceful: running calls finish
    ledgerClient().disconnect();
    process.exit(0);
  };
  // The demo pauses and resumes a worker to choose which one runs the calls it is about to kill.
  process.on('message', (message: string | { concurrency: number }) => {
    if (message === 'pause') void worker.bullWorker.pause().then(() => process.send?.('paused'));
    if (message === 'resume') worker.bullWorker.resume();
    if (typeof message === 'object') worker.bullWorker.concurrency = message.concurrency;
  });
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

void main();
