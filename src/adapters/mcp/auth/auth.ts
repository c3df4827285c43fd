import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  OAuthError,
  OAuthErrorCode,
  type AuthInfo,
  type OAuthErrorResponse,
  type OAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/server';
import { checkKnownKeys, describeValue, isLoopbackHost, KnownKeysStyle } from '../../../adapter-kit';
import { isPlainObject } from '../../../adapter-kit/internal';
import { DeclarationError } from '../../../index';

/**
 * Bearer-token authentication for `serveHttp` (the MCP authorization spec, 2025-06-18 and
 * 2025-11-25: the MCP server is an OAuth 2.1 resource server). Every request to the MCP endpoint
 * is verified, session or not.
 */
export interface McpHttpAuth {
  /**
   * Checks an access token and returns what it grants. A token that is not valid (bad signature,
   * wrong audience, revoked): throw `InvalidTokenError` (exported by `toolwright/mcp`)
   * or return `undefined`; both answer 401 `invalid_token`. `InsufficientScopeError` answers 403.
   * Anything else thrown is a fault of the server: 500, logged, nothing of it sent to the caller.
   * The returned `expiresAt` (seconds since the epoch) is required, as in the SDK's `requireBearerAuth`.
   */
  verifyAccessToken(token: string, request: IncomingMessage): AuthInfo | undefined | Promise<AuthInfo | undefined>;
  /**
   * The OAuth 2.0 Protected Resource Metadata (RFC 9728) to publish at
   * `/.well-known/oauth-protected-resource{path}`, and to point to from every 401.
   */
  resourceMetadata?: McpResourceMetadata;
  /** Scopes every request needs (403 `insufficient_scope` without them). Default none. */
  requiredScopes?: readonly string[];
}

/** `auth.resourceMetadata`: the OAuth 2.0 Protected Resource Metadata (RFC 9728) served for this server, which every 401 points to. */
export interface McpResourceMetadata {
  /** Issuer URLs of the authorization servers that issue tokens for this server (at least one). */
  authorizationServers: readonly string[];
  /**
   * This server's resource identifier (the `aud`/`resource` of its tokens). Default: the served URL,
   * e.g. `http://127.0.0.1:3000/mcp`; set it to the public URL behind a proxy or on 0.0.0.0.
   */
  resource?: string;
  scopesSupported?: readonly string[];
  /** A human-readable name of the server. */
  resourceName?: string;
  /** A URL of documentation for developers. */
  resourceDocumentation?: string;
}

export type { AuthInfo };

/** Thrown by `verifyAccessToken` for a token that is not valid: answered 401 `invalid_token`. */
export class InvalidTokenError extends OAuthError {
  constructor(message: string, errorUri?: string) {
    super(OAuthErrorCode.InvalidToken, message, errorUri);
    this.name = 'InvalidTokenError';
  }
}

/** Thrown by `verifyAccessToken` for a valid token that lacks a scope: answered 403 `insufficient_scope`. */
export class InsufficientScopeError extends OAuthError {
  constructor(message: string, errorUri?: string) {
    super(OAuthErrorCode.InsufficientScope, message, errorUri);
    this.name = 'InsufficientScopeError';
  }
}

/** What `serveHttp` uses: the PRM route and the per-request check (the caller's identity is callerIdentity's). */
export interface HttpAuthGate {
  /** Answers the Protected Resource Metadata request, when it is one; true when answered. */
  serveMetadata(req: IncomingMessage, res: ServerResponse, pathname: string): boolean;
  /** The verified AuthInfo (also set as `req.auth` for the SDK transport), or null when answered. */
  authenticate(req: IncomingMessage, res: ServerResponse): Promise<AuthInfo | null>;
}

