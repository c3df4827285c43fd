import 'reflect-metadata';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AmbientContext, Exposes, Expects, Tool } from 'toolwright';
import { McpHttpHandle, serveHttp } from 'toolwright/mcp';

class WhoAmIInput {
  @AmbientContext() user!: string;
}

@Tool('mcp', { description: 'Who is calling' })
@Expects(WhoAmIInput)
@Exposes({ user: String, session: { type: String, optional: true } })
class WhoAmI {
  call(input: WhoAmIInput) {
    return { user: input.user };
  }
}

const options = {
  name: 'http-test',
  version: '1.0.0',
  tools: [WhoAmI],
  ambientContext: (req: { headers?: Record<string, string | string[] | undefined> }) => ({ user: String(req.headers?.['x-user'] ?? 'anonymous') }),
};

async function connect(url: string, user?: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), user ? { requestInit: { headers: { 'x-user': user } } } : undefined);
  const client = new Client({ name: 'http-client', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

function rawPost(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
  });
}

describe('Streamable HTTP on 127.0.0.1, session mode', () => {
  let handle: McpHttpHandle;
  beforeAll(async () => {
    handle = await serveHttp(options, { port: 0 });
  });
  afterAll(() => handle.close());

  it('binds to 127.0.0.1 on a free port', () => {
    expect(handle.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(handle.url).not.toContain(':0/');
  });

  it('serves tools/list and tools/call, with ambient values from each request’s headers', async () => {
    const ada = await connect(handle.url, 'ada');
    const grace = await connect(handle.url, 'grace');
    try {
      expect((await ada.client.listTools()).tools.map((t) => t.name)).toEqual(['who_am_i']);
      const [a, g] = await Promise.all([ada.client.callTool({ name: 'who_am_i', arguments: {} }), grace.client.callTool({ name: 'who_am_i', arguments: {} })]);
      expect(a.structuredContent).toEqual({ user: 'ada' });
      expect(g.structuredContent).toEqual({ user: 'grace' });
      expect(handle.sessions()).toBe(2);
      expect(ada.transport.sessionId).not.toEqual(grace.transport.sessionId);
    } finally {
      await ada.transport.terminateSession();
      await ada.client.close();
      await grace.transport.terminateSession();
      await grace.client.close();
    }
    expect(handle.sessions()).toBe(0);
  });

  it('a model that sends the ambient value is refused', async () => {
    const { client, transport } = await connect(handle.url, 'ada');
    try {
      const result = await client.callTool({ name: 'who_am_i', arguments: { user: 'root' } });
      expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'unknown input: user' }], _meta: { fieldErrors: [{ field: 'user', message: 'unknown input: user' }] } });
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it('refuses requests without a session, with an unknown session, or addressed to another host', async () => {
    expect(await rawPost(handle.url, {})).toBe(400);
    expect(await rawPost(handle.url, { 'mcp-session-id': 'no-such-session' })).toBe(404);
    const port = new URL(handle.url).port;
    expect(await rawPost(handle.url, { host: `evil.example:${port}` })).toBe(403);
    expect(await rawPost(handle.url, { origin: 'http://evil.example' })).toBe(403);
    expect(await rawPost(handle.url.replace('/mcp', '/other'), {})).toBe(404);
  });
});

describe('Streamable HTTP, stateless mode', () => {
  it('answers each request with a fresh server and keeps no sessions', async () => {
    const handle = await serveHttp(options, { port: 0, stateless: true });
    try {
      const { client } = await connect(handle.url, 'lin');
      expect((await client.callTool({ name: 'who_am_i', arguments: {} })).structuredContent).toEqual({ user: 'lin' });
      expect(handle.sessions()).toBe(0);
      await client.close();
    } finally {
      await handle.close();
    }
  });
});

describe('close()', () => {
  it('stops listening', async () => {
    const handle = await serveHttp(options, { port: 0 });
    await handle.close();
    await expect(rawPost(handle.url, {})).rejects.toThrow(/ECONNREFUSED/);
  });
});
