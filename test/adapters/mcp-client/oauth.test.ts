/**
 * toolwright/mcp-client's `auth` against a real toolwright server behind `serveHttp({ auth })` and a
 * small real authorization server (test/helpers/oauth-server.ts), both on 127.0.0.1: discovery,
 * registration, PKCE, the user's approval through onAuthorizationUrl, refresh of an expired token,
 * step-up on 403 insufficient_scope, a file store kept across connections, client credentials;
 * then what the flow must refuse (a URL the policy does not allow, a lying or oversized document,
 * a forged redirect back) and the secrets it must never let out.
 */
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Tool } from 'toolwright';
import { mcpRequest, serveHttp, type McpHttpHandle } from 'toolwright/mcp';
import {
  admitMcpServer,
  connectMcpServer,
  FileTokenStore,
  McpAuthError,
  McpOAuthConfig,
  McpSecurityError,
  McpSecurityPolicy,
  McpServerConnection,
  RedisTokenStore,
} from 'toolwright/mcp-client';
import { Toolbox } from 'toolwright/openai';
import Redis from 'ioredis';
import { startRedis, TestRedis } from '../../helpers/redis';
import { startAuthServer, TestAuthServer } from '../../helpers/oauth-server';

@Tool('mcp', { name: 'whoami', description: 'The caller and its scopes' })
class WhoAmI {
  call() {
    const auth = mcpRequest()?.authInfo;
    return `${auth?.clientId} ${auth?.scopes.join(',')}`;
  }
}

const REDIRECT = 'http://127.0.0.1:8765/callback';
const security = new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['127.0.0.1'] });

let as: TestAuthServer;
let server: McpHttpHandle;
/** A server whose metadata names an authorization server on a host the policy does not allow. */
let elsewhere: McpHttpHandle;
const open: McpServerConnection[] = [];
const approvals: URL[] = [];
let tmp: string;

/** The user's browser: follows the authorization URL and brings back where the server redirects it. */
async function approve(url: URL): Promise<string> {
  approvals.push(url);
  const response = await fetch(url, { redirect: 'manual' });
  return response.headers.get('location')!;
}

function serve(authorizationServer: () => string): Promise<McpHttpHandle> {
  return serveHttp(
    { name: 'oauth-test', version: '1.0.0', tools: [WhoAmI] },
    {
      port: 0,
      auth: {
        verifyAccessToken: (token) => as.verify(token),
        requiredScopes: ['mcp:read', 'mcp:write'],
        resourceMetadata: { authorizationServers: [authorizationServer()], scopesSupported: ['mcp:read', 'mcp:write'] },
      },
    },
  );
}

beforeAll(async () => {
  as = await startAuthServer();
  server = await serve(() => as.url);
  elsewhere = await serve(() => as.url.replace('127.0.0.1', 'localhost'));
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-oauth-'));
});
afterAll(async () => {
  for (const connection of open) await connection.close();
  await server?.close();
  await elsewhere?.close();
  await as?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});
beforeEach(() => {
  approvals.length = 0;
  as.metadata = {};
  as.tokenAnswer = undefined;
  as.grantOnly = undefined;
  as.metadataRedirect = undefined;
});

async function connect(auth: McpOAuthConfig | undefined, url = server.url): Promise<McpServerConnection> {
  const connection = await connectMcpServer(admitMcpServer('books', { url, ...(auth ? { auth } : {}) }, { security }));
  open.push(connection);
  return connection;
}

async function whoami(connection: McpServerConnection, tool = 'whoami'): Promise<string> {
  const result = await connection.callTool(tool);
  return (result.content[0] as { text: string }).text;
}

