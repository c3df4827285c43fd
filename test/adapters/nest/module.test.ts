/**
 * toolwright/nest: a Nest application (Express and Fastify platforms) whose providers are toolwright
 * members, served over MCP (the 2.x Client on 2026-07-28, the 1.x Client on 2025-11-25) and the HTTP
 * API on the application's own server, resolved through Nest's container. The application runs in
 * a child process (fixtures/desk-app.ts: Nest 12 is ES modules only, and Jest's runtime cannot load
 * them on this Node line); the clients run here.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startApp, stopApp, type Running } from './fixtures/run-app';

type Platform = 'express' | 'fastify';
type Mode = 'sync' | 'async' | 'prefixed' | 'excluded';
interface Started {
  readonly child: Running<unknown>['child'];
  readonly base: string;
  readonly members: { mcp: string[]; http: string[] };
  readonly singleton: boolean;
}

/** Starts fixtures/desk-app.ts on `platform`, on a free port of 127.0.0.1. */
async function start(platform: Platform, mode: Mode = 'sync'): Promise<Started> {
  const running = await startApp<Omit<Started, 'child'>>('desk-app.ts', platform, mode);
  return { child: running.child, ...running.info };
}

function stop(started: Started | undefined): Promise<void> {
  return stopApp(started && { child: started.child, info: { base: started.base } });
}

function text(result: unknown): unknown {
  return (result as { structuredContent?: unknown }).structuredContent;
}

