import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer, McpServerOptions } from 'toolwright/mcp';

/** A real SDK Client connected to a toolwright MCP server over InMemoryTransport. */
export async function connectInMemory(options: McpServerOptions): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = createMcpServer(options);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'toolwright-test', version: '1.0.0' });
  await client.connect(clientTransport);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
