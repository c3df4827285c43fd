/**
 * toolwright/nest: request-scoped guards and interceptors on a member's provider, made per call in
 * Nest's context of the call, as Nest makes them for a request-scoped controller: a guard injecting
 * `REQUEST` admits or refuses by a header of the call's own request, an interceptor injecting a
 * request-scoped provider refuses by another, a transient interceptor is made for each call, over real HTTP on both platforms, for MCP (the 2.x
 * SDK Client) and the HTTP API (fetch). A member whose guard is a singleton keeps it (made once),
 * a request-scoped global guard (APP_GUARD) applies to every member, a request-scoped endpoint
 * guard (`forRoot({ guards })`) is made per request in the context the member then shares, and a
 * guard that cannot be made is seen by the member's filters without reaching the model. The
 * application runs in a child process (fixtures/scoped-app.ts).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startApp, stopApp, type Running } from './fixtures/run-app';

type Platform = 'express' | 'fastify';
interface CallResult {
  readonly isError?: boolean;
  readonly structuredContent?: unknown;
  readonly content?: Array<{ type: string; text?: string }>;
}

/** Runs fixtures/scoped-app.ts for the enclosing describe; answers its base URL. */
function runningApp(platform: Platform, ...args: string[]): () => string {
  let app: Running<unknown> | undefined;
  beforeAll(async () => void (app = await startApp('scoped-app.ts', platform, ...args)), 60_000);
  afterAll(() => stopApp(app), 30_000);
  return () => app!.info.base;
}