describe('the flow', () => {
  it('discovers the authorization server, registers, has the user approve (PKCE, state, resource, scope) and calls with the token', async () => {
    const connection = await connect({ redirectUrl: REDIRECT, onAuthorizationUrl: approve });
    expect(await whoami(connection)).toMatch(/^client-\d+ mcp:read,mcp:write$/);
    expect(approvals).toHaveLength(1);
    const query = approvals[0].searchParams;
    expect(`${approvals[0].origin}${approvals[0].pathname}`).toBe(`${as.url}/authorize`);
    expect(query.get('code_challenge_method')).toBe('S256');
    expect(query.get('resource')).toBe(server.url);
    expect(query.get('scope')).toBe('mcp:read mcp:write');
    expect(query.get('state')).toMatch(/^[\w-]{20,}$/);
  });

  it("asks for the config's scope beside the challenge's", async () => {
    const connection = await connect({ redirectUrl: REDIRECT, onAuthorizationUrl: approve, scope: 'offline_access mcp:read' });
    expect(await whoami(connection)).toMatch(/ offline_access,mcp:read,mcp:write$/);
    expect(approvals[0].searchParams.get('scope')).toBe('offline_access mcp:read mcp:write');
  });

  it('refreshes an expired token without asking the user again', async () => {
    const connection = await connect({ redirectUrl: REDIRECT, onAuthorizationUrl: approve });
    await whoami(connection);
    as.expireAll();
    as.grants.length = 0;
    expect(await whoami(connection)).toContain('mcp:read,mcp:write');
    expect(approvals).toHaveLength(1);
    expect(as.grants).toEqual(['refresh_token']);
  });

  it('steps up on 403 insufficient_scope: the user granted only part, and is asked again for the union', async () => {
    as.grantOnly = ['mcp:read'];
    const connection = await connect({
      redirectUrl: REDIRECT,
      onAuthorizationUrl: async (url) => {
        const back = await approve(url);
        as.grantOnly = undefined; // the second time, the user approves everything
        return back;
      },
    });
    expect(await whoami(connection)).toContain('mcp:read,mcp:write');
    expect(approvals.map((url) => url.searchParams.get('scope'))).toEqual(['mcp:read mcp:write', 'mcp:read mcp:write']);
  });

  it('gives up after one step-up when the authorization server still grants too little', async () => {
    as.grantOnly = ['mcp:read'];
    const failure = connect({ redirectUrl: REDIRECT, onAuthorizationUrl: approve });
    await expect(failure).rejects.toThrow(McpAuthError);
    await expect(failure).rejects.toThrow(/still asks for more scope \(mcp:read mcp:write\) after a step-up/);
    expect(approvals).toHaveLength(2);
  });

  it('keeps tokens in a file store (mode 0600) that a later connection uses without the user', async () => {
    const file = path.join(tmp, 'tokens.json');
    const first = await connect({ redirectUrl: REDIRECT, onAuthorizationUrl: approve, store: new FileTokenStore(file) });
    const who = await whoami(first);
    await first.close();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const later = await connect({
      redirectUrl: REDIRECT,
      store: new FileTokenStore(file),
      onAuthorizationUrl: () => Promise.reject(new Error('the user should not be asked again')),
    });
    expect(await whoami(later)).toBe(who);
    expect(approvals).toHaveLength(1);
  });

  it('authenticates a service with client credentials, no user involved', async () => {
    as.preRegister('reporting-service', 'svc-secret-1');
    const connection = await connect({ grant: 'client_credentials', clientId: 'reporting-service', clientSecret: 'svc-secret-1' });
    expect(await whoami(connection)).toBe('reporting-service mcp:read,mcp:write');
    expect(approvals).toHaveLength(0);
  });

  it('fails clearly when a user must approve and the config has no onAuthorizationUrl', async () => {
    await expect(connect({ redirectUrl: REDIRECT })).rejects.toThrow(
      new McpAuthError('books', `a user must approve access at ${as.url}, and its config has no 'auth.onAuthorizationUrl' to ask one. Give one (open the URL, resolve with the URL the user is sent back to), or a store that already holds its tokens.`),
    );
  });
});

describe('the same config wherever a remote server is used', () => {
  it("a Toolbox's remote server and a server mount reach the server through the flow", async () => {
    const toolbox = new Toolbox();
    expect(await toolbox.addMcpServer('books', { url: server.url, auth: { redirectUrl: REDIRECT, onAuthorizationUrl: approve } }, { security })).toEqual([
      'mcp__books__whoami',
    ]);
    await toolbox.close();
    const mounted = admitMcpServer('books', { url: server.url, auth: { redirectUrl: REDIRECT, onAuthorizationUrl: approve } }, { security });
    const gateway = await serveHttp({ name: 'gateway', version: '1.0.0', mounts: [{ namespace: 'books', server: mounted }] }, { port: 0 });
    try {
      const viaGateway = await connect(undefined, gateway.url);
      expect(await whoami(viaGateway, 'books_whoami')).toMatch(/^client-\d+ mcp:read,mcp:write$/);
    } finally {
      await gateway.close();
    }
    expect(approvals).toHaveLength(2);
  });
});

describe('a Redis store', () => {
  let redis: TestRedis;
  let client: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.connection);
  });
  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  it('keeps tokens under its prefix for every process that shares it', async () => {
    const store = new RedisTokenStore(client, { prefix: 'desk:' });
    const first = await connect({ redirectUrl: REDIRECT, onAuthorizationUrl: approve, store });
    const who = await whoami(first);
    await first.close();
    expect(JSON.parse((await client.get(`desk:${server.url}`))!).tokens.token_type).toBe('Bearer');
    const later = await connect({ redirectUrl: REDIRECT, store: new RedisTokenStore(client, { prefix: 'desk:' }) });
    expect(await whoami(later)).toBe(who);
    expect(approvals).toHaveLength(1);
    await store.delete(server.url);
    expect(await client.exists(`desk:${server.url}`)).toBe(0);
  });

  it('refuses something that is not a Redis client', () => {
    expect(() => new RedisTokenStore({} as never)).toThrow('RedisTokenStore takes an ioredis client (new Redis(...)); got {}.');
  });
});

