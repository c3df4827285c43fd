/**
 * The server side of bench/mcp/sessions.ts: `serveHttp` with the limits given on the command line
 * (`maxSessions sessionIdleTimeoutMs`), in its own process started with --expose-gc, so that its heap
 * is the server's alone. Samples `heapUsed` and `rss` every 50 ms (no GC: the peaks the process really
 * reached) and answers each IPC request with a `HeapSample`: the live heap after a full GC, the peaks
 * since the previous request, and the number of open sessions.
 */
import 'reflect-metadata';
import { Exposes, Tool } from 'toolwright';
import { serveHttp } from 'toolwright/mcp';
import { serve } from './spawn';

export interface HeapSample {
  /** `heapUsed` after a full GC. */
  live: number;
  /** The highest `heapUsed` and `rss` sampled since the previous request. */
  peakHeap: number;
  peakRss: number;
  sessions: number;
}

@Tool('mcp', { description: 'Answers pong' })
@Exposes({ pong: Boolean })
class Ping {
  call() {
    return { pong: true };
  }
}

const [maxSessions, sessionIdleTimeoutMs] = process.argv.slice(2).map(Number);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

serve(
  async () => {
    const handle = await serveHttp(
      { name: 'sessions-bench', version: '1.0.0', tools: [Ping] },
      { port: 0, maxSessions, sessionIdleTimeoutMs },
    );
    const peaks = { heap: 0, rss: 0 };
    setInterval(() => {
      const { heapUsed, rss } = process.memoryUsage();
      peaks.heap = Math.max(peaks.heap, heapUsed);
      peaks.rss = Math.max(peaks.rss, rss);
    }, 50).unref();
    return { handle, peaks, report: handle.url };
  },
  async ({ handle, peaks }) => {
    const sample = { peakHeap: peaks.heap, peakRss: peaks.rss };
    gc!();
    gc!();
    const { heapUsed, rss } = process.memoryUsage();
    peaks.heap = heapUsed;
    peaks.rss = rss;
    return { live: heapUsed, ...sample, sessions: handle.sessions() } satisfies HeapSample;
  },
);
