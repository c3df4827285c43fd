/**
 * Bearer-token authentication for serveHttp, against real HTTP on 127.0.0.1 with tokens really
 * signed by jose and verified against a JWKS: the challenges (401/403 and their WWW-Authenticate),
 * the RFC 9728 metadata document, AuthInfo reaching tools, per-tool scopes, sessions bound to
 * their creator, and the options' checks.
 */
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { InvalidRequestError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { createLocalJWKSet, errors, exportJWK, generateKeyPair, jwtVerify, SignJWT, type CryptoKey } from 'jose';
import { AmbientContext, Expects, Exposes, Tool } from 'toolwright';
import {
  createMcpServer,
  InsufficientScopeError,
  InvalidTokenError,
  mcpRequest,
  serveHttp,
  type AuthInfo,
  type McpHttpAuth,
  type McpHttpHandle,
  type McpServerOptions,
} from 'toolwright/mcp';

const ISSUER = 'https://auth.example.test';
const ran: string[] = [];

class WhoAmIInput {
  @AmbientContext() officer!: string;
}

@Tool('mcp', { name: 'who_am_i', description: 'Who is calling' })
@Expects(WhoAmIInput)
@Exposes({ officer: String, clientId: String, scopes: String, fromRequest: String, expiresAt: Number })
class WhoAmI {
  call(input: WhoAmIInput) {
    const auth = mcpRequest()?.authInfo;
    return {
      officer: input.officer,
      clientId: auth?.clientId ?? '-',
      scopes: auth?.scopes.join(' ') ?? '-',
      fromRequest: typeof auth?.extra?.sub === 'string' ? auth.extra.sub : '-',
      expiresAt: auth?.expiresAt ?? 0,
    };
  }
}

@Tool('mcp', { name: 'read_book', adapters: { mcp: { scopes: ['loans:read'] } } })
class ReadBook {
  call() {
    ran.push('read_book');
    return 'the book';
  }
}

@Tool('mcp', { name: 'approve', adapters: { mcp: { scopes: ['loans:write'] } } })
class Approve {
  call() {
    ran.push('approve');
    return 'approved';
  }
}

const serverOptions: McpServerOptions = {
  name: 'auth-test',
  version: '1.0.0',
  tools: [WhoAmI, ReadBook, Approve],
  ambientContext: (request) => ({ officer: String(request.authInfo?.extra?.sub ?? 'nobody') }),
};

let signing: CryptoKey;
let stranger: CryptoKey;
let jwks: ReturnType<typeof createLocalJWKSet>;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  signing = pair.privateKey;
  stranger = (await generateKeyPair('ES256')).privateKey;
  jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' }] });
});

beforeEach(() => {
  ran.length = 0;
});

interface Claims {
  sub?: string;
  scope?: string;
  aud?: string;
  exp?: number | string;
  key?: CryptoKey;
}

