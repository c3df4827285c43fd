/**
 * The `auth` of a URL server's config: OAuth 2.1 as the MCP authorization spec says, for a user
 * (authorization code with PKCE, the user approving in a browser) or a service (client
 * credentials). Checked with the rest of the config, before anything is reached.
 */
import { checkKnownKeys, describeValue } from '../../../adapter-kit';
import { isPlainObject } from '../../../adapter-kit/internal';
import { DeclarationError } from '../../../index';
import type { McpTokenStore } from './token-stores';

/**
 * How a host lets the user approve: it opens `authorizationUrl` (a browser, a printed link) and
 * resolves with the URL the authorization server redirected back to (at the config's
 * `redirectUrl`, with `code`, `state` and maybe `iss` in its query). toolwright checks the state,
 * the issuer and any `error` there before the code is redeemed.
 */
export type McpAuthorizationHandler = (authorizationUrl: URL) => Promise<URL | string>;

/** What an `assertion` function is told: the authorization server the assertion is for, the server's resource, the scope asked. */
export interface McpAssertionContext {
  authorizationServer: string;
  resource: string;
  scope?: string;
}

/**
 * OAuth for a remote MCP server reached by URL (`{ url, auth: { ... } }`). The server's protected
 * resource metadata names its authorization server; discovery, registration (pre-registered,
 * a client ID metadata document, or dynamic), PKCE, the resource indicator, scope selection and
 * step-up, refresh and the issuer checks follow the MCP authorization spec. Every URL the flow
 * reaches passes the same security policy as the server's own URL.
 */
export interface McpOAuthConfig {
  /**
   * `'authorization_code'` (default): a user approves in a browser, through `onAuthorizationUrl`.
   * `'client_credentials'`: a service authenticates as itself, with `clientId` and `clientSecret`
   * or `privateKey`; no user, no redirect. `'jwt_bearer'` (RFC 7523): a JWT from elsewhere (a
   * workload identity token, an enterprise IdP's ID-JAG), from `assertion`, is exchanged for a token.
   */
  grant?: 'authorization_code' | 'client_credentials' | 'jwt_bearer';
  /** jwt_bearer: returns the JWT to present (fetch it fresh: it is short-lived). Its value is a secret. */
  assertion?: (context: McpAssertionContext) => Promise<string> | string;
  /** Bind tokens to a key of this connection with DPoP (RFC 9449) where the authorization server supports it; a new connection gets a new key. */
  dpop?: boolean;
  /** A client registered with the authorization server beforehand; without one, the client registers (a metadata document or dynamically). */
  clientId?: string;
  /** The pre-registered client's secret (with `clientId`). A secret: it never appears in errors or logs. */
  clientSecret?: string;
  /** client_credentials with `private_key_jwt`: the client's private key, PEM (PKCS#8). A secret too. */
  privateKey?: string;
  /** The JWS algorithm of `privateKey` (default `'ES256'`). */
  signingAlgorithm?: string;
  /** An `https:` URL (with a path) of this client's metadata document, used as its client ID where the authorization server supports it. */
  clientMetadataUrl?: string;
  /** The client's name in a registration (default `'toolwright'`). */
  clientName?: string;
  /** authorization_code: where the authorization server sends the user back (the host listens there, e.g. `http://127.0.0.1:8765/callback`). */
  redirectUrl?: string;
  /** The scopes to ask for (space-separated). Default: what the server's challenge or metadata names. */
  scope?: string;
  /** authorization_code: how the host lets the user approve (see McpAuthorizationHandler). Without it, a flow that needs the user fails with an McpAuthError. */
  onAuthorizationUrl?: McpAuthorizationHandler;
  /** Where tokens and registrations are kept (default: in memory, for this connection only). */
  store?: McpTokenStore;
}

const KEYS = [
  'grant',
  'clientId',
  'clientSecret',
  'privateKey',
  'signingAlgorithm',
  'clientMetadataUrl',
  'clientName',
  'redirectUrl',
  'scope',
  'onAuthorizationUrl',
  'store',
  'assertion',
  'dpop',
];
const SECRET_KEYS = new Set(['clientSecret', 'privateKey']);
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/;

function parsedUrl(where: string, key: string, value: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new DeclarationError(`${where}: 'auth.${key}' ${describeValue(value)} is not a valid URL.`);
  }
}

