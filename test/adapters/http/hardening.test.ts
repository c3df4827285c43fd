/**
 * The HTTP adapter against an attacker's probe (issue 23), over real HTTP on 127.0.0.1: request and
 * body time limits (a trickled body is answered 408 and closed), what each caller sees in auth mode
 * (the OpenAPI document and docs page per caller; a hidden route answers like an unknown one), the
 * transport name calls are audited with, and 429 / 503 with Retry-After for limited calls.
 */
import 'reflect-metadata';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { fastify as createFastify } from 'fastify';
import { audit, AuditRecord, concurrencyLimit, Expects, Exposes, rateLimit, SemanticHints, Tool } from 'toolwright';
import { HttpApiHandle, HttpApiOptions, httpApiDocument, serveHttpApi, toolwrightHttp } from 'toolwright/http';

@Tool('http', { name: 'read_note', description: 'Reads a note' })
@SemanticHints('readOnly')
@Expects({ id: String })
@Exposes({ text: String })
class ReadNote {
  call({ id }: { id: string }) {
    return { text: `note ${id}` };
  }
}

@Tool('http', { name: 'write_note', description: 'Writes a note' })
@Expects({ id: String, text: String })
@Exposes({ saved: Boolean })
class WriteNote {
  static runs = 0;
  call() {
    WriteNote.runs++;
    return { saved: true };
  }
}

let release: () => void = () => undefined;
let started: () => void = () => undefined;
@Tool('http', { name: 'slow_note' })
@Exposes({ done: Boolean })
class SlowNote {
  async call() {
    started();
    await new Promise<void>((resolve) => (release = resolve));
    return { done: true };
  }
}

/** Sends `head` on a raw socket, then `trickle` one byte at a time every `everyMs`; resolves with all it got once the server closes. */
function rawExchange(port: number, head: string, trickle = '', everyMs = 100): Promise<{ text: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (sent < trickle.length && socket.writable) socket.write(trickle[sent++]);
      }, everyMs);
    });
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, sent });
    });
  });
}

