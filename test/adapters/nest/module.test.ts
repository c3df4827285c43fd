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
    const expected = ['nest_desk_count', 'nest_fresh', 'nest_loan_state', 'nest_motto', 'nest_who_am_i'];
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
    expect(Object.keys(((await document.json()) as { paths: object }).paths).sort()).toEqual(['/tools/nest_loan_state/v1', '/tools/nest_who_am_i/v1']);
    // Other paths are the application's.
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
  });

  it('the host exposes the discovered members and its resolver', async () => {
    expect(started!.members).toEqual({ mcp: ['LoanDesk', 'NestFresh', 'NestLoanState', 'NestMotto', 'NestWhoAmI'], http: ['NestLoanState', 'NestWhoAmI'] });
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