/** How this file's unknown-key messages read: every unknown key, the known ones quoted. */
const QUOTED_KNOWN: KnownKeysStyle = { all: true, heading: 'Known', quoted: true };
const AUTH_KEYS = ['verifyAccessToken', 'resourceMetadata', 'requiredScopes'];
const METADATA_KEYS = ['authorizationServers', 'resource', 'scopesSupported', 'resourceName', 'resourceDocumentation'];
/** RFC 6749 scope-token: printable ASCII without space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const BEARER = /^Bearer +(\S+) *$/i;

/** Validates `serveHttp(…, { auth })` and builds its gate; `servedUrl` is read once the server listens. */
export function httpAuthGate(auth: McpHttpAuth, servedUrl: () => string): HttpAuthGate {
  checkAuthOptions(auth);
  const metadata = auth.resourceMetadata;
  const requiredScopes = [...(auth.requiredScopes ?? [])];
  const resource = (): string => metadata?.resource ?? servedUrl();
  const metadataUrl = (): string | undefined => (metadata ? protectedResourceMetadataUrl(resource()) : undefined);

  const challenge = (res: ServerResponse, status: 401 | 403, error: OAuthErrorResponse, withErrorCode: boolean): null => {
    const params: Array<[string, string]> = [];
    if (withErrorCode) params.push(['error', error.error], ['error_description', error.error_description ?? '']);
    if (requiredScopes.length > 0) params.push(['scope', requiredScopes.join(' ')]);
    const prm = metadataUrl();
    if (prm) params.push(['resource_metadata', prm]);
    const header = params.length ? `Bearer ${params.map(([k, v]) => `${k}="${quoted(v)}"`).join(', ')}` : 'Bearer';
    // Without an error code in the challenge, none in the body either ("no error code or other error information").
    sendJson(res, status, withErrorCode ? error : {}, { 'www-authenticate': header });
    return null;
  };

  return {
    serveMetadata(req, res, pathname) {
      if (!metadata || pathname !== new URL(protectedResourceMetadataUrl(resource())).pathname) return false;
      serveMetadataDocument(req, res, {
        resource: resource(),
        authorization_servers: [...metadata.authorizationServers],
        ...(metadata.scopesSupported ? { scopes_supported: [...metadata.scopesSupported] } : {}),
        bearer_methods_supported: ['header'],
        ...(metadata.resourceName !== undefined ? { resource_name: metadata.resourceName } : {}),
        ...(metadata.resourceDocumentation !== undefined ? { resource_documentation: metadata.resourceDocumentation } : {}),
      });
      return true;
    },

    async authenticate(req, res) {
      const header = req.headers.authorization;
      if (header === undefined || header === '') {
        // RFC 6750 §3.1: a request without credentials gets a challenge with no error code (header and body).
        return challenge(res, 401, new InvalidTokenError('Missing Authorization header').toResponseObject(), false);
      }
      const match = BEARER.exec(header);
      if (!match) {
        const error = new InvalidTokenError("Invalid Authorization header format, expected 'Bearer TOKEN'");
        return challenge(res, 401, error.toResponseObject(), true);
      }
      let authInfo: AuthInfo | undefined;
      try {
        authInfo = (await auth.verifyAccessToken(match[1], req)) ?? undefined;
      } catch (error) {
        const oauth = asOAuthError(error);
        if (oauth?.error === 'invalid_token') return challenge(res, 401, oauth, true);
        if (oauth?.error === 'insufficient_scope') return challenge(res, 403, oauth, true);
        if (oauth && oauth.error !== 'server_error') {
          sendJson(res, 400, oauth); // another OAuth error the verifier chose (invalid_request, …), as the SDK answers it
          return null;
        }
        console.error(
          'toolwright/mcp: auth.verifyAccessToken threw; answered 500 (throw InvalidTokenError for a token that is not valid):',
          error,
        );
        return serverError(res);
      }
      if (authInfo === undefined)
        return challenge(res, 401, new InvalidTokenError('The access token is not valid').toResponseObject(), true);
      const problem = malformed(authInfo);
      if (problem) {
        console.error(
          `toolwright/mcp: auth.verifyAccessToken returned ${problem}; answered 500. Return an AuthInfo { token, clientId, scopes, expiresAt }.`,
        );
        return serverError(res);
      }
      const invalid = (message: string) => challenge(res, 401, new InvalidTokenError(message).toResponseObject(), true);
      if (typeof authInfo.expiresAt !== 'number' || Number.isNaN(authInfo.expiresAt)) return invalid('Token has no expiration time');
      if (authInfo.expiresAt < Date.now() / 1000) return invalid('Token has expired');
      if (authInfo.resource !== undefined && comparable(authInfo.resource) !== comparable(resource())) {
        return invalid('Token was not issued for this resource');
      }
      const missing = requiredScopes.filter((scope) => !authInfo.scopes.includes(scope));
      if (missing.length > 0) {
        return challenge(res, 403, new InsufficientScopeError(`Insufficient scope: needs ${missing.join(' ')}`).toResponseObject(), true);
      }
      (req as IncomingMessage & { auth?: AuthInfo }).auth = authInfo; // what StreamableHTTPServerTransport reads
      return authInfo;
    },
  };
}

