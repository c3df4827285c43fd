/**
 * createMcpHttpHandler: serveHttp's endpoint on a server the caller owns, with the body read by the
 * endpoint or handed over already parsed (as a framework's body parser leaves it).
 */
import 'reflect-metadata';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Exposes, Expects, Field, Tool } from 'toolwright';
import { createMcpHttpHandler, type McpHttpHandler } from 'toolwright/mcp';

class EchoInput {
  @Field() word!: string;
}

@Tool('mcp', { description: 'Echoes a word' })
@Expects(EchoInput)
@Exposes({ word: String })
class NodeHandlerEcho {
  call(input: EchoInput) {
    return { word: input.word };
  }
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text === '' ? undefined : JSON.parse(text);
}

describe.each([
  ['reads the body itself', false],
  ['takes a body parsed by the host', true],
])('createMcpHttpHandler %s', (_label, preParsed) => {
  let handler: McpHttpHandler;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    handler = await createMcpHttpHandler({ name: 'node-handler', version: '1.0.0', tools: [NodeHandlerEcho] }, { path: '/agents' });
    server = createServer((req, res) => {
      if (!req.url?.startsWith('/agents')) return void res.writeHead(418).end();
      if (!preParsed || req.method !== 'POST') return void handler.handle(req, res);
      void readBody(req).then((body) => handler.handle(req, res, { body }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agents`;
  });
  afterAll(async () => {
    await handler.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('serves 2026-07-28 and 2025-11-25 clients on the one path; the host keeps the others', async () => {
    expect(handler.path).toBe('/agents');
    const modern = new Client({ name: 'm', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new StreamableHTTPClientTransport(new URL(url)));
    const legacy = new LegacyClient({ name: 'l', version: '1' });
    await legacy.connect(new LegacyHttpTransport(new URL(url)));
    try {
      expect((await modern.callTool({ name: 'node_handler_echo', arguments: { word: 'hi' } })).structuredContent).toEqual({ word: 'hi' });
      expect((await legacy.callTool({ name: 'node_handler_echo', arguments: { word: 'yo' } })).structuredContent).toEqual({ word: 'yo' });
      expect(handler.sessions()).toBe(1);
      expect((await fetch(url.replace('/agents', '/teapot'))).status).toBe(418);
    } finally {
      await modern.close();
      await legacy.close();
    }
  });
});

it('createMcpHttpHandler refuses a bad path before it serves anything', async () => {
  await expect(createMcpHttpHandler({ name: 'x', version: '1', tools: [NodeHandlerEcho] }, { path: 'agents' })).rejects.toThrow(
    "createMcpHttpHandler: 'path' must start with '/', e.g. '/mcp'; got 'agents'.",
  );
});
