/**
 * serveHttp's `otherRequests`: requests for paths other than the MCP endpoint go to the application's
 * handler (the loan desk mounts its HTTP API there), after the Host/Origin rules and without the MCP
 * endpoint's bearer check; without it they get 404. Over real HTTP on 127.0.0.1.
 */
import 'reflect-metadata';
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Exposes, Tool } from 'toolwright';
import { InvalidTokenError, McpHttpHandle, serveHttp } from 'toolwright/mcp';

@Tool('mcp', { description: 'Answers pong' })
@Exposes({ pong: Boolean })
class Ping {
  call() {
    return { pong: true };
  }
}

const options = { name: 'other-requests-test', version: '1.0.0', tools: [Ping] };

/** GETs a URL with these headers (Host included, which fetch will not set); resolves status and body. */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('serveHttp otherRequests', () => {
  const seen: string[] = [];
  const other = (req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`app: ${req.url}`);
  };
  let withHandler: McpHttpHandle;
  let withAuth: McpHttpHandle;
  let without: McpHttpHandle;
  beforeAll(async () => {
    withHandler = await serveHttp(options, { port: 0, otherRequests: other });
    const verifyAccessToken = async (token: string) => {
      if (token !== 'good') throw new InvalidTokenError('unknown token');
      return { token, clientId: 'c', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 };
    };
    withAuth = await serveHttp(options, { port: 0, otherRequests: other, auth: { verifyAccessToken } });
    without = await serveHttp(options, { port: 0 });
  });
  afterAll(() => Promise.all([withHandler, withAuth, without].map((handle) => handle?.close())));

  it('answers other paths with the handler, and MCP still at its path', async () => {
    const origin = new URL(withHandler.url).origin;
    expect(await get(`${origin}/api/quote?x=1`)).toEqual({ status: 200, body: 'app: /api/quote?x=1' });
    expect(seen).toContain('GET /api/quote?x=1');
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(withHandler.url)));
    expect((await client.callTool({ name: 'ping', arguments: {} })).structuredContent).toEqual({ pong: true });
    await client.close();
    expect(seen.filter((line) => line.includes('/mcp'))).toEqual([]);
  });

  it('keeps the Host rules in front of the handler: a DNS-rebinding Host never reaches it', async () => {
    const before = seen.length;
    const origin = new URL(withHandler.url).origin;
    const refused = await get(`${origin}/api/quote`, { host: 'attacker.example' });
    expect(refused.status).toBe(403);
    expect(seen.length).toBe(before);
  });

  it('leaves authentication of other paths to the handler: the MCP bearer check guards only the MCP path', async () => {
    const origin = new URL(withAuth.url).origin;
    expect(await get(`${origin}/health`)).toEqual({ status: 200, body: 'app: /health' });
    expect((await get(withAuth.url, { accept: 'text/event-stream' })).status).toBe(401);
  });

  it('answers 404 for other paths without a handler', async () => {
    expect((await get(`${new URL(without.url).origin}/api/quote`)).status).toBe(404);
  });
});