function mint(audience: string, { sub = 'officer-7', scope = 'loans:read', aud = audience, exp = '1h', key = signing }: Claims = {}): Promise<string> {
  return new SignJWT({ scope, client_id: 'desk-app' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(ISSUER)
    .setAudience(aud)
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(key);
}

/** A JWT verifier as an application writes one: jose's verdicts become InvalidTokenError. */
function jwtAuth(audience: () => string, extra: Partial<McpHttpAuth> = {}): McpHttpAuth {
  return {
    async verifyAccessToken(token) {
      try {
        const { payload } = await jwtVerify(token, jwks, { issuer: ISSUER, audience: audience() });
        return {
          token,
          clientId: String(payload.client_id),
          scopes: String(payload.scope ?? '').split(' ').filter(Boolean),
          expiresAt: payload.exp,
          extra: { sub: payload.sub },
        };
      } catch (error) {
        if (error instanceof errors.JOSEError) throw new InvalidTokenError(error.message);
        throw error;
      }
    },
    resourceMetadata: { authorizationServers: [ISSUER], scopesSupported: ['loans:read', 'loans:write'], resourceName: 'Test desk' },
    ...extra,
  };
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

function post(url: string, headers: Record<string, string> = {}, body: unknown = initialize): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

async function connect(url: string, token: string, headers: Record<string, string> = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}`, ...headers } } });
  const client = new Client({ name: 'auth-client', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('serveHttp with auth: JWTs verified against a JWKS', () => {
  let handle: McpHttpHandle;
  let prm: string;

  beforeAll(async () => {
    let url = '';
    handle = await serveHttp(serverOptions, { port: 0, auth: jwtAuth(() => url) });
    url = handle.url;
    prm = `${new URL(handle.url).origin}/.well-known/oauth-protected-resource/mcp`;
  });
  afterAll(() => handle.close());

  it('answers a request without a token 401 with a challenge naming the metadata document, and no error code in header or body (RFC 6750 §3.1)', async () => {
    const response = await post(handle.url);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${prm}"`);
    // "SHOULD NOT include an error code or other error information": the body carries none either.
    expect(await response.json()).toEqual({});
    // An empty Authorization header is no credentials too; a malformed one is an invalid token, with its code.
    const empty = await post(handle.url, { authorization: '' });
    expect([empty.status, empty.headers.get('www-authenticate'), await empty.json()]).toEqual([401, `Bearer resource_metadata="${prm}"`, {}]);
    const malformed = await post(handle.url, { authorization: 'Basic abc' });
    expect(malformed.status).toBe(401);
    expect(malformed.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    expect(await malformed.json()).toMatchObject({ error: 'invalid_token' });
    // The GET stream and DELETE need a token too: every request is verified.
    expect((await fetch(handle.url, { headers: { accept: 'text/event-stream' } })).status).toBe(401);
    expect((await fetch(handle.url, { method: 'DELETE' })).status).toBe(401);
    await expect(new Client({ name: 'c', version: '1' }).connect(new StreamableHTTPClientTransport(new URL(handle.url)))).rejects.toMatchObject({ code: 401 });
  });

  it('serves the Protected Resource Metadata document (RFC 9728) unauthenticated, readable from any origin', async () => {
    const response = await fetch(prm, { headers: { origin: 'https://inspector.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({
      resource: handle.url,
      authorization_servers: [ISSUER],
      scopes_supported: ['loans:read', 'loans:write'],
      bearer_methods_supported: ['header'],
      resource_name: 'Test desk',
    });
    const preflight = await fetch(prm, { method: 'OPTIONS', headers: { origin: 'https://x.example', 'access-control-request-headers': 'mcp-protocol-version' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('mcp-protocol-version');
    const wrongMethod = await fetch(prm, { method: 'POST' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect((await fetch(`${new URL(handle.url).origin}/.well-known/oauth-protected-resource/other`)).status).toBe(404);
  });

  it.each([
    ['a token signed with another key', async (aud: string) => mint(aud, { key: stranger }), /signature verification failed/],
    ['an expired token', async (aud: string) => mint(aud, { exp: Math.floor(Date.now() / 1000) - 60 }), /"exp" claim timestamp check failed/],
    ['a token for another audience', async (aud: string) => mint(aud, { aud: 'https://other.example/mcp' }), /unexpected "aud" claim value/],
    ['a token that is not a JWT', async () => 'not-a-jwt', /Invalid Compact JWS/],
  ])('answers %s 401 invalid_token, and the client cannot connect', async (_, token, reason) => {
    const jwt = await token(handle.url);
    const response = await post(handle.url, { authorization: `Bearer ${jwt}` });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer error="invalid_token", error_description="(?:[^"\\]|\\.)*", resource_metadata="[^"]+"$/);
    expect(challenge).toContain(`resource_metadata="${prm}"`);
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_token');
    expect(body.error_description).toMatch(reason);
    await expect(connect(handle.url, jwt)).rejects.toMatchObject({ code: 401 });
  });

  it('answers an Authorization header of another scheme 401 invalid_token', async () => {
    const response = await post(handle.url, { authorization: 'Basic b2ZmaWNlcjpzZWNyZXQ=' });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'invalid_token', error_description: "Invalid Authorization header format, expected 'Bearer TOKEN'" });
  });

  it('hands the verified AuthInfo to ambientContext and to mcpRequest() inside the tool', async () => {
    const token = await mint(handle.url, { sub: 'officer-7', scope: 'loans:read' });
    const client = await connect(handle.url, token);
    try {
      const result = await client.callTool({ name: 'who_am_i', arguments: {} });
      const exp = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).exp;
      expect(result.structuredContent).toEqual({ officer: 'officer-7', clientId: 'desk-app', scopes: 'loans:read', fromRequest: 'officer-7', expiresAt: exp });
    } finally {
      await client.close();
    }
  });

  it('lists only the tools whose scopes the token grants, and refuses the others as unknown without running them', async () => {
    const reader = await connect(handle.url, await mint(handle.url, { scope: 'loans:read' }));
    const writer = await connect(handle.url, await mint(handle.url, { scope: 'loans:read loans:write' }));
    try {
      expect((await reader.listTools()).tools.map((t) => t.name)).toEqual(['who_am_i', 'read_book']);
      expect((await writer.listTools()).tools.map((t) => t.name)).toEqual(['who_am_i', 'read_book', 'approve']);

      const hidden = await reader.callTool({ name: 'approve', arguments: {} }).catch((error: Error & { code?: number }) => error);
      const missing = await reader.callTool({ name: 'no_such_tool', arguments: {} }).catch((error: Error & { code?: number }) => error);
      expect(hidden).toMatchObject({ code: -32602, message: 'MCP error -32602: Unknown tool: approve' });
      // Exactly what an unknown tool answers: a caller cannot probe for tools it may not see.
      expect((missing as Error).message).toBe('MCP error -32602: Unknown tool: no_such_tool');
      expect(ran).toEqual([]);

      expect(await writer.callTool({ name: 'approve', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'approved' }] });
      expect(ran).toEqual(['approve']);
    } finally {
      await reader.close();
      await writer.close();
    }
  });

  it('binds a session to the identity that opened it: another officer’s token gets 404, as an unknown session', async () => {
    const ada = await post(handle.url, { authorization: `Bearer ${await mint(handle.url, { sub: 'ada' })}` });
    expect(ada.status).toBe(200);
    const session = ada.headers.get('mcp-session-id')!;
    await ada.body?.cancel();
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };

    const mallory = await post(handle.url, { ...headers, authorization: `Bearer ${await mint(handle.url, { sub: 'mallory' })}` }, list);
    expect(mallory.status).toBe(404);
    expect(await mallory.json()).toMatchObject({ error: { code: -32001, message: expect.stringContaining('Session not found') } });

    const again = await post(handle.url, { ...headers, authorization: `Bearer ${await mint(handle.url, { sub: 'ada' })}` }, list);
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });
});

