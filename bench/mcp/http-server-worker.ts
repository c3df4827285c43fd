/**
 * The server side of bench/mcp/http.ts, in its own process: a trivial tool (`echo { text }` → the
 * text) served over Streamable HTTP, in session or stateless mode, by toolwright's `serveHttp` or by
 * the SDK 2.x's `McpServer.registerTool` (zod input schema) behind the same hosting code (`hostHttp`,
 * the node:http server, host rules, body reading and session table `serveHttp` uses). Reports its URL,
 * then answers each IPC request with the CPU time the process has used (µs), so that the load
 * generator can charge each cell the server's own CPU (with `{ clock: true }`, and the monotonic
 * clock in µs, to cut a profile to the measured window).
 * `--cpu-prof` on this process profiles the server alone (BENCH_PROFILE=1 in http.ts).
 */
import 'reflect-metadata';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { Expects, Tool, ToolContext } from 'toolwright';
import { serveHttp } from 'toolwright/mcp';
import { hostHttp } from '../../src/adapters/mcp/hosting/serve';
import { serve } from './spawn';

const [contender, mode] = process.argv.slice(2);
const http = { port: 0, stateless: mode === 'stateless', maxSessions: 1_000_000 };

@Tool('mcp', { name: 'echo', description: 'Answers its text' })
@Expects({ text: String })
class Echo {
  // The tool takes its context, so the transport fills it in (progress, log, elicit, sample, ids).
  call(input: { text: string }, _context: ToolContext): string {
    return input.text;
  }
}

// Built once, as a server that makes an McpServer per session or per request (2026-07-28, stateless) would:
// the peer registers the same schema object each time, it does not rebuild it.
const echoInput = z.object({ text: z.string() });

function sdkServer() {
  const server = new McpServer({ name: 'http-bench', version: '1.0.0' });
  server.registerTool('echo', { description: 'Answers its text', inputSchema: echoInput }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}

serve(
  async () => {
    const handle =
      contender === 'toolwright'
        ? await serveHttp({ name: 'http-bench', version: '1.0.0', tools: [Echo] }, http)
        : await hostHttp(sdkServer, http);
    process.on('disconnect', () => void handle.close());
    return { report: handle.url };
  },
  async (_state, request: { clock?: boolean }) => {
    const { user, system } = process.cpuUsage();
    // With `clock`: also the monotonic clock in µs, the time base of a --cpu-prof profile's samples.
    return request?.clock ? [user + system, Number(process.hrtime.bigint() / 1000n)] : user + system;
  },
);