/** `https://host/mcp` → `https://host/.well-known/oauth-protected-resource/mcp` (RFC 9728 §3.1). */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname !== '/' ? url.pathname : '';
  return new URL(`/.well-known/oauth-protected-resource${path}`, url).href;
}

/**
 * One warning when a server is reachable from other machines and checks nobody; one when its
 * resource identifier would be derived from a wildcard address no client can use.
 */
export function warnIfExposed(host: string, options: { auth?: McpHttpAuth; allowedHosts?: readonly string[] }): void {
  const metadata = options.auth?.resourceMetadata;
  if (metadata && metadata.resource === undefined && /^(0\.0\.0\.0|::|\[::\])$/.test(host)) {
    console.warn(
      `toolwright/mcp: serveHttp listens on ${host}, so the resource identifier it publishes would be http://${host}:…; ` +
        "set auth.resourceMetadata.resource to the URL clients use, e.g. 'https://mcp.example.com/mcp'.",
    );
  }
  if (isLoopbackHost(host) || options.auth !== undefined || options.allowedHosts !== undefined) return;
  console.warn(
    `toolwright/mcp: serveHttp is listening on ${host}, which other machines can reach, without authentication: ` +
      'anyone who can connect can list and call every tool. Pass { auth: { verifyAccessToken } } to verify Bearer tokens, ' +
      "and/or allowedHosts to answer only your server's own host names; or listen on 127.0.0.1.",
  );
}

/**
 * Who holds a session: the client, and the token's subject and issuer (`extra.sub`, `extra.iss`)
 * whatever their JSON type, compared exactly: 101 is not "101", and a missing subject is not any
 * present one. An identity that cannot be written down (a cycle, say) matches nothing, not even
 * itself, so such a session serves no second request rather than anybody's.
 */
export function ownerIdentity(authInfo: AuthInfo): string {
  const extra: Record<string, unknown> = authInfo.extra ?? {};
  // [] for a claim that is absent, [value] for one that is there (null included).
  const claim = (key: string) => (extra[key] === undefined ? [] : [extra[key]]);
  try {
    return JSON.stringify([authInfo.clientId, claim('sub'), claim('iss')], (_key, value: unknown) =>
      typeof value === 'bigint' ? { bigint: String(value) } : value,
    );
  } catch {
    return `unmatchable:${randomUUID()}`;
  }
}

/** A thrown SDK OAuthError (recognised by shape: the ESM and CommonJS copies are different classes). */
function asOAuthError(error: unknown): OAuthErrorResponse | undefined {
  // The SDK 2.x OAuthError names its code `code`; the 1.x errors (still thrown by applications) `errorCode`.
  const candidate = error as { errorCode?: unknown; code?: unknown; toResponseObject?: unknown } | null;
  const code = typeof candidate?.errorCode === 'string' ? candidate.errorCode : candidate?.code;
  if (!(error instanceof Error) || typeof code !== 'string' || typeof candidate?.toResponseObject !== 'function') return undefined;
  const response = (candidate.toResponseObject as () => unknown).call(error) as OAuthErrorResponse;
  return {
    error: code,
    error_description: typeof response?.error_description === 'string' ? response.error_description : error.message,
  };
}

function malformed(authInfo: unknown): string | undefined {
  if (!isPlainObject(authInfo) && (typeof authInfo !== 'object' || authInfo === null)) return describeValue(authInfo);
  const info = authInfo as Partial<AuthInfo>;
  if (typeof info.token !== 'string') return 'an AuthInfo without token (a string)';
  if (typeof info.clientId !== 'string') return 'an AuthInfo without clientId (a string)';
  if (!Array.isArray(info.scopes) || !info.scopes.every((s) => typeof s === 'string'))
    return 'an AuthInfo without scopes (a list of strings)';
  return undefined;
}

/** The SDK's rule for resource identifiers: no fragment, at most one trailing slash ignored. */
function comparable(value: URL | string): string {
  const text = String(value);
  const hash = text.indexOf('#');
  return (hash === -1 ? text : text.slice(0, hash)).replace(/\/$/, '');
}

