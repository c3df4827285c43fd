/**
 * toolwright/nest under the application's global prefix: `app.setGlobalPrefix('api')` between
 * creating the application and `listen()` moves the MCP endpoint and the HTTP API under `/api`, as
 * it moves the application's controllers, and its `exclude` rules keep a path where it is. Real
 * HTTP on both platforms (the 2.x SDK Client for MCP, fetch for the HTTP API); the application runs
 * in a child process (fixtures/desk-app.ts).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startApp, stopApp, type Running } from './fixtures/run-app';

type Platform = 'express' | 'fastify';

async function mcpCall(url: string): Promise<unknown> {
  const client = new Client({ name: 'nest-prefix', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const result = await client.callTool({ name: 'nest_loan_state', arguments: { loanId: 'l-1' } });
    return (result as { structuredContent?: unknown }).structuredContent;
  } finally {
    await client.close();
  }
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } };

/** The status of an MCP initialize POST to `url` (404 where no endpoint is). */
async function mcpStatus(url: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(initialize),
  });
  await response.body?.cancel();
  return response.status;
}

function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** Runs fixtures/desk-app.ts in `mode` for the enclosing describe; answers the URL of a path on it. */
function runningApp(platform: Platform, mode: string): () => string {
  let app: Running<unknown> | undefined;
  beforeAll(async () => void (app = await startApp('desk-app.ts', platform, mode)), 60_000);
  afterAll(() => stopApp(app), 30_000);
  return () => app!.info.base;
}

describe.each<Platform>(['express', 'fastify'])('app.setGlobalPrefix on the %s platform', (platform) => {
  describe("setGlobalPrefix('api')", () => {
    const url = runningApp(platform, 'prefixed');

    it("serves MCP at /api/mcp, like the app's controllers (/api/health); /mcp is 404", async () => {
      expect((await fetch(`${url()}/api/health`)).status).toBe(200);
      expect((await fetch(`${url()}/health`)).status).toBe(404);
      expect(await mcpCall(`${url()}/api/mcp`)).toEqual({ state: 'approved' });
      expect(await mcpStatus(`${url()}/mcp`)).toBe(404);
    });

    it('serves the HTTP API under /api/tools, its OpenAPI paths included; /tools is 404', async () => {
      const state = await post(`${url()}/api/tools/nest_loan_state/v1`, { loanId: 'l-1' });
      expect([state.status, await state.json()]).toEqual([200, { state: 'approved' }]);
      const refused = await post(`${url()}/api/tools/nest_loan_state/v1`, { loanId: 'l-1', extra: 1 });
      expect(refused.status).toBe(422);
      expect((await post(`${url()}/tools/nest_loan_state/v1`, { loanId: 'l-1' })).status).toBe(404);
      const document = (await (await fetch(`${url()}/api/tools/openapi.json`)).json()) as { paths: object };
      expect(Object.keys(document.paths).sort()).toEqual(['/api/tools/nest_closed/v1', '/api/tools/nest_find_loan/v1', '/api/tools/nest_loan_state/v1', '/api/tools/nest_who_am_i/v1']);
      expect((await fetch(`${url()}/tools/openapi.json`)).status).toBe(404);
    });
  });

  describe("setGlobalPrefix('api', { exclude: ['mcp'] })", () => {
    const url = runningApp(platform, 'excluded');

    it('keeps MCP at /mcp (excluded, as Nest excludes a route), and /api/mcp is 404', async () => {
      expect(await mcpCall(`${url()}/mcp`)).toEqual({ state: 'approved' });
      expect(await mcpStatus(`${url()}/api/mcp`)).toBe(404);
    });

    it('still moves the HTTP API, which the rule does not match', async () => {
      expect((await post(`${url()}/api/tools/nest_loan_state/v1`, { loanId: 'l-1' })).status).toBe(200);
      expect((await post(`${url()}/tools/nest_loan_state/v1`, { loanId: 'l-1' })).status).toBe(404);
    });
  });
});
