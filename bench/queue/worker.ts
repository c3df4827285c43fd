/** One worker process of bench/queue: `worker.ts <toolwright|bullmq> <queue name> <redis port>`. */
import 'reflect-metadata';
import { Worker } from 'bullmq';
import { startToolWorker } from 'toolwright/queue';
import { AddNumbers, CONCURRENCY, sum } from './tool';

const [contender, name, port] = process.argv.slice(2);
const connection = { host: '127.0.0.1', port: Number(port) };

async function main(): Promise<void> {
  let close: () => Promise<void>;
  if (contender === 'toolwright') {
    const worker = startToolWorker({ connection, name, tools: [AddNumbers], concurrency: CONCURRENCY });
    await worker.ready();
    close = () => worker.close();
  } else {
    const worker = new Worker(name, async (job) => sum(job.data), { connection, concurrency: CONCURRENCY });
    worker.on('error', () => undefined);
    await worker.waitUntilReady();
    close = () => worker.close();
  }
  process.send!('ready');
  process.once('SIGTERM', () => void close().then(() => process.exit(0)));
}

void main();
