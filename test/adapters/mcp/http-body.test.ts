import 'reflect-metadata';
import { request } from 'node:http';
import { connect as connectSocket, Socket } from 'node:net';
import { Exposes, Tool } from 'toolwright';
import { McpHttpHandle, serveHttp } from 'toolwright/mcp';
import { rawInitialize } from '../../helpers/mcp';

@Tool('mcp', { description: 'Answers pong' })
@Exposes({ pong: Boolean })
class Ping {
  call() {
    return { pong: true };
  }
}

const options = { name: 'body-test', version: '1.0.0', tools: [Ping] };
const LIMIT = 64 * 1024;
const initialize = JSON.stringify(rawInitialize());

/** A raw connection: what the server sent, and a promise of the server closing it. */
function rawConnection(url: string): { socket: Socket; received: () => string; closed: Promise<string> } {
  const { port } = new URL(url);
  const socket = connectSocket(Number(port), '127.0.0.1');
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString()));
  socket.on('error', () => {});
  return { socket, received: () => text, closed: new Promise((resolve) => socket.on('close', () => resolve(text))) };
}

const head = (length: number, extra = '') =>
  `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${extra}Content-Length: ${length}\r\n\r\n`;

const jsonBody = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

const until = async (condition: () => boolean, what: string) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
};

describe('request bodies', () => {
  let handle: McpHttpHandle;
  let logged: jest.SpyInstance;
  const lines = () => logged.mock.calls.map((call) => call.map(String).join(' '));
  beforeEach(async () => {
    logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    handle = await serveHttp(options, { port: 0, maxBodyBytes: LIMIT, requestTimeoutMs: 300 });
  });
  afterEach(async () => {
    await handle.close();
    logged.mockRestore();
  });

  it('answers a stalled upload (headers and half the body, then nothing) with 408 and closes the connection', async () => {
    const { socket, closed } = rawConnection(handle.url);
    socket.write(head(1000) + '{"jsonrpc":"2.0",' + ' '.repeat(480));
    const response = await closed; // the server closes it; the test's own timeout would fail otherwise
    expect(response).toMatch(/^HTTP\/1\.1 408 /);
    expect(response.toLowerCase()).toContain('connection: close');
    expect(jsonBody(response)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Request Timeout: the request body did not arrive within 300 ms (requestTimeoutMs).' },
    });
    expect(lines()).toEqual(['toolwright/mcp: request body timed out after 300 ms (requestTimeoutMs) with 497 bytes received; the connection was closed.']);
  });

  it('closes a connection whose headers never finish', async () => {
    const { socket, closed } = rawConnection(handle.url);
    socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl');
    expect(await closed).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('logs an upload the client aborts mid-body as one line, no stack, and keeps serving', async () => {
    const { socket } = rawConnection(handle.url);
    socket.write(head(1000) + 'x'.repeat(400));
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await until(() => logged.mock.calls.length > 0, 'the abort to be logged');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines()).toEqual(['toolwright/mcp: request body aborted by the client after 400 bytes.']);

    const next = rawConnection(handle.url);
    next.socket.write(head(Buffer.byteLength(initialize)) + initialize);
    await until(() => next.received().includes('\r\n'), 'an answer');
    expect(next.received()).toMatch(/^HTTP\/1\.1 200 /);
    next.socket.destroy();
  });

  it('answers a declared Content-Length over maxBodyBytes with 413 and code -32600 without reading the body', async () => {
    const { socket, closed } = rawConnection(handle.url);
    socket.write(head(LIMIT + 1)); // no body sent at all: the answer cannot depend on reading it
    const response = await closed;
    expect(response).toMatch(/^HTTP\/1\.1 413 /);
    expect(jsonBody(response)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: `Payload Too Large: the request body is over this server's limit of ${LIMIT} bytes (maxBodyBytes).` },
    });
    expect(lines()).toEqual([`toolwright/mcp: refused a request body over ${LIMIT} bytes (maxBodyBytes) with 413.`]);
  });

  it('answers a chunked body with 413 as soon as it passes maxBodyBytes, before the upload ends', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        handle.url,
        { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'transfer-encoding': 'chunked' } },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('x'.repeat(LIMIT));
      req.write('x'.repeat(1024)); // past the limit, and the request is never ended
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error).toEqual({ code: -32600, message: expect.stringContaining(`${LIMIT} bytes (maxBodyBytes)`) });
  });

  it('accepts a body of exactly maxBodyBytes', async () => {
    const padded = initialize + ' '.repeat(LIMIT - Buffer.byteLength(initialize));
    const { socket, received } = rawConnection(handle.url);
    socket.write(head(LIMIT) + padded);
    await until(() => received().includes('\r\n'), 'an answer');
    expect(received()).toMatch(/^HTTP\/1\.1 200 /);
    socket.destroy();
  });

  it('answers a body that is not JSON with 400 and -32700', async () => {
    const { socket, closed } = rawConnection(handle.url);
    socket.write(head(9, 'Connection: close\r\n') + '{"jsonrpc');
    const response = await closed;
    expect(response).toMatch(/^HTTP\/1\.1 400 /);
    expect(jsonBody(response).error).toEqual({ code: -32700, message: 'Parse error: the request body is not valid JSON.' });
  });
});

describe('requestTimeoutMs and long responses', () => {
  it('bounds the request only: an open event stream and a session used across the limit keep working', async () => {
    const handle = await serveHttp(options, { port: 0, requestTimeoutMs: 150 });
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const client = new Client({ name: 'slow', version: '1.0.0' });
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect((await client.callTool({ name: 'ping', arguments: {} })).structuredContent).toEqual({ pong: true });
      expect(errors).toEqual([]);
      expect(handle.sessions()).toBe(1);
    } finally {
      await client.close();
      await handle.close();
    }
  });
});
