/**
 * One contender's tools/call path in its own process: a one-tool server (toolwright
 * `createMcpServer` or SDK `McpServer.registerTool`) and an SDK Client over InMemoryTransport. Checks
 * that the contender does the same work as the other (same coerced and defaulted input, same
 * structured output, the invalid payload refused), warms up, then answers measurement requests:
 * `throughput` (µs per call over back-to-back sequential calls) and `latency` (each call timed alone).
 */
import { isDeepStrictEqual } from 'node:util';
import type { Client } from '@modelcontextprotocol/client';
import { median, sampleAsync } from '../lib/stats';
import { serve } from './spawn';
import { connect, EXPECTED_OUTPUT, INVALID_ARGS, lastInput, sdkServer, toolName, toolwrightServer, VALID_ARGS } from './tools';

const contender = process.argv[2];
const params = { name: toolName(0), arguments: VALID_ARGS };

export type CallRequest = { kind: 'throughput'; minMs: number } | { kind: 'latency'; calls: number };

async function check(client: Client): Promise<void> {
  const result = await client.callTool(params);
  if (result.isError || !isDeepStrictEqual(result.structuredContent, EXPECTED_OUTPUT)) {
    throw new Error(`${contender}: unexpected result ${JSON.stringify(result)}`);
  }
  const text = (result.content as Array<{ type: string; text?: string }>)[0];
  if (text?.type !== 'text' || text.text !== JSON.stringify(EXPECTED_OUTPUT))
    throw new Error(`${contender}: unexpected text block ${JSON.stringify(text)}`);
  const input = { ...lastInput.value, address: { ...(lastInput.value?.address as object) } };
  const expected = { ...VALID_ARGS, quantity: 42, notify: true };
  if (!isDeepStrictEqual(input, expected)) throw new Error(`${contender}: the tool received ${JSON.stringify(lastInput.value)}`);
  const refused = await client.callTool({ name: toolName(0), arguments: INVALID_ARGS });
  if (!refused.isError) throw new Error(`${contender} accepts the invalid payload`);
}

serve(
  async () => {
    const client = await connect(contender === 'toolwright' ? toolwrightServer([0]) : sdkServer([0]));
    // The Client compiles and caches the tool's output-schema validator when it lists the tools.
    if ((await client.listTools()).tools.length !== 1) throw new Error('expected one tool');
    await check(client);
    // Warm-up: enough calls for the JIT to settle.
    await sampleAsync(() => client.callTool(params), { samples: 1, minMs: 1500 });
    return { client };
  },
  async ({ client }, request: CallRequest) => {
    if (request.kind === 'throughput') {
      const [perCall] = await sampleAsync(() => client.callTool(params), { samples: 1, minMs: request.minMs });
      return perCall;
    }
    const times: number[] = [];
    for (let i = 0; i < request.calls; i++) {
      const start = process.hrtime.bigint();
      await client.callTool(params);
      times.push(Number(process.hrtime.bigint() - start) / 1e3);
    }
    const sorted = times.sort((a, b) => a - b);
    return { median: median(sorted), p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] };
  },
);