describe('what the flow refuses', () => {
  it("refuses an authorization server on a host the server's policy does not allow, before reaching it", async () => {
    as.grants.length = 0;
    const failure = connect({ redirectUrl: REDIRECT, onAuthorizationUrl: approve }, elsewhere.url);
    await expect(failure).rejects.toThrow(McpSecurityError);
    await expect(failure).rejects.toThrow(/a URL its authorization flow reaches \(http:\/\/localhost:\d+\/\.well-known\/oauth-authorization-server\): the host localhost is not in the allowlist/);
    expect(approvals).toHaveLength(0);
  });

  it('refuses a token endpoint the metadata puts on a host the policy does not allow: the code is never sent there', async () => {
    as.metadata = { token_endpoint: `${as.url.replace('127.0.0.1', 'localhost')}/token` };
    as.grants.length = 0;
    await expect(connect({ redirectUrl: REDIRECT, onAuthorizationUrl: approve })).rejects.toThrow(/the host localhost is not in the allowlist/);
    expect(as.grants).toEqual([]);
  });

  it('refuses an authorization endpoint the policy does not allow before the user is sent there', async () => {
    as.metadata = { authorization_endpoint: 'http://authorize.example/authorize' };
    await expect(connect({ redirectUrl: REDIRECT, onAuthorizationUrl: approve })).rejects.toThrow(
      /its authorization endpoint \(http:\/\/authorize\.example\/authorize\): plain http to authorize\.example is refused/,
    );
    expect(approvals).toHaveLength(0);
  });

  it('refuses authorization server metadata whose issuer is not the server it came from', async () => {
    as.metadata = { issuer: 'http://127.0.0.1:1' };
    await expect(connect({ redirectUrl: REDIRECT, onAuthorizationUrl: approve })).rejects.toThrow(McpAuthError);
    expect(approvals).toHaveLength(0);
  });

  it('refuses a metadata document past the bound, without reading it whole', async () => {
    as.metadata = { padding: 'x'.repeat(300 * 1024) };
    await expect(connect({ redirectUrl: REDIRECT, onAuthorizationUrl: approve })).rejects.toThrow(
      new RegExp(`${as.url.replace(/\./g, '\\.')}/\\.well-known/oauth-authorization-server answered more than 256 KiB`),
    );
  });

  it('follows a redirect of a metadata request only to a URL the policy allows, and at most 3', async () => {
    as.metadataRedirect = `${as.url.replace('127.0.0.1', 'localhost')}/.well-known/oauth-authorization-server`;
    await expect(connect({ redirectUrl: REDIRECT, onAuthorizationUrl: approve })).rejects.toThrow(/the host localhost is not in the allowlist/);
    as.metadataRedirect = `${as.url}/.well-known/oauth-authorization-server`;
    await expect(connect({ redirectUrl: REDIRECT, onAuthorizationUrl: approve })).rejects.toThrow(
      new RegExp(`${as.url.replace(/\./g, '\\.')}/\\.well-known/oauth-authorization-server redirected more than 3 times`),
    );
  });

  it('refuses a redirect back that does not carry the state it sent (a forged approval)', async () => {
    const forged = async (url: URL) => {
      const back = new URL(await approve(url));
      back.searchParams.set('state', 'forged');
      return back;
    };
    await expect(connect({ redirectUrl: REDIRECT, onAuthorizationUrl: forged })).rejects.toThrow(/does not carry the state this client sent/);
  });

  it('refuses a redirect back with an iss other than the authorization server (mix-up)', async () => {
    const mixedUp = async (url: URL) => {
      const back = new URL(await approve(url));
      back.searchParams.set('iss', 'https://attacker.example');
      return back;
    };
    as.grants.length = 0;
    await expect(connect({ redirectUrl: REDIRECT, onAuthorizationUrl: mixedUp })).rejects.toThrow(McpAuthError);
    expect(as.grants).toEqual([]);
  });
});

