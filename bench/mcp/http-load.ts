/**
 * The load of bench/mcp/http.ts and bench/mcp/revisions.ts: MCP clients calling a tool back to back
 * for a while; calls per second and latency percentiles.
 */
import { fmt } from '../lib/stats';

/** What the load needs of an MCP client (the SDK 1.x and 2.x `Client` both are one). */
export interface CallingClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<object>;
  close(): Promise<void>;
}

export const ECHO = { name: 'echo', arguments: { text: 'hello' } };

/** `clients` callers back to back for `ms` (calling `params`, `echo` unless given): calls per second and the p50 and p99 latencies in ms. */
export async function load(
  clients: CallingClient[],
  ms: number,
  params: { name: string; arguments: Record<string, unknown> } = ECHO,
): Promise<{ rate: number; p50: number; p99: number; elapsed: number }> {
  const times: number[] = [];
  const start = performance.now();
  const deadline = start + ms;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < deadline) {
        const begun = performance.now();
        const result = await client.callTool(params);
        if ((result as { isError?: boolean }).isError) throw new Error(`${params.name} failed: ${JSON.stringify(result)}`);
        times.push(performance.now() - begun);
      }
    }),
  );
  const elapsed = performance.now() - start;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(times.length * q))];
  return { elapsed, rate: (times.length / elapsed) * 1e3, p50: at(0.5), p99: at(0.99) };
}

/** A ratio as the tables show it. */
export const times = (value: number) => `${fmt(value)}×`;