/** A quoted-string parameter value: no control characters (header injection), `"` and `\` escaped. */
function quoted(value: string): string {
  return value.replace(/[\x00-\x1F\x7F]+/g, ' ').replace(/[\\"]/g, (c) => `\\${c}`);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers }).end(JSON.stringify(body));
}

function serverError(res: ServerResponse): null {
  sendJson(res, 500, { error: 'server_error', error_description: 'Internal Server Error' });
  return null;
}

/** As the SDK's metadata handler (cors() and GET/OPTIONS only): public, readable from any origin. */
function serveMetadataDocument(req: IncomingMessage, res: ServerResponse, document: OAuthProtectedResourceMetadata): void {
  const cors: Record<string, string> = { 'access-control-allow-origin': '*' };
  if (req.method === 'OPTIONS') {
    const requested = req.headers['access-control-request-headers'];
    res
      .writeHead(204, {
        ...cors,
        'access-control-allow-methods': 'GET,HEAD,OPTIONS',
        ...(typeof requested === 'string' ? { 'access-control-allow-headers': requested, vary: 'Access-Control-Request-Headers' } : {}),
        'content-length': '0',
      })
      .end();
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendJson(
      res,
      405,
      { error: 'method_not_allowed', error_description: `The method ${req.method} is not allowed for this endpoint` },
      { ...cors, allow: 'GET, HEAD, OPTIONS' },
    );
    return;
  }
  const body = JSON.stringify(document);
  res.writeHead(200, { ...cors, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function checkAuthOptions(auth: McpHttpAuth): void {
  const where = 'serveHttp: auth';
  if (!isPlainObject(auth))
    throw new DeclarationError(
      `${where} must be an object { verifyAccessToken, resourceMetadata?, requiredScopes? }; got ${describeValue(auth)}.`,
    );
  checkKnownKeys(where, auth, AUTH_KEYS, QUOTED_KNOWN);
  if (typeof auth.verifyAccessToken !== 'function') {
    throw new DeclarationError(
      `${where}.verifyAccessToken must be a function (token, request) => AuthInfo; got ${describeValue(auth.verifyAccessToken)}.`,
    );
  }
  checkScopes(auth.requiredScopes, `${where}.requiredScopes`);
  const metadata = auth.resourceMetadata;
  if (metadata === undefined) return;
  if (!isPlainObject(metadata))
    throw new DeclarationError(`${where}.resourceMetadata must be an object { authorizationServers, … }; got ${describeValue(metadata)}.`);
  checkKnownKeys(`${where}.resourceMetadata`, metadata, METADATA_KEYS, QUOTED_KNOWN);
  const servers = metadata.authorizationServers;
  if (!Array.isArray(servers) || servers.length === 0) {
    throw new DeclarationError(
      `${where}.resourceMetadata.authorizationServers must list at least one issuer URL, e.g. ['https://auth.example.com']; got ${describeValue(servers)}.`,
    );
  }
  for (const server of servers) checkUrl(server, `${where}.resourceMetadata.authorizationServers`);
  if (metadata.resource !== undefined) {
    checkUrl(metadata.resource, `${where}.resourceMetadata.resource`);
    if (new URL(metadata.resource).hash)
      throw new DeclarationError(`${where}.resourceMetadata.resource must not have a fragment; got ${describeValue(metadata.resource)}.`);
  }
  if (metadata.resourceDocumentation !== undefined)
    checkUrl(metadata.resourceDocumentation, `${where}.resourceMetadata.resourceDocumentation`);
  if (metadata.resourceName !== undefined && (typeof metadata.resourceName !== 'string' || metadata.resourceName.trim() === '')) {
    throw new DeclarationError(
      `${where}.resourceMetadata.resourceName must be a non-empty string; got ${describeValue(metadata.resourceName)}.`,
    );
  }
  checkScopes(metadata.scopesSupported, `${where}.resourceMetadata.scopesSupported`);
}

function checkUrl(value: unknown, where: string): void {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new DeclarationError(`${where} must be an absolute http(s) URL such as 'https://auth.example.com'; got ${describeValue(value)}.`);
  }
}

/** Scope names: a list of non-empty strings without spaces or quotes (RFC 6749 scope-tokens). */
export function scopeListProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return "must be a list of scope names, e.g. ['loans:write']";
  const bad = value.find((scope) => typeof scope !== 'string' || !SCOPE_TOKEN.test(scope));
  return bad === undefined ? undefined : `must hold scope names (non-empty, no spaces or quotes); ${describeValue(bad)} is not one`;
}

function checkScopes(value: unknown, where: string): void {
  if (value === undefined) return;
  const problem = scopeListProblem(value);
  if (problem) throw new DeclarationError(`${where} ${problem}; got ${describeValue(value)}.`);
}
