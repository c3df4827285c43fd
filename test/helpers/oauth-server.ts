/**
 * A small real OAuth 2.1 authorization server on 127.0.0.1 for the MCP client's OAuth tests:
 * RFC 8414 metadata, dynamic registration, an authorization endpoint that approves at once
 * (redirecting to the client's redirect URI with code, state and iss, as a user's browser would
 * come back), PKCE S256, and a token endpoint for authorization_code, refresh_token and
 * client_credentials. Its tokens are what `verifyAccessToken` of a toolwright server checks.
 * `tweak` lets a test make it misbehave (another token endpoint, a huge or lying document).
 */
import { createHash, randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface IssuedToken {
  token: string;
  clientId: string;
  scopes: string[];
  resource?: string;
  expired: boolean;
}

export interface TestAuthServer {
  url: string;
  /** Every access token issued, by value. */
  tokens: Map<string, IssuedToken>;
  /** Grant types the token endpoint saw, in order. */
  grants: string[];
  /** Authorization requests seen (their query). */
  authorizations: URLSearchParams[];
  /** Clients by id (dynamic or `preRegister`). */
  preRegister(clientId: string, clientSecret: string): void;
  /** Marks every token issued so far expired (the resource server then answers 401). */
  expireAll(): void;
  /** The scopes the next authorizations grant, whatever is asked (a user approving part of a request); undefined grants what is asked. */
  grantOnly?: string[];
  /** Answers the metadata request with a redirect here instead, when set. */
  metadataRedirect?: string;
  /** Changes to the metadata document. */
  metadata: Record<string, unknown>;
  /** Answers the token endpoint with what this returns instead, when set. */
  tokenAnswer?: (form: URLSearchParams) => { status: number; body: unknown };
  /** A verifier for a toolwright server: the token's scopes while it is not expired. */
  verify(token: string): { token: string; clientId: string; scopes: string[]; expiresAt: number } | undefined;
  close(): Promise<void>;
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function form(req: http.IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return new URLSearchParams(text);
}

export async function startAuthServer(): Promise<TestAuthServer> {
  const clients = new Map<string, { secret?: string }>();
  const codes = new Map<string, { clientId: string; challenge: string; scopes: string[]; resource?: string }>();
  const refreshes = new Map<string, { clientId: string; scopes: string[]; resource?: string }>();
  let counter = 0;
  const issue = (clientId: string, scopes: string[], resource?: string) => {
    const token = `at-${++counter}-${randomBytes(8).toString('hex')}`;
    const refresh = `rt-${counter}-${randomBytes(8).toString('hex')}`;
    as.tokens.set(token, { token, clientId, scopes, resource, expired: false });
    refreshes.set(refresh, { clientId, scopes, resource });
    return { access_token: token, token_type: 'Bearer', expires_in: 3600, refresh_token: refresh, scope: scopes.join(' ') };
  };
  const authenticate = (req: http.IncomingMessage, body: URLSearchParams): string | undefined => {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    const [id, secret] = basic
      ? Buffer.from(basic[1], 'base64').toString().split(':').map(decodeURIComponent)
      : [body.get('client_id') ?? '', body.get('client_secret') ?? undefined];
    const client = clients.get(id);
    return client && client.secret === (secret || undefined) ? id : undefined;
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', as.url);
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      if (as.metadataRedirect !== undefined) {
        res.writeHead(302, { location: as.metadataRedirect });
        return res.end();
      }
      return json(res, 200, {
        issuer: as.url,
        authorization_endpoint: `${as.url}/authorize`,
        token_endpoint: `${as.url}/token`,
        registration_endpoint: `${as.url}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        authorization_response_iss_parameter_supported: true,
        ...as.metadata,
      });
    }
    if (url.pathname === '/register' && req.method === 'POST') {
      let text = '';
      for await (const chunk of req) text += chunk;
      const metadata = JSON.parse(text) as Record<string, unknown>;
      const clientId = `client-${++counter}`;
      clients.set(clientId, {});
      return json(res, 201, { ...metadata, client_id: clientId, token_endpoint_auth_method: 'none' });
    }
    if (url.pathname === '/authorize') {
      const query = url.searchParams;
      as.authorizations.push(query);
      const code = `code-${++counter}-${randomBytes(8).toString('hex')}`;
      const asked = (query.get('scope') ?? '').split(' ').filter(Boolean);
      codes.set(code, {
        clientId: query.get('client_id') ?? '',
        challenge: query.get('code_challenge') ?? '',
        scopes: as.grantOnly ?? asked,
        resource: query.get('resource') ?? undefined,
      });
      const back = new URL(query.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', query.get('state') ?? '');
      back.searchParams.set('iss', as.url);
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const body = await form(req);
      const grant = body.get('grant_type') ?? '';
      as.grants.push(grant);
      if (as.tokenAnswer) {
        const answer = as.tokenAnswer(body);
        return json(res, answer.status, answer.body);
      }
      const clientId = authenticate(req, body);
      if (clientId === undefined) return json(res, 401, { error: 'invalid_client' });
      if (grant === 'authorization_code') {
        const entry = codes.get(body.get('code') ?? '');
        codes.delete(body.get('code') ?? '');
        const verifier = body.get('code_verifier') ?? '';
        if (!entry || entry.clientId !== clientId || createHash('sha256').update(verifier).digest('base64url') !== entry.challenge) {
          return json(res, 400, { error: 'invalid_grant' });
        }
        return json(res, 200, issue(clientId, entry.scopes, entry.resource));
      }
      if (grant === 'refresh_token') {
        const entry = refreshes.get(body.get('refresh_token') ?? '');
        if (!entry || entry.clientId !== clientId) return json(res, 400, { error: 'invalid_grant' });
        refreshes.delete(body.get('refresh_token')!);
        return json(res, 200, issue(clientId, entry.scopes, entry.resource));
      }
      if (grant === 'client_credentials') return json(res, 200, issue(clientId, (body.get('scope') ?? '').split(' ').filter(Boolean)));
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    json(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const as: TestAuthServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tokens: new Map(),
    grants: [],
    authorizations: [],
    metadata: {},
    preRegister: (clientId, clientSecret) => void clients.set(clientId, { secret: clientSecret }),
    expireAll: () => {
      for (const token of as.tokens.values()) token.expired = true;
    },
    verify: (token) => {
      const issued = as.tokens.get(token);
      if (!issued || issued.expired) return undefined;
      return { token, clientId: issued.clientId, scopes: issued.scopes, expiresAt: Math.floor(Date.now() / 1000) + 3600 };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return as;
}
