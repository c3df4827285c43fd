/**
 * The server side of bench/nest/run.ts, in its own process: the loan desk's `check_credit`
 * (applicant in, `{ score, band }` out, both with a schema) served over Streamable HTTP by
 * - `mcp-nest`: MCP-Nest (@rekog/mcp-nest 2.x, zod input and output schemas) in a Nest app on the
 *   Fastify platform (`McpStrategy` with its `StreamableHttpTransport`: 2.x replaced
 *   `McpModule.forRoot` by a microservice strategy on the app's own HTTP adapter);
 * - `toolwright`: toolwright's standalone `serveHttp`;
 * - `toolwright-nest`: `ToolwrightModule` (toolwright/nest) in a Nest 12 app on the Fastify platform.
 * Stateless or session mode by the second argument. Reports its URL, then answers each IPC request
 * with the CPU time the process has used (µs), as bench/mcp/http-server-worker.ts does.
 */
import 'reflect-metadata';
import { serve } from '../mcp/spawn';
import { CONTENDER_SERVERS } from './servers';

const [contender, mode] = process.argv.slice(2);

serve(
  async () => {
    const start = CONTENDER_SERVERS[contender];
    if (!start) throw new Error(`unknown contender ${contender}; one of ${Object.keys(CONTENDER_SERVERS).join(', ')}`);
    const handle = await start(mode === 'stateless');
    process.on('disconnect', () => void handle.close());
    return { report: handle.url };
  },
  async () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  },
);