/** One MCP call, from a client whose every request carries `headers`. */
async function mcpCall(base: string, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}): Promise<CallResult> {
  const client = new Client({ name: 'nest-scoped', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
  try {
    return (await client.callTool({ name, arguments: args })) as CallResult;
  } finally {
    await client.close();
  }
}

/** One call of the HTTP API: its status and body. */
async function httpCall(base: string, name: string, body: object, headers: Record<string, string> = {}): Promise<[number, unknown]> {
  const response = await fetch(`${base}/tools/${name}/v1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return [response.status, await response.json()];
}

const textOf = (result: CallResult) => result.content?.map((part) => part.text ?? '').join('') ?? '';

describe.each<Platform>(['express', 'fastify'])('request-scoped guards and interceptors on the %s platform', (platform) => {
  const base = runningApp(platform);
  const writer = { 'x-role': 'writer', 'x-caller': 'ada' };

  it("MCP: the request-scoped guard reads the call's own request (REQUEST) and admits a writer, made anew for each call", async () => {
    const first = await mcpCall(base(), 'scoped_write', { note: 'n1' }, writer);
    expect(first.isError).toBeFalsy();
    const { guardsMade, transientsMade } = first.structuredContent as { guardsMade: number; transientsMade: number };
    expect(first.structuredContent).toEqual({ note: 'n1', guardsMade, transientsMade });
    // A second call: a new guard, and a new transient interceptor (made per call for a request-scoped member).
    const second = await mcpCall(base(), 'scoped_write', { note: 'n2' }, writer);
    expect(second.structuredContent).toEqual({ note: 'n2', guardsMade: guardsMade + 1, transientsMade: transientsMade + 1 });
  });

  it('MCP: the same guard refuses a call whose request does not say writer; the interceptor refuses mallory', async () => {
    const reader = await mcpCall(base(), 'scoped_write', { note: 'n3' }, { 'x-role': 'reader' });
    expect([reader.isError, textOf(reader)]).toEqual([true, 'Forbidden resource']);
    const mallory = await mcpCall(base(), 'scoped_write', { note: 'n4' }, { ...writer, 'x-caller': 'mallory' });
    expect([mallory.isError, textOf(mallory)]).toEqual([true, 'mallory may not write']);
  });

  it('HTTP API: the same guard and interceptor, per call, with the platform request', async () => {
    const [status, body] = await httpCall(base(), 'scoped_write', { note: 'h1' }, writer);
    expect(status).toBe(200);
    const { guardsMade, transientsMade } = body as { guardsMade: number; transientsMade: number };
    expect(await httpCall(base(), 'scoped_write', { note: 'h2' }, writer)).toEqual([
      200,
      { note: 'h2', guardsMade: guardsMade + 1, transientsMade: transientsMade + 1 },
    ]);
    const [refused, refusal] = await httpCall(base(), 'scoped_write', { note: 'h3' });
    expect(refused).toBe(403); // ForbiddenException's status, as a controller behind the guard answers
    expect(JSON.stringify(refusal)).toContain('Forbidden resource');
    const [stopped, stop] = await httpCall(base(), 'scoped_write', { note: 'h4' }, { ...writer, 'x-caller': 'mallory' });
    expect(stopped).toBe(403);
    expect(JSON.stringify(stop)).toContain('mallory may not write');
  });

  it("a member whose guard is a singleton keeps Nest's instances: its guard made once, the member itself shared", async () => {
    const first = (await mcpCall(base(), 'static_read', {})).structuredContent;
    expect(first).toEqual({ guardsMade: 1, instance: 1 });
    expect((await mcpCall(base(), 'static_read', {})).structuredContent).toEqual(first);
    expect(await httpCall(base(), 'static_read', {})).toEqual([200, first]);
  });
});

describe.each<Platform>(['express', 'fastify'])('a request-scoped global guard (APP_GUARD) on the %s platform', (platform) => {
  const base = runningApp(platform, 'global');

  it('applies to every member, per call, over MCP and the HTTP API', async () => {
    expect((await mcpCall(base(), 'static_read', {})).isError).toBeFalsy();
    const blocked = await mcpCall(base(), 'static_read', {}, { 'x-blocked': 'yes' });
    expect([blocked.isError, textOf(blocked)]).toEqual([true, 'Forbidden resource']);
    expect((await httpCall(base(), 'static_read', {}))[0]).toBe(200);
    expect((await httpCall(base(), 'static_read', {}, { 'x-blocked': 'yes' }))[0]).toBe(403);
    // The member's own request-scoped guard still runs beside it.
    const reader = await mcpCall(base(), 'scoped_write', { note: 'g1' }, { 'x-role': 'reader' });
    expect(textOf(reader)).toBe('Forbidden resource');
    expect((await mcpCall(base(), 'scoped_write', { note: 'g2' }, { 'x-role': 'writer' })).structuredContent).toMatchObject({ note: 'g2' });
  });
});

describe.each<Platform>(['express', 'fastify'])('a request-scoped guard that cannot be made, on the %s platform', (platform) => {
  const base = runningApp(platform);

  it("fails the call as an exception the model reads nothing of, and the member's filter sees why", async () => {
    const failed = await mcpCall(base(), 'broken_write', {});
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).not.toMatch(/s3cret|wiring|filter answers/);
    const [status, body] = await httpCall(base(), 'broken_write', {});
    expect(status).toBe(500);
    expect(JSON.stringify(body)).not.toMatch(/s3cret|wiring|filter answers/);
    // Once per call, as Nest's router runs a controller's filters when its request-scoped instances cannot be made.
    expect((await mcpCall(base(), 'filter_log', {})).structuredContent).toEqual({
      seen: ['guard wiring broke: password=s3cret', 'guard wiring broke: password=s3cret'],
    });
  });
});

describe.each<Platform>(['express', 'fastify'])('a request-scoped endpoint guard (forRoot({ guards })) on the %s platform', (platform) => {
  const base = runningApp(platform, 'endpoint');

  it("is made for each request with that request as REQUEST, in the context the member's request-scoped providers share", async () => {
    const first = await mcpCall(base(), 'tenant_probe', {}, { 'x-tenant': 'acme' });
    const { endpointGuardsMade } = first.structuredContent as { endpointGuardsMade: number };
    expect(first.structuredContent).toEqual({ tenant: 'acme', endpointGuardsMade });
    const second = await mcpCall(base(), 'tenant_probe', {}, { 'x-tenant': 'acme' });
    // A new guard for each HTTP request of the second session (initialize, initialized, the call, ...).
    expect((second.structuredContent as { endpointGuardsMade: number }).endpointGuardsMade).toBeGreaterThan(endpointGuardsMade);
    const [status, body] = await httpCall(base(), 'tenant_probe', {}, { 'x-tenant': 'acme' });
    expect([status, (body as { tenant: string }).tenant]).toEqual([200, 'acme']);
  });

  it('refuses a request it does not admit, before toolwright reads it: 403 on the HTTP API, no MCP session', async () => {
    expect(await httpCall(base(), 'tenant_probe', {}, { 'x-tenant': 'globex' })).toEqual([
      403,
      { statusCode: 403, message: 'Forbidden resource', error: 'Forbidden' },
    ]);
    await expect(mcpCall(base(), 'tenant_probe', {}, { 'x-tenant': 'globex' })).rejects.toThrow(/403|Forbidden/);
  });
});
