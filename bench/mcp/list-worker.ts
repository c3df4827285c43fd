/**
 * One contender's tools/list with 1,000 tools in its own process: the server (toolwright: 1,000
 * generated tool classes passed to `createMcpServer`; SDK: 1,000 `registerTool` calls with zod
 * schemas) and an SDK Client over InMemoryTransport. Each request times one list, either through
 * `client.listTools()` (which also compiles and caches an ajv validator for every tool's output
 * schema, in the Client) or as the bare `tools/list` request.
 */
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { serve } from './spawn';
import { connect, range, sdkServer, toolName, toolwrightServer } from './tools';

const contender = process.argv[2];
const COUNT = 1000;

export type ListRequest = { kind: 'listTools' | 'request' };

serve(
  async () => {
    const server = contender === 'toolwright' ? toolwrightServer(range(1, COUNT)) : sdkServer(range(1, COUNT));
    const client = await connect(server);
    const { tools } = await client.listTools(); // also the warm-up
    const names = tools.map((tool) => tool.name).sort();
    const expected = range(1, COUNT).map(toolName).sort();
    if (names.join() !== expected.join()) throw new Error(`${contender}: listed ${names.length} tools, not the ${COUNT} expected`);
    if (!tools.every((tool) => tool.outputSchema && tool.inputSchema.properties?.address))
      throw new Error(`${contender}: incomplete tool entries`);
    await client.request({ method: 'tools/list' }, ListToolsResultSchema);
    return { client };
  },
  async ({ client }, request: ListRequest) => {
    const start = process.hrtime.bigint();
    const result =
      request.kind === 'listTools' ? await client.listTools() : await client.request({ method: 'tools/list' }, ListToolsResultSchema);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.tools.length !== COUNT) throw new Error(`${contender}: listed ${result.tools.length} tools`);
    return ms;
  },
);