describe.each<Platform>(['express', 'fastify'])('ToolwrightModule on the %s platform', (platform) => {
  let started: Started | undefined;
  let base: string;
  const clients: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    started = await start(platform);
    base = started.base;
  }, 60_000);
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await stop(started);
  }, 30_000);

  async function modern(headers: Record<string, string> = {}): Promise<Client> {
    const client = new Client({ name: 'nest-modern', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  async function legacy(headers: Record<string, string> = {}): Promise<LegacyClient> {
    const client = new LegacyClient({ name: 'nest-legacy', version: '1.0.0' });
    await client.connect(new LegacyHttpTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  it('serves the discovered members, and only them, to both revisions', async () => {
    const expected = ['nest_broken', 'nest_closed', 'nest_desk_count', 'nest_find_loan', 'nest_fresh', 'nest_loan_state', 'nest_motto', 'nest_who_am_i'];
    const client = await modern();
    expect(client.getNegotiatedProtocolVersion?.() ?? '2026-07-28').toBe('2026-07-28');
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(expected);
    const old = await legacy();
    expect(old.getServerVersion()?.name).toBe('desk');
    expect((await old.listTools()).tools.map((tool) => tool.name).sort()).toEqual(expected);
  });

  it('a singleton tool is the instance Nest made, with its injected repository', async () => {
    const client = await modern();
    expect(text(await client.callTool({ name: 'nest_loan_state', arguments: { loanId: 'l-1' } }))).toEqual({ state: 'approved' });
    const old = await legacy();
    expect(text(await old.callTool({ name: 'nest_loan_state', arguments: { loanId: 'l-2' } }))).toEqual({ state: 'unknown' });
    expect(started!.singleton).toBe(true);
  });

  it('a request-scoped tool gets the platform request of its call through @Inject(REQUEST)', async () => {
    const client = await modern({ 'x-caller': `ada-${platform}` });
    expect(text(await client.callTool({ name: 'nest_who_am_i', arguments: {} }))).toEqual({ caller: `ada-${platform}` });
    const old = await legacy({ 'x-caller': `bo-${platform}` });
    expect(text(await old.callTool({ name: 'nest_who_am_i', arguments: {} }))).toEqual({ caller: `bo-${platform}` });
  });

  it('a member provided as a value is that value', async () => {
    const client = await modern();
    expect(text(await client.callTool({ name: 'nest_motto', arguments: {} }))).toEqual({ motto: 'lend wisely' });
  });

  it('a transient tool is made anew for every call', async () => {
    const client = await modern();
    const first = text(await client.callTool({ name: 'nest_fresh', arguments: {} })) as { instance: number };
    const second = text(await client.callTool({ name: 'nest_fresh', arguments: {} })) as { instance: number };
    expect(second.instance).not.toBe(first.instance);
  });

  it('a provider method is a tool, with ambient values from the platform request', async () => {
    const client = await modern({ 'x-officer': 'cy' });
    expect(text(await client.callTool({ name: 'nest_desk_count', arguments: {} }))).toEqual({ count: 1, officer: 'cy' });
    const old = await legacy({ 'x-officer': 'di' });
    expect(text(await old.callTool({ name: 'nest_desk_count', arguments: {} }))).toEqual({ count: 1, officer: 'di' });
    // The ambient field is the server's: a model cannot send it.
    const sent = await client.callTool({ name: 'nest_desk_count', arguments: { officer: 'mallory' } });
    expect(sent.isError).toBe(true);
  });

  it("forRoot({ identity }): an MCP session is its caller's; another's or an anonymous POST and DELETE answer as for an unknown session", async () => {
    const owner = new LegacyHttpTransport(new URL(`${base}/mcp`), { requestInit: { headers: { 'x-officer': 'cy' } } });
    const client = new LegacyClient({ name: 'nest-legacy', version: '1.0.0' });
    await client.connect(owner);
    clients.push(client);
    const attempt = async (officer: string | undefined, id: string, method: string) => {
      const response = await fetch(`${base}/mcp`, {
        method,
        headers: {
          accept: 'application/json, text/event-stream',
          'mcp-session-id': id,
          'mcp-protocol-version': '2025-11-25',
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
          ...(officer ? { 'x-officer': officer } : {}),
        },
        ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }) } : {}),
      });
      return [response.status, await response.text()];
    };
    for (const intruder of ['di', undefined]) {
      for (const method of ['POST', 'DELETE']) {
        const stolen = await attempt(intruder, owner.sessionId!, method);
        expect(stolen[0]).toBe(404);
        expect(stolen).toEqual(await attempt(intruder, '00000000-0000-4000-8000-000000000000', method));
      }
    }
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('serves the HTTP API under its prefix, through the same container', async () => {
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}/tools${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const state = await post('/nest_loan_state/v1', { loanId: 'l-1' });
    expect([state.status, await state.json()]).toEqual([200, { state: 'approved' }]);
    const who = await post('/nest_who_am_i/v1', {}, { 'x-caller': 'eve' });
    expect(await who.json()).toEqual({ caller: 'eve' });
    const bad = await post('/nest_loan_state/v1', { loanId: 'l-1', extra: 1 });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toContain('extra');
    // The OpenAPI document is served under the prefix too.
    const document = await fetch(`${base}/tools/openapi.json`);
    expect(Object.keys(((await document.json()) as { paths: object }).paths).sort()).toEqual(['/tools/nest_closed/v1', '/tools/nest_find_loan/v1', '/tools/nest_loan_state/v1', '/tools/nest_who_am_i/v1']);
    // Other paths are the application's.
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
  });

  it("an HttpException, the member's or a guard's, reaches the model with its message and the HTTP API with its status", async () => {
    const client = await modern();
    const missing = await client.callTool({ name: 'nest_find_loan', arguments: { loanId: 'l-9' } });
    const closed = await client.callTool({ name: 'nest_closed', arguments: {} });
    expect([missing.isError, missing.content]).toEqual([true, [{ type: 'text', text: 'Loan l-9 not found' }]]);
    expect([closed.isError, closed.content]).toEqual([true, [{ type: 'text', text: 'Forbidden resource' }]]);
    const post = async (tool: string, body: unknown) => {
      const response = await fetch(`${base}/tools/${tool}/v1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return [response.status, ((await response.json()) as { detail: string }).detail];
    };
    expect(await post('nest_find_loan', { loanId: 'l-9' })).toEqual([404, 'Loan l-9 not found']);
    // As a controller behind the same guard answers: ForbiddenException's 403, not a business failure's 422.
    expect(await post('nest_closed', {})).toEqual([403, 'Forbidden resource']);
  });

  it("a member's exception is reported through Nest's Logger (logger: false silences it), never past it to stderr; an HttpException is not reported", async () => {
    let stderr = '';
    let logged: () => void = () => undefined;
    const reported = new Promise<void>((resolve) => (logged = resolve));
    started!.child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('nest-logger ')) logged();
    });
    const client = await modern();
    const broken = await client.callTool({ name: 'nest_broken', arguments: {} });
    expect(broken.isError).toBe(true);
    expect(JSON.stringify(broken.content)).not.toContain('boom-secret');
    await client.callTool({ name: 'nest_find_loan', arguments: { loanId: 'l-8' } });
    // A call after both: its answer comes after whatever they logged.
    await client.callTool({ name: 'nest_motto', arguments: {} });
    if (platform === 'express') await reported;
    const lines = stderr.split('\n').filter((line) => line.startsWith('nest-logger '));
    const rest = stderr.split('\n').filter((line) => !line.startsWith('nest-logger ')).join('\n');
    expect(rest).not.toContain('boom-secret');
    if (platform === 'express') {
      expect(lines.map((line) => JSON.parse(line.slice('nest-logger '.length)))).toEqual([
        { message: 'nest_broken (NestBroken) raised an exception', stack: expect.stringContaining('Error: boom-secret'), context: 'Toolwright' },
      ]);
    } else {
      expect(lines).toEqual([]);
    }
  });

  it('the host exposes the discovered members and its resolver', async () => {
    expect(started!.members).toEqual({
      mcp: ['LoanDesk', 'NestBroken', 'NestClosed', 'NestFindLoan', 'NestFresh', 'NestLoanState', 'NestMotto', 'NestWhoAmI'],
      http: ['NestClosed', 'NestFindLoan', 'NestLoanState', 'NestWhoAmI'],
    });
  });

  it("app.close() ends a 2025-11-25 session's open event stream and returns (toolwright closes before Nest's server does)", async () => {
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' };
    const initialize = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'held-open', version: '1.0.0' } },
      }),
    });
    const session = initialize.headers.get('mcp-session-id')!;
    await initialize.text();
    const initialized = { method: 'POST', headers: { ...headers, 'mcp-session-id': session }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) };
    expect((await fetch(`${base}/mcp`, initialized)).status).toBe(202);
    const stream = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } });
    expect([stream.status, stream.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    // The stream is open; the application closes (and its process exits) with the client still reading.
    const reader = stream.body!.getReader();
    const ended = (async () => {
      for (;;) if ((await reader.read()).done) return 'ended';
    })();
    await stop(started);
    started = undefined;
    expect(await ended).toBe('ended');
  });
});

describe('ToolwrightModule.forRootAsync', () => {
  let started: Started | undefined;
  afterAll(() => stop(started), 30_000);

  it('takes its options from a factory with injected providers: the MCP path it names, no HTTP API', async () => {
    started = await start('express', 'async');
    const client = new Client({ name: 'nest-async', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${started.base}/agents`)));
    try {
      expect(text(await client.callTool({ name: 'nest_loan_state', arguments: { loanId: 'l-1' } }))).toEqual({ state: 'approved' });
    } finally {
      await client.close();
    }
    expect((await fetch(`${started.base}/mcp`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${started.base}/tools/nest_loan_state/v1`, { method: 'POST' })).status).toBe(404);
  }, 60_000);

  it('refuses a request whose Host is not loopback, as serveHttp does (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const url = new URL(`${started!.base}/agents`);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.once('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    });
    expect(status).toBe(403);
  });
});