describe('serveHttp auth: the verifier’s answers', () => {
  const handles: McpHttpHandle[] = [];
  afterEach(async () => {
    await Promise.all(handles.splice(0).map((h) => h.close()));
    jest.restoreAllMocks();
  });

  const serve = async (auth: McpHttpAuth, stateless = false): Promise<McpHttpHandle> => {
    const handle = await serveHttp(serverOptions, { port: 0, auth, stateless });
    handles.push(handle);
    return handle;
  };
  const info = (token: string, more: Partial<AuthInfo> = {}): AuthInfo => ({
    token,
    clientId: 'c',
    scopes: ['mcp:tools'],
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
    ...more,
  });

  it('refuses an AuthInfo that has expired, has no expiry, or was issued for another resource', async () => {
    const handle = await serve({
      verifyAccessToken: (token) =>
        token === 'expired'
          ? info(token, { expiresAt: Math.floor(Date.now() / 1000) - 1 })
          : token === 'forever'
            ? info(token, { expiresAt: undefined })
            : token === 'elsewhere'
              ? info(token, { resource: new URL('https://elsewhere.example/mcp') })
              : undefined,
    });
    for (const [token, description] of [
      ['expired', 'Token has expired'],
      ['forever', 'Token has no expiration time'],
      ['elsewhere', 'Token was not issued for this resource'],
      ['unknown', 'The access token is not valid'],
    ]) {
      const response = await post(handle.url, { authorization: `Bearer ${token}` });
      expect([token, response.status, await response.json()]).toEqual([token, 401, { error: 'invalid_token', error_description: description }]);
      // No resourceMetadata configured: no resource_metadata parameter to point to.
      expect(response.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", error_description="${description}"`);
    }
  });

  it('answers 403 insufficient_scope, naming the scopes, when the token lacks requiredScopes', async () => {
    const handle = await serve({
      verifyAccessToken: (token) => info(token, { scopes: token === 'narrow' ? ['loans:read'] : ['mcp:tools', 'loans:read'] }),
      requiredScopes: ['mcp:tools'],
      resourceMetadata: { authorizationServers: [ISSUER], resource: 'https://desk.example/mcp' },
    });
    const narrow = await post(handle.url, { authorization: 'Bearer narrow' });
    expect(narrow.status).toBe(403);
    expect(narrow.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", error_description="Insufficient scope: needs mcp:tools", scope="mcp:tools", ' +
        'resource_metadata="https://desk.example/.well-known/oauth-protected-resource/mcp"',
    );
    expect(await narrow.json()).toEqual({ error: 'insufficient_scope', error_description: 'Insufficient scope: needs mcp:tools' });
    // The 401 tells the client which scopes to ask for, too.
    expect((await post(handle.url)).headers.get('www-authenticate')).toBe(
      'Bearer scope="mcp:tools", resource_metadata="https://desk.example/.well-known/oauth-protected-resource/mcp"',
    );
    // An explicit resource: the document lives at that URL's path and names it.
    const doc = await fetch(`${new URL(handle.url).origin}/.well-known/oauth-protected-resource/mcp`);
    expect(await doc.json()).toMatchObject({ resource: 'https://desk.example/mcp' });
    const wide = await post(handle.url, { authorization: 'Bearer wide' });
    expect(wide.status).toBe(200);
    await wide.body?.cancel();
  });

  it('maps the SDK’s errors thrown by the verifier; escapes what they say in the header', async () => {
    const handle = await serve({
      verifyAccessToken: (token) => {
        if (token === 'scope') throw new InsufficientScopeError('needs admin');
        if (token === 'request') throw new InvalidRequestError('token bound to another client');
        throw new InvalidTokenError('bad "token"\r\nSet-Cookie: x=1');
      },
    });
    const scope = await post(handle.url, { authorization: 'Bearer scope' });
    expect(scope.status).toBe(403);
    expect(scope.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", error_description="needs admin"');
    const request = await post(handle.url, { authorization: 'Bearer request' });
    expect([request.status, await request.json()]).toEqual([400, { error: 'invalid_request', error_description: 'token bound to another client' }]);
    const injected = await post(handle.url, { authorization: 'Bearer inject' });
    expect(injected.status).toBe(401);
    expect(injected.headers.get('set-cookie')).toBeNull();
    expect(injected.headers.get('www-authenticate')).toBe('Bearer error="invalid_token", error_description="bad \\"token\\" Set-Cookie: x=1"');
  });

  it('answers 500 when the verifier fails unexpectedly, logs it once, and sends nothing of it', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const handle = await serve({
      verifyAccessToken: () => {
        throw new Error('database password is hunter2');
      },
    });
    const response = await post(handle.url, { authorization: 'Bearer x' });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: 'server_error', error_description: 'Internal Server Error' });
    expect(text).not.toContain('hunter2');
    expect(response.headers.get('www-authenticate')).toBeNull();
    expect(log).toHaveBeenCalledTimes(1);
    expect(String(log.mock.calls[0][0])).toContain('auth.verifyAccessToken threw');
  });

  it('answers 500 when the verifier returns something that is not an AuthInfo', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const handle = await serve({ verifyAccessToken: () => ({ clientId: 'c' }) as unknown as AuthInfo });
    expect((await post(handle.url, { authorization: 'Bearer x' })).status).toBe(500);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('returned an AuthInfo without token'));
  });

  it('verifies every request in stateless mode too', async () => {
    const handle = await serve({ verifyAccessToken: (token) => (token === 'good' ? info(token) : undefined) }, true);
    expect((await post(handle.url)).status).toBe(401);
    expect((await post(handle.url, { authorization: 'Bearer bad' })).status).toBe(401);
    const good = await post(handle.url, { authorization: 'Bearer good' });
    expect(good.status).toBe(200);
    await good.body?.cancel();
  });
});

