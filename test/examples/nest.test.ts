/**
 * examples/nest: the loan desk as a Nest application, on Express and on Fastify. Built with
 * @nestjs/testing (a provider overridden the Nest way reaches the tools, so they are resolved
 * through Nest's container) and served over real HTTP on 127.0.0.1 to the SDK Client: the endpoint
 * guard authenticates (request.user), the officer reaches @AmbientContext from it and never from
 * the model, the RolesGuard on the tool providers refuses a reader's approval with an error the
 * model reads, the interceptor records the calls, and the REST controller shares the DTOs.
 */
import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { userIdentity } from 'toolwright/nest';
import { AppModule, validationPipe, type Platform } from '../../examples/nest/app';
import { CallLog } from '../../examples/nest/call-log';
import { CreditBureau } from '../../examples/loan-desk/domain/credit-bureau';

const ADA_LOAN = '6f1c9a52-3b0e-4c52-9a8e-1f2d3c4b5a60';
const GRACE_LOAN = '0b7e4d21-8c3a-4f19-b6d2-7e5a9c1f3d42';
const ALAN_LOAN = 'c3a5e7f9-1b2d-4e6f-8a0c-2d4f6b8e0a13';

type ToolAnswer = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown> };

describe.each<Platform>(['express', 'fastify'])('examples/nest on %s', (platform) => {
  let app: INestApplication;
  let mcpUrl: URL;
  let base: string;
  const clients: Client[] = [];

  async function connect(token?: string): Promise<Client> {
    const client = new Client({ name: 'nest-example-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {}));
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    // The Nest way to replace a dependency in a test: the tools get it from Nest's container.
    class FixedBureau extends CreditBureau {
      override score(applicant: string): number {
        return applicant === 'Test Applicant' ? 700 : super.score(applicant);
      }
    }
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(CreditBureau)
      .useClass(FixedBureau)
      .compile();
    app = moduleRef.createNestApplication(platform === 'fastify' ? new FastifyAdapter() : new ExpressAdapter(), { logger: false });
    app.useGlobalPipes(validationPipe());
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    mcpUrl = new URL('/mcp', base);
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await app.close();
  });

  it("lists the tools with the DTOs' schemas (@ApiProperty descriptions and examples), never the ambient officer", async () => {
    const client = await connect('dev-token-ada');
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName).sort()).toEqual(['approve_loan', 'check_credit']);
    expect(byName.check_credit.inputSchema.properties).toMatchObject({
      applicant: { type: 'string', maxLength: 200, description: 'Full name of the applicant', examples: ['Ada Lovelace'] },
      months: { type: 'integer', minimum: 1, maximum: 120, description: 'Months of history to consider' },
    });
    expect(Object.keys(byName.approve_loan.inputSchema.properties ?? {}).sort()).toEqual(['amount', 'loanId', 'tier']);
  });

  it("a tool runs on Nest's instances: the overridden provider answers", async () => {
    const client = await connect('dev-token-reader');
    const answer = (await client.callTool({ name: 'check_credit', arguments: { applicant: 'Test Applicant' } })) as ToolAnswer;
    expect(answer.structuredContent).toEqual({ score: 700, band: 'good' });
  });

  it('the officer comes from request.user (set by the endpoint guard), never from the model', async () => {
    const client = await connect('dev-token-ada');
    const approved = (await client.callTool({ name: 'approve_loan', arguments: { loanId: ADA_LOAN, amount: 20_000 } })) as ToolAnswer;
    expect(approved.isError).toBeFalsy();
    expect(approved.structuredContent).toMatchObject({ approvedBy: 'officer-ada', tier: 'standard' });
    const forged = (await client.callTool({ name: 'approve_loan', arguments: { loanId: GRACE_LOAN, amount: 1, officerId: 'officer-mallory' } })) as ToolAnswer;
    expect(forged.isError).toBe(true);
    expect(forged.content[0].text).toMatch(/officerId/);
  });

  it("the RolesGuard on the tool provider refuses a reader's approval with an error the model reads; the tool does not run", async () => {
    const client = await connect('dev-token-reader');
    const refused = (await client.callTool({ name: 'approve_loan', arguments: { loanId: GRACE_LOAN, amount: 1_000 } })) as ToolAnswer;
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toBe('Forbidden resource');
    const status = await fetch(`${base}/loans/${GRACE_LOAN}`, { headers: { authorization: 'Bearer dev-token-ada' } });
    expect(((await status.json()) as { state: string }).state).toBe('pending');
  });

  it('the endpoint guard refuses a request without a known token before toolwright reads it (401)', async () => {
    await expect(connect()).rejects.toThrow(/401|Unauthorized|bearer token/i);
    const response = await fetch(mcpUrl, {
      method: 'POST',
      headers: { authorization: 'Bearer forged', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ message: 'A bearer token of a loan officer is required.' });
  });

  it("an MCP session belongs to the officer who opened it: another officer's POST, GET and DELETE are answered as for an unknown session", async () => {
    // The documented pattern: the endpoint guard authenticates (request.user), toolwright's own `auth` is not set.
    const transport = new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers: { authorization: 'Bearer dev-token-ada' } } });
    const ada = new Client({ name: 'nest-example-test', version: '1.0.0' });
    await ada.connect(transport);
    clients.push(ada);
    const sessionId = transport.sessionId!;
    expect(sessionId).toBeDefined();
    /** One request of `token` to the session `id`: its status and body (an event stream is not read). */
    const attempt = async (token: string, id: string, method: string): Promise<[number, string]> => {
      const response = await fetch(mcpUrl, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
          accept: 'application/json, text/event-stream',
          'mcp-session-id': id,
          'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
        },
        ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }) } : {}),
      });
      if (response.headers.get('content-type')?.includes('text/event-stream')) {
        await response.body?.cancel();
        return [response.status, '(an event stream)'];
      }
      return [response.status, await response.text()];
    };
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const method of ['POST', 'GET', 'DELETE']) {
      const stolen = await attempt('dev-token-reader', sessionId, method);
      expect(stolen[0]).toBe(404);
      expect(stolen).toEqual(await attempt('dev-token-reader', unknown, method));
    }
    // Still ada's.
    expect((await ada.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['approve_loan', 'check_credit']);
  });

  it('the interceptor records each call that passed the input checks, with the officer and the outcome', async () => {
    const log = app.get(CallLog, { strict: false });
    const before = log.records.length;
    const client = await connect('dev-token-reader');
    await client.callTool({ name: 'check_credit', arguments: { applicant: 'Grace Hopper' } });
    await client.callTool({ name: 'check_credit', arguments: { applicant: 42 } }); // refused by the input checks: no interceptor
    expect(log.records.slice(before)).toEqual([{ tool: 'check_credit', officer: 'officer-bob', outcome: 'success', ms: expect.any(Number) }]);
  });

  it('the HTTP API under /tools: the platform parsed the body, and request.user still reaches the officer and the guards', async () => {
    const approve = (token: string | undefined, body: unknown) =>
      fetch(`${base}/tools/approve_loan/v1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    expect((await approve(undefined, { loanId: ALAN_LOAN, amount: 1_000 })).status).toBe(401);
    const refused = await approve('dev-token-reader', { loanId: ALAN_LOAN, amount: 1_000 });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(await refused.json())).toContain('Forbidden resource');
    const forged = await approve('dev-token-ada', { loanId: ALAN_LOAN, amount: 1_000, officerId: 'officer-mallory' });
    expect(forged.status).toBe(422);
    const approved = await approve('dev-token-ada', { loanId: GRACE_LOAN, amount: 1_000 });
    expect([approved.status, await approved.json()]).toEqual([200, expect.objectContaining({ approvedBy: 'officer-ada' })]);
  });

  it('the REST controller validates the same DTO with ValidationPipe', async () => {
    const post = (body: unknown) =>
      fetch(`${base}/credit-checks`, {
        method: 'POST',
        headers: { authorization: 'Bearer dev-token-reader', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect(await (await post({ applicant: 'Test Applicant' })).json()).toEqual({ score: 700, band: 'good' });
    const refused = await post({ applicant: '', months: 0 });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { properties: string[] }).properties.sort()).toEqual(['applicant', 'months']);
  });
});

describe('userIdentity', () => {
  it("the session's owner is the guard's request.user (userIdentity, forRoot's default): its id, userId or sub with its type; no user is anonymous; a user naming nobody is refused", () => {
    expect(userIdentity({ user: { id: 'officer-ada', name: 'Ada' } })).toBe('"officer-ada"');
    expect(userIdentity({ user: { userId: 101 } })).not.toBe(userIdentity({ user: { userId: '101' } }));
    expect(userIdentity({ user: { sub: 'auth0|7' } })).toBe('"auth0|7"');
    expect(userIdentity({ user: 'officer-ada' })).toBe('"officer-ada"');
    expect(userIdentity({})).toBeUndefined();
    for (const user of [{ name: 'Ada' }, { id: '' }, { id: { nested: 1 } }, true]) {
      expect(() => userIdentity({ user })).toThrow(/request\.user has no id, userId or sub .*forRoot\(\{ identity: \(request\) => … \}\)/);
    }
  });
});
