/**
 * Who sees what: a `visible` rule reading the tags of each member and the groups claim of a JWT
 * really signed by jose, over real HTTP on 127.0.0.1, for the 2.x Client on 2026-07-28 and the 1.x
 * Client on 2025-11-25 (sessions and stateless). A hidden tool answers byte for byte as an unknown
 * one; a rule that throws, answers no boolean or is slow hides the member and is reported to the
 * server; scopes still apply; the list's cache scope becomes private.
 */
import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT, type CryptoKey } from 'jose';
import { Tool } from 'toolwright';
import { createMcpServer, serveHttp, type McpHttpAuth, type McpHttpHandle, type McpMember, type McpRequestContext } from 'toolwright/mcp';
import { modernHeaders } from '../../helpers/mcp';

const ran: string[] = [];

@Tool('mcp', { name: 'echo', description: 'Echoes' })
class Echo {
  call() {
    return 'echo';
  }
}

@Tool('mcp', { name: 'quarterly_report', description: 'The quarter in numbers', tags: ['finance'] })
class QuarterlyReport {
  call() {
    ran.push('quarterly_report');
    return 'up 3%';
  }
}

@Tool('mcp', { name: 'payroll', description: 'Pays everyone', tags: ['hr'] })
class Payroll {
  call() {
    ran.push('payroll');
    return 'paid';
  }
}

@Tool('mcp', { name: 'audit_log', description: 'Reads the audit log', tags: ['finance'], adapters: { mcp: { scopes: ['audit:read'] } } })
class AuditLog {
  call() {
    ran.push('audit_log');
    return 'log';
  }
}

let signing: CryptoKey;
let jwks: ReturnType<typeof createLocalJWKSet>;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  signing = pair.privateKey;
  jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' }] });
});

function mint(groups: string[], scope = ''): Promise<string> {
  return new SignJWT({ groups, scope, client_id: 'desk' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer('https://auth.example.test')
    .setAudience('visibility-test')
    .setSubject('officer')
    .setExpirationTime('1h')
    .sign(signing);
}

const auth: McpHttpAuth = {
  async verifyAccessToken(token) {
    const { payload } = await jwtVerify(token, jwks, { issuer: 'https://auth.example.test', audience: 'visibility-test' });
    return {
      token,
      clientId: String(payload.client_id),
      scopes: String(payload.scope ?? '').split(' ').filter(Boolean),
      expiresAt: payload.exp,
      extra: { groups: payload.groups },
    };
  },
};

/** The groups claim of the verified token. */
function groupsOf(request: McpRequestContext): string[] {
  const groups = request.authInfo?.extra?.groups;
  return Array.isArray(groups) ? groups.map(String) : [];
}

/** The rule under test: a member is visible when the caller is in every group it is tagged with. */
const asked: string[] = [];
const byGroups = (member: McpMember, request: McpRequestContext): boolean => {
  asked.push(member.name);
  return member.tags.every((tag) => groupsOf(request).includes(tag));
};

const TOOLS = [Echo, QuarterlyReport, Payroll, AuditLog];

async function modernClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'visibility-2x', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

async function legacyClient(url: string, token: string): Promise<LegacyClient> {
  const client = new LegacyClient({ name: 'visibility-1x', version: '1.0.0' });
  await client.connect(new LegacyHttpTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A raw 2026-07-28 POST: the response body as the bytes the server sent. */
async function rawModern(url: string, token: string, method: string, params: Record<string, unknown>, name?: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...modernHeaders(method, name), authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: META } }),
  });
  return `${response.status} ${await response.text()}`;
}