describe('serveHttp auth options are checked before the server listens', () => {
  const verifyAccessToken = () => undefined;
  it.each([
    [{ verifyAccessToken: 'yes' }, "serveHttp: auth.verifyAccessToken must be a function (token, request) => AuthInfo; got 'yes'."],
    [{ verifyAccessToken, requiredScope: ['a'] }, "serveHttp: auth: unknown option 'requiredScope'. Known: 'verifyAccessToken', 'resourceMetadata' and 'requiredScopes'."],
    [{ verifyAccessToken, requiredScopes: ['loans write'] }, "serveHttp: auth.requiredScopes must hold scope names (non-empty, no spaces or quotes); 'loans write' is not one; got ['loans write']."],
    [
      { verifyAccessToken, resourceMetadata: { authorizationServers: [] } },
      "serveHttp: auth.resourceMetadata.authorizationServers must list at least one issuer URL, e.g. ['https://auth.example.com']; got [].",
    ],
    [
      { verifyAccessToken, resourceMetadata: { authorizationServers: ['auth.example.com'] } },
      "serveHttp: auth.resourceMetadata.authorizationServers must be an absolute http(s) URL such as 'https://auth.example.com'; got 'auth.example.com'.",
    ],
    [
      { verifyAccessToken, resourceMetadata: { authorizationServers: [ISSUER], resource: 'https://x.example/mcp#a' } },
      "serveHttp: auth.resourceMetadata.resource must not have a fragment; got 'https://x.example/mcp#a'.",
    ],
  ])('%j', async (auth, message) => {
    await expect(serveHttp(serverOptions, { port: 0, auth: auth as unknown as McpHttpAuth })).rejects.toThrow(message);
  });
});

