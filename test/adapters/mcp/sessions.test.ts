import 'reflect-metadata';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { Exposes, Tool } from 'toolwright';
import { HttpServeOptions, McpHttpHandle, serveHttp } from 'toolwright/mcp';
import { rawInitialize } from '../../helpers/mcp';

@Tool('mcp', { description: 'Answers pong' })
@Exposes({ pong: Boolean })
class Ping {
  call() {
    return { pong: true };
  }
}

const options = { name: 'sessions-test', version: '1.0.0', tools: [Ping] };

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: 'sessions-client', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function post(url: string, message: object, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(message));
  });
}

const initialize = rawInitialize(7);

const until = async (condition: () => boolean, what: string) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
};

describe('maxSessions', () => {
  let handle: McpHttpHandle;
  let logged: jest.SpyInstance;
  beforeEach(async () => {
    logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    handle = await serveHttp(options, { port: 0, maxSessions: 3 });
  });
  afterEach(async () => {
    await handle.close();
    logged.mockRestore();
  });

  it('answers the 4th initialize with 503, Retry-After and a JSON-RPC error naming the limit; existing sessions keep working', async () => {
    const clients = [await connect(handle.url), await connect(handle.url), await connect(handle.url)];
    expect(handle.sessions()).toBe(3);

    const refused = await post(handle.url, initialize);
    expect(refused.status).toBe(503);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32000, message: expect.stringContaining('limit of 3 open sessions (maxSessions)') },
    });
    await expect(connect(handle.url)).rejects.toThrow(/503|maxSessions/);
    expect(handle.sessions()).toBe(3);
    expect(logged.mock.calls.filter(([line]) => String(line).includes('(maxSessions)'))).toHaveLength(1); // at most one line a minute, not one per refusal

    for (const { client } of clients) expect((await client.callTool({ name: 'ping', arguments: {} })).structuredContent).toEqual({ pong: true });

    // Ending one session (DELETE) makes room for a new one.
    await clients[0].transport.terminateSession();
    expect(handle.sessions()).toBe(2);
    const fourth = await connect(handle.url);
    expect(handle.sessions()).toBe(3);
    for (const { client } of [...clients, fourth]) await client.close();
  });

  it('counts initialize requests still in progress, so a burst cannot overshoot the limit', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(handle.url, initialize)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3);
    expect(answers.filter((answer) => answer.status === 503)).toHaveLength(5);
    expect(handle.sessions()).toBe(3);
  });
});

describe('sessionIdleTimeoutMs', () => {
  const rawSession = async (url: string) => {
    const answer = await post(url, initialize);
    expect(answer.status).toBe(200);
    const id = String(answer.headers['mcp-session-id']);
    const headers = { 'mcp-session-id': id, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
    return { id, list: () => post(url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers) };
  };

  it('closes the session of a client that went away without DELETE: the count drops to 0 and its id then gets 404', async () => {
    const handle = await serveHttp(options, { port: 0, sessionIdleTimeoutMs: 150 });
    try {
      const { client, transport } = await connect(handle.url);
      const id = transport.sessionId!;
      expect(handle.sessions()).toBe(1);
      await client.close(); // the SDK Client's close() sends no DELETE
      await until(() => handle.sessions() === 0, 'the idle session to close');
      const stale = await post(handle.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-session-id': id, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION });
      expect(stale.status).toBe(404);
      expect(JSON.parse(stale.body).error.code).toBe(-32001);
    } finally {
      await handle.close();
    }
  });

  it('counts each request as activity: a session used more often than the timeout stays open, then idles out', async () => {
    const handle = await serveHttp(options, { port: 0, sessionIdleTimeoutMs: 300 });
    try {
      const session = await rawSession(handle.url);
      for (let i = 0; i < 8; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect((await session.list()).status).toBe(200);
      }
      expect(handle.sessions()).toBe(1);
      await until(() => handle.sessions() === 0, 'the session to idle out');
      expect((await session.list()).status).toBe(404);
    } finally {
      await handle.close();
    }
  });

  it('counts an open GET event stream as activity (the SDK Client keeps one), and starts the idle clock when it closes', async () => {
    const handle = await serveHttp(options, { port: 0, sessionIdleTimeoutMs: 150 });
    try {
      const { client } = await connect(handle.url);
      await new Promise((resolve) => setTimeout(resolve, 600)); // four idle timeouts, with the client's stream open
      expect(handle.sessions()).toBe(1);
      expect((await client.callTool({ name: 'ping', arguments: {} })).structuredContent).toEqual({ pong: true });
      await client.close();
      await until(() => handle.sessions() === 0, 'the session to idle out after its stream closed');
    } finally {
      await handle.close();
    }
  });
});

describe('closing', () => {
  it('handle.close() ends every session and its timers, and a closed server keeps no session', async () => {
    const handle = await serveHttp(options, { port: 0, sessionIdleTimeoutMs: 60 * 60 * 1000 });
    const a = await connect(handle.url);
    const b = await connect(handle.url);
    expect(handle.sessions()).toBe(2);
    await handle.close();
    expect(handle.sessions()).toBe(0);
    await a.client.close();
    await b.client.close();
  });
});

describe('limit options', () => {
  it.each<[keyof HttpServeOptions, unknown]>([
    ['maxSessions', 0],
    ['maxSessions', 2.5],
    ['maxSessions', '10'],
    ['sessionIdleTimeoutMs', -1],
    ['sessionIdleTimeoutMs', Infinity],
    ['requestTimeoutMs', 0],
    ['maxBodyBytes', NaN],
  ])('refuses %s: %p with a TypeError naming the option', async (option, value) => {
    await expect(serveHttp(options, { port: 0, [option]: value } as HttpServeOptions)).rejects.toThrow(
      new RegExp(`^serveHttp: '${option}' must be a positive whole number; got .+\\. Leave it out for the default`),
    );
  });

  it.each<[string, HttpServeOptions]>([
    ["'port' must be a whole number", { port: -1 }],
    ["'path' must start with '/'", { path: 'mcp' }],
    ["'stateless' must be true or false", { stateless: 'yes' as unknown as boolean }],
    ["'host' must be a host name", { host: '' }],
  ])('refuses bad base options: %s', async (message, http) => {
    await expect(serveHttp(options, http)).rejects.toThrow(message);
  });
});