/** Validates a config's `auth`; mistakes name the server and the key, never a secret's value. */
export function checkOAuthConfig(where: string, value: unknown): McpOAuthConfig {
  if (!isPlainObject(value))
    throw new DeclarationError(
      `${where}: 'auth' must be an object such as { redirectUrl, onAuthorizationUrl }; got ${describeValue(value)}.`,
    );
  checkKnownKeys(`${where}: 'auth'`, value, KEYS, { noun: 'key' });
  const config = { ...value } as Record<string, unknown>;
  for (const key of KEYS.filter((k) => !['onAuthorizationUrl', 'store', 'assertion', 'dpop'].includes(k))) {
    const item = config[key];
    if (item !== undefined && (typeof item !== 'string' || item.trim() === '')) {
      const got = SECRET_KEYS.has(key) ? `a ${typeof item === 'string' ? 'blank string' : typeof item}` : describeValue(item);
      throw new DeclarationError(`${where}: 'auth.${key}' must be a non-empty string; got ${got}.`);
    }
  }
  const grant = config.grant ?? 'authorization_code';
  if (grant !== 'authorization_code' && grant !== 'client_credentials' && grant !== 'jwt_bearer') {
    throw new DeclarationError(
      `${where}: 'auth.grant' must be 'authorization_code', 'client_credentials' or 'jwt_bearer'; got ${describeValue(config.grant)}.`,
    );
  }
  if (config.dpop !== undefined && typeof config.dpop !== 'boolean')
    throw new DeclarationError(`${where}: 'auth.dpop' must be true or false; got ${describeValue(config.dpop)}.`);
  if (
    (config.assertion !== undefined || grant === 'jwt_bearer') &&
    (grant !== 'jwt_bearer' || typeof config.assertion !== 'function' || config.clientId === undefined || config.privateKey !== undefined)
  ) {
    throw new DeclarationError(
      `${where}: grant 'jwt_bearer' goes with 'auth.assertion', a function returning the JWT to present, and 'auth.clientId' (and a 'clientSecret' if the client has one; no 'privateKey').`,
    );
  }
  if (config.onAuthorizationUrl !== undefined && typeof config.onAuthorizationUrl !== 'function') {
    throw new DeclarationError(
      `${where}: 'auth.onAuthorizationUrl' must be a function (authorizationUrl) => Promise<redirect URL>; got ${describeValue(config.onAuthorizationUrl)}.`,
    );
  }
  const store = config.store as Partial<McpTokenStore> | undefined;
  if (
    store !== undefined &&
    (typeof store !== 'object' ||
      store === null ||
      ['get', 'set', 'delete'].some((m) => typeof store[m as keyof McpTokenStore] !== 'function'))
  ) {
    throw new DeclarationError(
      `${where}: 'auth.store' must be a token store with get, set and delete (new MemoryTokenStore(), new FileTokenStore(path), …); got ${describeValue(store)}.`,
    );
  }
  if (config.scope !== undefined && !SCOPE.test(config.scope as string)) {
    throw new DeclarationError(
      `${where}: 'auth.scope' must be scope names separated by single spaces; got ${describeValue(config.scope)}.`,
    );
  }
  if (config.clientSecret !== undefined && config.clientId === undefined) {
    throw new DeclarationError(`${where}: 'auth.clientSecret' needs the 'auth.clientId' it belongs to.`);
  }
  if (config.clientMetadataUrl !== undefined) {
    const url = parsedUrl(where, 'clientMetadataUrl', config.clientMetadataUrl as string);
    if (url.protocol !== 'https:' || url.pathname === '/') {
      throw new DeclarationError(
        `${where}: 'auth.clientMetadataUrl' must be an https: URL with a path (it is the client's ID); got ${describeValue(config.clientMetadataUrl)}.`,
      );
    }
  }
  if (grant !== 'authorization_code') {
    const interactive = ['redirectUrl', 'onAuthorizationUrl', 'clientMetadataUrl'].find((key) => config[key] !== undefined);
    if (interactive !== undefined) {
      throw new DeclarationError(
        `${where}: 'auth.${interactive}' is for a user's approval; grant '${grant}' has none. Remove it, or use grant 'authorization_code'.`,
      );
    }
  }
  if (grant === 'client_credentials') {
    if (config.clientId === undefined || (config.clientSecret === undefined) === (config.privateKey === undefined)) {
      throw new DeclarationError(
        `${where}: grant 'client_credentials' needs 'auth.clientId' and either 'auth.clientSecret' or 'auth.privateKey' (not both).`,
      );
    }
  } else if (grant === 'authorization_code') {
    if (config.privateKey !== undefined) {
      throw new DeclarationError(
        `${where}: 'auth.privateKey' is for grant 'client_credentials'; a user's approval (grant 'authorization_code') uses 'auth.clientSecret' or none.`,
      );
    }
    if (config.redirectUrl === undefined) {
      throw new DeclarationError(
        `${where}: 'auth.redirectUrl' is required for grant 'authorization_code': the URL the authorization server sends the user back to, where the host listens (e.g. 'http://127.0.0.1:8765/callback').`,
      );
    }
    parsedUrl(where, 'redirectUrl', config.redirectUrl as string);
  }
  return config as McpOAuthConfig;
}
