import 'reflect-metadata';
import { request } from 'node:http';
import { connect as connectSocket } from 'node:net';
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

const options = { name: 'hosts-test', version: '1.0.0', tools: [Ping] };
const initialize = JSON.stringify(rawInitialize());

/** POSTs an initialize request with these headers; resolves the status and the JSON-RPC error message, if any. */
function initializeWith(url: string, headers: Record<string, string>): Promise<{ status: number; message?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          resolve(status === 403 ? { status, message: JSON.parse(body).error.message } : { status });
        });
      },
    );
    req.on('error', reject);
    req.end(initialize);
  });
}

describe('a server bound to 127.0.0.1 (no host options)', () => {
  let handle: McpHttpHandle;
  let port: string;
  beforeAll(async () => {
    handle = await serveHttp(options, { port: 0 });
    port = new URL(handle.url).port;
  });
  afterAll(() => handle.close());

  it.each([
    ['localhost:PORT'],
    ['LOCALHOST:PORT'],
    ['LocalHost'],
    ['127.0.0.1:PORT'],
    ['127.0.0.1'],
    ['127.1.2.3:PORT'],
    ['[::1]:PORT'],
    ['localhost:1234'], // any port: port forwarding and proxies change it, a rebinding page cannot change the name
  ])('answers Host %s', async (host) => {
    expect((await initializeWith(handle.url, { host: host.replace('PORT', port) })).status).toBe(200);
  });

  it.each([
    ['evil.com:PORT'],
    ['evil.com'],
    ['127.0.0.1.evil.com:PORT'],
    ['localhost.evil.com:PORT'],
    ['127.0.0.1.nip.io:PORT'],
    ['evil.com@127.0.0.1:PORT'],
    ['127.0.0.1:PORT/evil.com'],
    ['127.0.0.1:PORT evil.com'],
    ['[::2]:PORT'],
    ['0.0.0.0:PORT'],
    ['10.0.0.1:PORT'],
  ])('refuses Host %s with 403 (DNS rebinding)', async (host) => {
    const answer = await initializeWith(handle.url, { host: host.replace('PORT', port) });
    expect(answer).toEqual({ status: 403, message: expect.stringMatching(/^Forbidden: Host '.*' is refused: .*allowedHosts/) });
  });

  it('refuses a request without a Host header', async () => {
    const socket = connectSocket(Number(port), '127.0.0.1');
    const response = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.write(`POST /mcp HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: ${initialize.length}\r\n\r\n${initialize}`);
    });
    expect(response).toMatch(/^HTTP\/1\.1 403/);
    expect(response).toContain('Forbidden: the request has no Host header.');
  });

  it.each([['http://localhost:5173'], ['HTTP://LOCALHOST:5173'], ['https://127.0.0.1'], ['http://[::1]:8080']])('answers Origin %s', async (origin) => {
    expect((await initializeWith(handle.url, { origin })).status).toBe(200);
  });

  it.each([['http://evil.com'], ['http://127.0.0.1.evil.com'], ['http://localhost.evil.com:5173'], ['null'], ['file://'], ['not a url']])(
    'refuses Origin %s with 403',
    async (origin) => {
      const answer = await initializeWith(handle.url, { origin });
      expect(answer).toEqual({ status: 403, message: expect.stringMatching(/^Forbidden: Origin '.*' is refused: .*allowedOrigins/) });
    },
  );
});

describe('allowedHosts and allowedOrigins (a proxied deployment)', () => {
  const serve = async (http: HttpServeOptions) => serveHttp(options, { port: 0, ...http });

  it('with allowedHosts, answers only those names, on loopback too; an entry with a port allows that port only', async () => {
    const handle = await serve({ allowedHosts: ['mcp.example.com', 'Admin.Example.com:8443', '::1'] });
    try {
      const status = async (host: string) => (await initializeWith(handle.url, { host })).status;
      expect(await status('mcp.example.com')).toBe(200);
      expect(await status('MCP.EXAMPLE.COM:9000')).toBe(200);
      expect(await status('admin.example.com:8443')).toBe(200);
      expect(await status('[::1]:3000')).toBe(200);
      expect(await status('admin.example.com:9000')).toBe(403);
      expect(await status('admin.example.com')).toBe(403);
      expect(await status('localhost')).toBe(403); // the list replaces the loopback rule
      expect(await status('evil.com')).toBe(403);
      expect(await status('mcp.example.com.evil.com')).toBe(403);
      const refused = await initializeWith(handle.url, { host: 'evil.com' });
      expect(refused.message).toBe("Forbidden: Host 'evil.com' is refused: it is not in the server’s allowedHosts.");
    } finally {
      await handle.close();
    }
  });

  it('with allowedHosts only, a browser Origin must be one of those hosts', async () => {
    const handle = await serve({ allowedHosts: ['mcp.example.com'] });
    try {
      const status = async (origin: string) => (await initializeWith(handle.url, { host: 'mcp.example.com', origin })).status;
      expect(await status('https://mcp.example.com')).toBe(200);
      expect(await status('https://evil.com')).toBe(403);
      expect(await status('http://localhost:5173')).toBe(403);
    } finally {
      await handle.close();
    }
  });

  it('with allowedOrigins, a request with an Origin must come from one of them (compared as origins); one without passes', async () => {
    const handle = await serve({ allowedHosts: ['mcp.example.com'], allowedOrigins: ['https://app.example.com'] });
    try {
      const status = async (origin?: string) => (await initializeWith(handle.url, { host: 'mcp.example.com', ...(origin ? { origin } : {}) })).status;
      expect(await status()).toBe(200);
      expect(await status('https://app.example.com')).toBe(200);
      expect(await status('HTTPS://APP.EXAMPLE.COM:443')).toBe(200);
      expect(await status('http://app.example.com')).toBe(403);
      expect(await status('https://app.example.com:8443')).toBe(403);
      expect(await status('https://app.example.com.evil.com')).toBe(403);
      expect(await status('https://mcp.example.com')).toBe(403); // allowedOrigins is the whole list
      expect(await status('null')).toBe(403);
    } finally {
      await handle.close();
    }
  });

  it('with allowedOrigins only, on loopback, the Host rule stays the loopback one', async () => {
    const handle = await serve({ allowedOrigins: ['https://app.example.com'] });
    try {
      expect((await initializeWith(handle.url, { origin: 'https://app.example.com' })).status).toBe(200);
      expect((await initializeWith(handle.url, { origin: 'http://localhost:5173' })).status).toBe(403);
      expect((await initializeWith(handle.url, { host: 'evil.com', origin: 'https://app.example.com' })).status).toBe(403);
    } finally {
      await handle.close();
    }
  });

  it.each<[HttpServeOptions, RegExp]>([
    [{ allowedHosts: 'mcp.example.com' as unknown as string[] }, /^serveHttp: 'allowedHosts' must be a list of non-empty strings; got 'mcp.example.com'/],
    [{ allowedHosts: [''] }, /'allowedHosts' must be a list of non-empty strings/],
    [{ allowedHosts: ['https://mcp.example.com'] }, /allowedHosts entry 'https:\/\/mcp.example.com' is not a host name/],
    [{ allowedOrigins: ['app.example.com'] }, /allowedOrigins entry 'app.example.com' is not an http\(s\) origin, e.g. 'https:\/\/app.example.com'/],
    [{ allowedOrigins: [42 as unknown as string] }, /'allowedOrigins' must be a list of non-empty strings/],
  ])('refuses bad host options: %p', async (http, message) => {
    await expect(serve(http)).rejects.toThrow(message);
  });
});