const BODY = '{"id":"n1","text":"a long note that arrives one byte at a time"}';
const postHead = (path: string, length = BODY.length) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('request and body time limits', () => {
  let api: HttpApiHandle;
  beforeAll(async () => {
    api = await serveHttpApi({ tools: [WriteNote], docs: false, requestTimeoutMs: 300 }, { port: 0 });
  });
  afterAll(() => api.close());
  const port = () => Number(new URL(api.url).port);

  it('a body trickled a byte at a time is answered 408 (a problem naming requestTimeoutMs) and the connection closed', async () => {
    WriteNote.runs = 0;
    const { text, sent } = await rawExchange(port(), postHead('/write_note/v1'), BODY, 100);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(text.toLowerCase()).toContain('content-type: application/problem+json');
    const problem = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
    expect(problem).toMatchObject({ status: 408, title: 'Request Timeout', instance: '/write_note/v1' });
    expect(problem.detail).toContain('requestTimeoutMs');
    // Closed before the body was through, and the tool never ran.
    expect(sent).toBeLessThan(BODY.length);
    expect(WriteNote.runs).toBe(0);
  });

  it('headers that never finish are answered 408 by the server and closed', async () => {
    const { text } = await rawExchange(port(), 'POST /write_note/v1 HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: yes', 200);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('a body that arrives in time is served as before', async () => {
    const response = await fetch(`${api.url}/write_note/v1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY });
    expect([response.status, await response.json()]).toEqual([200, { saved: true }]);
  });

  it('bounds the body in an application’s own Fastify too', async () => {
    const app = createFastify();
    await app.register(toolwrightHttp, { prefix: '/api', tools: [WriteNote], docs: false, requestTimeoutMs: 300 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { text } = await rawExchange((app.server.address() as AddressInfo).port, postHead('/api/write_note/v1'), BODY, 100);
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      await app.close();
    }
  });

  it('refuses a bad requestTimeoutMs with a message naming it and the default', async () => {
    await expect(serveHttpApi({ tools: [WriteNote], docs: false, requestTimeoutMs: 0 }, { port: 0 })).rejects.toThrow(
      'toolwright/http: requestTimeoutMs must be a whole number of milliseconds from 1 to 2147483647; got 0. Leave it out for the default (30000).',
    );
  });

  it('the OpenAPI document lists the 408', () => {
    const responses = httpApiDocument({ tools: [WriteNote] }).paths['/write_note/v1'].post.responses as Record<string, unknown>;
    expect(Object.keys(responses)).toContain('408');
  });
});

describe('what each caller sees in auth mode', () => {
  let api: HttpApiHandle;
  const options: HttpApiOptions = {
    tools: [ReadNote, WriteNote],
    auth: {
      securityScheme: { type: 'http', scheme: 'bearer' },
      verify(request, tool) {
        const token = request.headers.authorization;
        if (token !== 'Bearer reader' && token !== 'Bearer writer') return { status: 401, detail: 'Send a token.' };
        if (token === 'Bearer reader' && !tool.hints.includes('readOnly')) return { status: 403, detail: 'Readers may only read.' };
        return true;
      },
    },
  };
  beforeAll(async () => {
    api = await serveHttpApi(options, { port: 0 });
  });
  afterAll(() => api.close());
  const get = async (path: string, token?: string) => {
    const response = await fetch(api.url + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  };

  it('openapi.json lists only the tool versions the caller may call', async () => {
    expect(Object.keys((await get('/openapi.json', 'writer')).json.paths)).toEqual(['/read_note/v1', '/write_note/v1']);
    const reader = (await get('/openapi.json', 'reader')).json;
    expect(Object.keys(reader.paths)).toEqual(['/read_note/v1']);
    expect(JSON.stringify(reader)).not.toContain('write_note');
    expect(Object.keys((await get('/openapi.json')).json.paths)).toEqual([]);
  });

  it('the docs page’s document is the caller’s too', async () => {
    expect(Object.keys((await get('/docs/json', 'writer')).json.paths)).toEqual(['/read_note/v1', '/write_note/v1']);
    const reader = (await get('/docs/json', 'reader')).json;
    expect(Object.keys(reader.paths)).toEqual(['/read_note/v1']);
    expect(JSON.stringify(reader)).not.toContain('write_note');
    expect((await fetch(`${api.url}/docs`)).status).toBe(200);
    expect(Object.keys((await get('/docs/json')).json.paths)).toEqual([]);
    const yaml = await (await fetch(`${api.url}/docs/yaml`, { headers: { authorization: 'Bearer reader' } })).text();
    expect(yaml).toContain('/read_note/v1');
    expect(yaml).not.toContain('write_note');
  });

  it('a hidden route answers exactly like an unknown one, whatever the method; the tool does not run', async () => {
    WriteNote.runs = 0;
    const headers = { authorization: 'Bearer reader', 'content-type': 'application/json' };
    const hidden = await fetch(`${api.url}/write_note/v1`, { method: 'POST', headers, body: BODY });
    const unknown = await fetch(`${api.url}/erase_note/v1`, { method: 'POST', headers, body: BODY });
    const hiddenBody = (await hidden.json()) as Record<string, unknown>;
    const unknownBody = (await unknown.json()) as Record<string, unknown>;
    expect([hidden.status, unknown.status]).toEqual([404, 404]);
    expect({ ...hiddenBody, detail: undefined, instance: undefined }).toEqual({ ...unknownBody, detail: undefined, instance: undefined });
    expect(hiddenBody.detail).toBe('No such endpoint: POST /write_note/v1. The API is described at /openapi.json.');
    const wrongMethod = await fetch(`${api.url}/write_note/v1`, { method: 'DELETE', headers });
    expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([404, null]);
    expect(WriteNote.runs).toBe(0);
    // The writer still calls it.
    const written = await fetch(`${api.url}/write_note/v1`, { method: 'POST', headers: { ...headers, authorization: 'Bearer writer' }, body: BODY });
    expect([written.status, WriteNote.runs]).toEqual([200, 1]);
  });

  it('a caller without credentials still gets 401 with the challenge', async () => {
    const none = await fetch(`${api.url}/write_note/v1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY });
    expect([none.status, none.headers.get('www-authenticate'), ((await none.json()) as { detail: string }).detail]).toEqual([
      401,
      'Bearer',
      'Send a token.',
    ]);
  });
});

describe('limited calls and the transport name', () => {
  it('calls are audited with transport http', async () => {
    const records: AuditRecord[] = [];
    const api = await serveHttpApi({ tools: [ReadNote], docs: false, invoker: { middleware: [audit((record) => void records.push(record))] } }, { port: 0 });
    try {
      expect((await fetch(`${api.url}/read_note/v1?id=7`)).status).toBe(200);
      expect(records.map((record) => record.transport)).toEqual(['http']);
    } finally {
      await api.close();
    }
  });

  it('a rate-limited call is 429 with Retry-After', async () => {
    const api = await serveHttpApi({ tools: [ReadNote], docs: false, invoker: { middleware: [rateLimit({ points: 1, per: 'minute' })] } }, { port: 0 });
    try {
      expect((await fetch(`${api.url}/read_note/v1?id=1`)).status).toBe(200);
      const limited = await fetch(`${api.url}/read_note/v1?id=2`);
      const problem = (await limited.json()) as { status: number; title: string; detail: string };
      expect([limited.status, problem.status, problem.title]).toEqual([429, 429, 'Too Many Requests']);
      expect(problem.detail).toContain('the limit is 1 per minute');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(59);
      expect(retryAfter).toBeLessThanOrEqual(60);
    } finally {
      await api.close();
    }
  });

  it('a call refused by a busy concurrency limit is 503 with Retry-After', async () => {
    const api = await serveHttpApi({ tools: [SlowNote], docs: false, invoker: { middleware: [concurrencyLimit(1, { maxWaiting: 0 })] } }, { port: 0 });
    try {
      // The first call holds the only slot until released.
      const running = new Promise<void>((resolve) => (started = resolve));
      const first = fetch(`${api.url}/slow_note/v1`, { method: 'POST' });
      await running;
      const busy = await fetch(`${api.url}/slow_note/v1`, { method: 'POST' });
      expect([busy.status, busy.headers.get('retry-after')]).toEqual([503, '1']);
      const problem = (await busy.json()) as { title: string; detail: string };
      expect(problem.title).toBe('Service Unavailable');
      expect(problem.detail).toContain('is busy');
      release();
      expect((await first).status).toBe(200);
    } finally {
      await api.close();
    }
  });

  it('the OpenAPI document lists 429 and 503 with Retry-After on every operation', () => {
    const document = httpApiDocument({ tools: [ReadNote, WriteNote] });
    for (const operation of [document.paths['/read_note/v1'].get, document.paths['/read_note/v1'].post, document.paths['/write_note/v1'].post]) {
      const responses = operation.responses as Record<string, { headers?: Record<string, unknown> }>;
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['429', '503']));
      expect(Object.keys(responses['429'].headers ?? {})).toEqual(['Retry-After']);
      expect(Object.keys(responses['503'].headers ?? {})).toEqual(['Retry-After']);
    }
  });
});