describe('secrets', () => {
  /** Every message, stack and cause of an error, and what was logged meanwhile. */
  async function everythingSaid(run: () => Promise<unknown>): Promise<string> {
    const logged: unknown[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      jest.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(...args)),
    );
    let said = '';
    try {
      await run();
      throw new Error('expected the flow to fail');
    } catch (error) {
      for (let e = error as Error | undefined; e; e = e.cause as Error | undefined) said += `${String(e)}\n${e.stack}\n${JSON.stringify(e)}\n`;
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    return said + logged.map((item) => (item instanceof Error ? `${item.stack}` : String(item))).join('\n');
  }

  it('keeps the client secret, the code and the verifier out of a failed code exchange', async () => {
    as.preRegister('desk-app', 'desk-secret-7f3a9');
    const seen: string[] = ['desk-secret-7f3a9'];
    as.tokenAnswer = (form) => {
      seen.push(form.get('code')!, form.get('code_verifier')!);
      return { status: 400, body: { error: 'invalid_grant', error_description: `bad ${form.get('code')} ${form.get('code_verifier')} desk-secret-7f3a9` } };
    };
    const said = await everythingSaid(() =>
      connect({ redirectUrl: REDIRECT, onAuthorizationUrl: approve, clientId: 'desk-app', clientSecret: 'desk-secret-7f3a9' }),
    );
    expect(said).toContain('invalid_grant');
    expect(said).toContain('[redacted]');
    for (const secret of seen) expect(said).not.toContain(secret);
  });

  it('keeps the access and refresh tokens out of a failed refresh', async () => {
    const before = as.tokens.size;
    const connection = await connect({ redirectUrl: REDIRECT, onAuthorizationUrl: approve });
    await whoami(connection);
    const tokens = [...as.tokens.keys()].slice(before); // this connection's
    as.expireAll();
    const seen: string[] = [...tokens];
    as.tokenAnswer = (form) => {
      if (form.has('refresh_token')) seen.push(form.get('refresh_token')!);
      return { status: 400, body: { error: 'invalid_grant', error_description: `${form.get('refresh_token')} ${tokens.join(' ')} revoked` } };
    };
    const said = await everythingSaid(() => whoami(connection));
    expect(said).toContain('invalid_grant');
    for (const secret of seen) expect(said).not.toContain(secret);
  });
});

describe('the auth config', () => {
  const admit = (auth: unknown, headers?: Record<string, string>) =>
    admitMcpServer('books', { url: 'https://books.example/mcp', auth, ...(headers ? { headers } : {}) }, { security });

  it.each([
    ['not an object', 'yes', /'auth' must be an object such as \{ redirectUrl, onAuthorizationUrl \}; got 'yes'/],
    ['an unknown key', { redirectUrl: REDIRECT, clientSecrets: 'x' }, /'auth': unknown key 'clientSecrets'/],
    ['no redirectUrl for a user', { onAuthorizationUrl: approve }, /'auth.redirectUrl' is required for grant 'authorization_code'/],
    ['client credentials without a secret or key', { grant: 'client_credentials', clientId: 'svc' }, /needs 'auth.clientId' and either 'auth.clientSecret' or 'auth.privateKey'/],
    ['client credentials with a redirect', { grant: 'client_credentials', clientId: 'svc', clientSecret: 's', redirectUrl: REDIRECT }, /'auth.redirectUrl' is for a user's approval; grant 'client_credentials' has none/],
    ['jwt_bearer without an assertion', { grant: 'jwt_bearer', clientId: 'svc' }, /grant 'jwt_bearer' goes with 'auth.assertion'/],
    ['an http client metadata URL', { redirectUrl: REDIRECT, clientMetadataUrl: 'http://app.example/client.json' }, /'auth.clientMetadataUrl' must be an https: URL with a path/],
    ['a store without delete', { redirectUrl: REDIRECT, store: { get() {}, set() {} } }, /'auth.store' must be a token store with get, set and delete/],
    ['a malformed scope', { redirectUrl: REDIRECT, scope: 'a  b' }, /'auth.scope' must be scope names separated by single spaces/],
    ['an unknown grant', { grant: 'password' }, /'auth.grant' must be 'authorization_code', 'client_credentials' or 'jwt_bearer'; got 'password'/],
  ])('refuses %s, naming the server and the key', (_case, auth, message) => {
    expect(() => admit(auth)).toThrow(message);
    expect(() => admit(auth)).toThrow(/^MCP server 'books': /);
  });

  it('never shows a secret it refuses', () => {
    expect(() => admit({ grant: 'client_credentials', clientId: 'svc', clientSecret: 12345678 })).toThrow(
      "MCP server 'books': 'auth.clientSecret' must be a non-empty string; got a number.",
    );
  });

  it('refuses an Authorization header beside auth', () => {
    expect(() => admit({ redirectUrl: REDIRECT }, { authorization: 'Bearer x' })).toThrow(
      "MCP server 'books': give either an Authorization header or 'auth', not both ('auth' sets the header from its tokens).",
    );
  });

  it('is not for a command server', () => {
    expect(() => admitMcpServer('books', { command: 'node', auth: { redirectUrl: REDIRECT } }, { security: McpSecurityPolicy.trusted() })).toThrow(
      /unknown key 'auth'/,
    );
  });
});