describe('a visible rule over tags and a JWT groups claim', () => {
  let handle: McpHttpHandle;
  let finance: string;
  let everyone: string;
  const reported: string[] = [];
  let consoleError: jest.SpyInstance;

  beforeAll(async () => {
    finance = await mint(['finance'], 'audit:read');
    everyone = await mint(['finance', 'hr']);
    handle = await serveHttp({ name: 'visibility', version: '1.0.0', tools: TOOLS, visible: byGroups }, { port: 0, auth });
  });
  beforeEach(() => {
    ran.length = 0;
    asked.length = 0;
    reported.length = 0;
    consoleError = jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void reported.push(args.map(String).join(' ')));
  });
  afterEach(() => consoleError.mockRestore());
  afterAll(async () => handle.close());

  it('lists and calls only what the caller may see, on 2026-07-28 (2.x Client) and 2025-11-25 (1.x Client)', async () => {
    const modern = await modernClient(handle.url, finance);
    const legacy = await legacyClient(handle.url, finance);
    try {
      expect(modern.getProtocolEra()).toBe('modern');
      for (const client of [modern, legacy]) {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(['echo', 'quarterly_report', 'audit_log']);
        const report = await client.callTool({ name: 'quarterly_report', arguments: {} });
        expect(report.content).toEqual([{ type: 'text', text: 'up 3%' }]);
        await expect(client.callTool({ name: 'payroll', arguments: {} })).rejects.toThrow(/Unknown tool: payroll/);
      }
      expect(ran).toEqual(['quarterly_report', 'quarterly_report']); // payroll never ran
    } finally {
      await modern.close();
      await legacy.close();
    }
    // Someone in both groups, without the audit scope: payroll shows, audit_log does not (scopes still apply).
    const hr = await modernClient(handle.url, everyone);
    try {
      expect((await hr.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'quarterly_report', 'payroll']);
      await expect(hr.callTool({ name: 'audit_log', arguments: {} })).rejects.toThrow(/Unknown tool: audit_log/);
    } finally {
      await hr.close();
    }
  });

  it('asks the rule once per member per list (scoped-out members not at all), and for a call only about the member it names', async () => {
    const body = await rawModern(handle.url, everyone, 'tools/list', {});
    expect(body).toMatch(/^200 /);
    expect(asked.sort()).toEqual(['echo', 'payroll', 'quarterly_report']); // audit_log: no scope, no question
    asked.length = 0;
    await rawModern(handle.url, everyone, 'tools/call', { name: 'echo', arguments: {} }, 'echo');
    expect(asked).toEqual(['echo']);
  });

  it('answers a hidden tool byte for byte as an unknown one, on list and on call', async () => {
    const server = await serveHttp({ name: 'same', version: '1.0.0', tools: TOOLS, visible: byGroups }, { port: 0, auth });
    try {
      const hiddenCall = await rawModern(server.url, finance, 'tools/call', { name: 'payroll', arguments: {} }, 'payroll');
      const hiddenList = await rawModern(server.url, finance, 'tools/list', {});
      expect(server.tools.remove('payroll')).toBe(true);
      const unknownCall = await rawModern(server.url, finance, 'tools/call', { name: 'payroll', arguments: {} }, 'payroll');
      const unknownList = await rawModern(server.url, finance, 'tools/list', {});
      expect(hiddenCall).toBe(unknownCall);
      expect(hiddenList).toBe(unknownList);
      expect(hiddenCall).toContain('Unknown tool: payroll');
      expect(ran).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('makes the 2026-07-28 list cache private, and refuses a public one beside a rule', async () => {
    const client = await modernClient(handle.url, finance);
    try {
      const listed = (await client.listTools()) as { cacheScope?: string; ttlMs?: number };
      expect(listed.cacheScope).toBe('private');
    } finally {
      await client.close();
    }
    expect(() => createMcpServer({ name: 'x', version: '1', tools: [Echo], visible: byGroups, listCache: { cacheScope: 'public' } })).toThrow(
      /cacheScope is 'public', and the server has a visible rule/,
    );
    expect(() => createMcpServer({ name: 'x', version: '1', tools: [Echo], visible: 'finance' as never })).toThrow(/'visible' must be a function/);
    expect(() => createMcpServer({ name: 'x', version: '1', tools: [Echo], visible: byGroups, visibleTimeoutMs: 0 })).toThrow(
      /visibleTimeoutMs must be a whole number/,
    );
  });

  it.each([
    ['throws', (): boolean => { throw new Error('claims store down'); }, /threw \(claims store down\)/],
    ['rejects', (): Promise<boolean> => Promise.reject(new Error('claims store down')), /threw \(claims store down\)/],
    ['answers no boolean', (): boolean => 'yes' as never, /answered 'yes', not true or false/],
    ['is slow', (): Promise<boolean> => new Promise<boolean>(() => undefined), /did not answer within 50 ms/],
  ])('a rule that %s hides the member (fail-closed), reports it to the server, and tells the client nothing', async (_what, broken, why) => {
    const rule = (member: McpMember) => (member.name === 'echo' ? true : broken());
    const server = await serveHttp(
      { name: 'same', version: '1.0.0', tools: TOOLS, visible: rule, visibleTimeoutMs: 50 },
      { port: 0, auth, stateless: true },
    );
    try {
      const legacy = await legacyClient(server.url, everyone);
      try {
        expect((await legacy.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
        await expect(legacy.callTool({ name: 'payroll', arguments: {} })).rejects.toThrow(/Unknown tool: payroll/);
      } finally {
        await legacy.close();
      }
      const call = await rawModern(server.url, everyone, 'tools/call', { name: 'payroll', arguments: {} }, 'payroll');
      server.tools.remove('payroll');
      expect(call).toBe(await rawModern(server.url, everyone, 'tools/call', { name: 'payroll', arguments: {} }, 'payroll'));
      expect(call).not.toMatch(/claims store|visible rule/);
      expect(ran).toEqual([]);
      expect(reported.join('\n')).toMatch(why);
      expect(reported.join('\n')).toMatch(/for tool 'payroll'; it is hidden from this request \(fail-closed\)/);
    } finally {
      await server.close();
    }
  });
});
