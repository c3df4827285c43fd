import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer, McpServerOptions } from 'toolwright/mcp';

/** An initialize request as a raw client sends it, for tests that speak HTTP without an SDK Client. */
export function rawInitialize(id = 1): { jsonrpc: '2.0'; id: number; method: 'initialize'; params: object } {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
  };
}

/**
 * A real 1.x SDK Client (what most hosts run, MCP 2025-11-25) connected to a toolwright MCP server
 * (SDK 2.x) over the 1.x InMemoryTransport: both SDKs speak the same Transport interface.
 */
export async function connectInMemory(options: McpServerOptions): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = createMcpServer(options);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport as unknown as Parameters<typeof server.connect>[0]);
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

/** One SSE event as the raw-HTTP tests read it. */
export interface SseEvent {
  id?: string;
  data?: unknown;
}

/** Moves the complete SSE events at the front of `buffer` into `events`; returns what is left. */
export function takeSseEvents(buffer: string, events: SseEvent[]): string {
  let end: number;
  while ((end = buffer.indexOf('\n\n')) >= 0) {
    const block = buffer.slice(0, end);
    buffer = buffer.slice(end + 2);
    const event: SseEvent = {};
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) event.id = line.slice(4);
      if (line.startsWith('data: ') && line.length > 6) event.data = JSON.parse(line.slice(6));
    }
    events.push(event);
  }
  return buffer;
}

/** The headers of a raw MCP 2026-07-28 POST: content type, accept, and the standard headers the revision requires (SEP-2243). */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name !== undefined ? { 'mcp-name': name } : {}),
  };
}