describe('per-tool scopes without auth: fail-closed', () => {
  async function listAndCall(options: Partial<McpServerOptions>): Promise<{ names: string[]; call: unknown }> {
    const server = createMcpServer({ ...serverOptions, ...options });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'c', version: '1' });
    await Promise.all([server.connect(a), client.connect(b)]);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      const call = await client.callTool({ name: 'approve', arguments: {} }).catch((error: Error) => error.message);
      return { names, call };
    } finally {
      await client.close();
    }
  }

  it('hides and refuses a tool with scopes when the request carries no auth info', async () => {
    expect(await listAndCall({})).toEqual({ names: ['who_am_i'], call: 'MCP error -32602: Unknown tool: approve' });
    expect(ran).toEqual([]);
  });

  it('grants unauthenticatedScopes to such requests', async () => {
    const { names, call } = await listAndCall({ unauthenticatedScopes: ['loans:write'] });
    expect(names).toEqual(['who_am_i', 'approve']);
    expect(call).toMatchObject({ content: [{ type: 'text', text: 'approved' }] });
    expect(ran).toEqual(['approve']);
  });

  it('checks unauthenticatedScopes and per-tool scopes when they are declared', () => {
    expect(() => createMcpServer({ ...serverOptions, unauthenticatedScopes: 'loans:write' as unknown as string[] })).toThrow(
      "createMcpServer: unauthenticatedScopes must be a list of scope names, e.g. ['loans:write']; got 'loans:write'.",
    );
    expect(() => {
      @Tool('mcp', { adapters: { mcp: { scopes: [''] } } })
      class EmptyScope {
        call() {}
      }
      return EmptyScope;
    }).toThrow("EmptyScope: scopes must hold scope names (non-empty, no spaces or quotes); '' is not one; got [''] (adapter 'mcp').");
    expect(() => {
      @Tool('mcp', { adapters: { mcp: { scopes: 'loans:write' as unknown as string[] } } })
      class StringScope {
        call() {}
      }
      return StringScope;
    }).toThrow("StringScope: scopes must be a list of scope names, e.g. ['loans:write']; got 'loans:write' (adapter 'mcp').");
  });
});

describe('the start-up warning for an exposed server', () => {
  afterEach(() => jest.restoreAllMocks());

  it('warns once when listening beyond loopback without auth or allowedHosts', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const open = await serveHttp(serverOptions, { port: 0, host: '0.0.0.0' });
    await open.close();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(/listening on 0\.0\.0\.0, which other machines can reach, without authentication.*auth: \{ verifyAccessToken \}.*allowedHosts/);

    warn.mockClear();
    for (const http of [
      { host: '0.0.0.0', auth: { verifyAccessToken: () => undefined } },
      { host: '0.0.0.0', allowedHosts: ['desk.example'] },
      { host: '127.0.0.2' },
      { host: 'localhost' },
    ]) {
      const handle = await serveHttp(serverOptions, { port: 0, ...http });
      await handle.close();
    }
    expect(warn).not.toHaveBeenCalled();
  });

  it('warns when the published resource would be a wildcard address', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const auth = { verifyAccessToken: () => undefined, resourceMetadata: { authorizationServers: [ISSUER] } };
    await (await serveHttp(serverOptions, { port: 0, host: '0.0.0.0', auth })).close();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain('set auth.resourceMetadata.resource to the URL clients use');
    warn.mockClear();
    await (await serveHttp(serverOptions, { port: 0, host: '0.0.0.0', auth: { ...auth, resourceMetadata: { ...auth.resourceMetadata, resource: 'https://mcp.example.com/mcp' } } })).close();
    expect(warn).not.toHaveBeenCalled();
  });
});
