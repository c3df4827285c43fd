/**
 * tools/call requests that are malformed at the protocol level: one-line -32602 errors, never a
 * schema dump, and never "MCP error -32602: MCP error -32602: …".
 */
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, type CallToolRequest } from '@modelcontextprotocol/sdk/types.js';
import { Expects, Tool } from 'toolwright';
import { createMcpServer } from 'toolwright/mcp';

const ran: unknown[] = [];

@Tool('mcp', { name: 'echo' })
@Expects({ text: { type: String, optional: true } })
class Echo {
  call(input: { text?: string }) {
    ran.push(input);
    return input.text ?? 'nothing';
  }
}

describe('tools/call protocol edges', () => {
  let client: Client;
  beforeAll(async () => {
    const server = createMcpServer({ name: 'edges', version: '1.0.0', tools: [Echo] });
    const [a, b] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'c', version: '1' });
    await Promise.all([server.connect(a), client.connect(b)]);
  });
  afterAll(() => client.close());
  beforeEach(() => void (ran.length = 0));

  const call = (params: unknown) =>
    client.request({ method: 'tools/call', params } as CallToolRequest, CallToolResultSchema).catch((error: Error & { code?: number }) => ({
      code: error.code,
      message: error.message,
    }));

  it.each([
    [5, 'a number'],
    ['text', 'a string'],
    [[], 'an array'],
    [[{ text: 'x' }], 'an array'],
    [null, 'null'],
  ])('answers arguments %j with -32602 in one line', async (args, kind) => {
    expect(await call({ name: 'echo', arguments: args })).toEqual({
      code: -32602,
      message: `MCP error -32602: Invalid tools/call request: arguments must be an object of named arguments, not ${kind}.`,
    });
    expect(ran).toEqual([]);
  });

  it('answers a missing or non-string name with -32602 in one line', async () => {
    for (const params of [{}, { name: 5 }, undefined]) {
      expect(await call(params)).toEqual({ code: -32602, message: "MCP error -32602: Invalid tools/call request: params.name must be the tool's name (a string)." });
    }
  });

  it('says "Unknown tool" once', async () => {
    expect(await call({ name: 'nope', arguments: {} })).toEqual({ code: -32602, message: 'MCP error -32602: Unknown tool: nope' });
  });

  it('still serves well-formed calls, with or without arguments, and other methods answer as before', async () => {
    expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toMatchObject({ content: [{ type: 'text', text: 'hi' }] });
    expect(await call({ name: 'echo' })).toMatchObject({ content: [{ type: 'text', text: 'nothing' }] });
    await expect(client.request({ method: 'prompts/list' } as never, CallToolResultSchema)).rejects.toMatchObject({ code: -32601 });
  });
});
