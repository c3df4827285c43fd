/**
 * The fetch a URL server with `auth` is reached through: every request carries the stored token;
 * a 401 (no or a dead token) or a 403 `insufficient_scope` runs the SDK's `auth()` once (discovery,
 * registration, the user's approval or client credentials, refresh, step-up) and the request is
 * sent again. Every request of the OAuth flow itself goes through a guarded fetch: its URL (and
 * each redirect's) must pass the server's security policy, its answer is read to a bound, and it
 * times out.
 */
import type { FetchLike } from '@modelcontextprotocol/client';
import type { Sdk } from '../sdk';
import { McpAuthError, Secrets } from './auth-error';
import type { StoredOAuthProvider } from './oauth-provider';

/** The most an answer of the OAuth flow (a metadata document, a token response) may hold. */
export const OAUTH_RESPONSE_LIMIT = 256 * 1024;
/** Redirects followed by a GET of the flow (metadata), each checked against the policy. */
const MAX_REDIRECTS = 3;
/** How long one request of the flow may take. */
const OAUTH_TIMEOUT_MS = 30_000;

/** How much of a failure's own message (the SDK's, often an authorization server's text) an McpAuthError shows. */
const SHOWN_MESSAGE = 500;

export type UrlGuard = (url: URL, what: string) => void;

function urlOf(input: string | URL | Request): URL {
  return new URL(typeof input === 'object' && 'url' in input ? input.url : String(input));
}

/**
 * The response with its body read whole, refused past OAUTH_RESPONSE_LIMIT bytes. An error answer
 * is handed on with the flow's secrets taken out: the SDK puts an authorization server's error
 * text in its errors and warnings, and a server may echo what it was sent.
 */
async function bounded(alias: string, url: URL, response: Response, secrets: Secrets): Promise<Response> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > OAUTH_RESPONSE_LIMIT) {
        await reader.cancel().catch(() => undefined);
        throw new McpAuthError(
          alias,
          `${url.origin}${url.pathname} answered more than ${OAUTH_RESPONSE_LIMIT / 1024} KiB; an OAuth answer is a small JSON document. Check the server's metadata.`,
        );
      }
      chunks.push(value);
    }
  }
  const empty = response.status === 204 || response.status === 304;
  const body = Buffer.concat(chunks);
  return new Response(empty ? null : response.status >= 400 ? secrets.redact(body.toString('utf8')) : body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** The fetch of the OAuth flow: every URL (and redirect) through `guard`, every answer bounded, every request timed out. */
export function guardedFetch(alias: string, guard: UrlGuard, secrets: Secrets, base: FetchLike = fetch): FetchLike {
  return async (input, init) => {
    let url = urlOf(input);
    const method = (init?.method ?? 'GET').toUpperCase();
    const signals = [AbortSignal.timeout(OAUTH_TIMEOUT_MS), ...(init?.signal ? [init.signal] : [])];
    for (let hop = 0; ; hop++) {
      guard(url, 'a URL its authorization flow reaches');
      let response: Response;
      try {
        response = await base(url, { ...init, redirect: 'manual', signal: AbortSignal.any(signals) });
      } catch (error) {
        const timedOut = (error as Error)?.name === 'TimeoutError';
        throw new McpAuthError(
          alias,
          `${url.origin}${url.pathname} ${timedOut ? `did not answer within ${OAUTH_TIMEOUT_MS / 1000} s` : `could not be reached: ${(error as Error)?.message}`}.`,
        );
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null && (method === 'GET' || method === 'HEAD')) {
        await response.body?.cancel().catch(() => undefined);
        if (hop >= MAX_REDIRECTS)
          throw new McpAuthError(alias, `${url.origin}${url.pathname} redirected more than ${MAX_REDIRECTS} times.`);
        url = new URL(location, url);
        continue;
      }
      return bounded(alias, url, response, secrets);
    }
  };
}

/** Is this answer a step-up challenge (403 with `error="insufficient_scope"`)? */
function insufficientScope(sdk: Sdk, response: Response): boolean {
  return response.status === 403 && sdk.extractWWWAuthenticateParams(response).error === 'insufficient_scope';
}

export interface AuthorizingFetchOptions {
  alias: string;
  serverUrl: URL;
  provider: StoredOAuthProvider;
  sdk: Sdk;
  /** The OAuth flow's own fetch (guardedFetch). */
  flowFetch: FetchLike;
  /** The MCP requests' fetch. */
  base?: FetchLike;
}

/** The MCP requests' fetch with the server's `auth`: the token on every request, one authorization on a 401 or step-up 403. */
export function authorizingFetch(options: AuthorizingFetchOptions): FetchLike {
  const { alias, serverUrl, provider, sdk, flowFetch, base = fetch } = options;
  let running: Promise<void> | undefined;

  /** One authorization at a time: concurrent requests that were refused wait for the same one. */
  const authorize = (challenge: Response): Promise<void> => {
    running ??= authorizeOnce(challenge).finally(() => (running = undefined));
    return running;
  };

  const authorizeOnce = async (challenge: Response): Promise<void> => {
    try {
      await provider.reload();
      const { resourceMetadataUrl, scope: challenged } = sdk.extractWWWAuthenticateParams(challenge);
      const previous = await provider.tokens();
      const stepUp = challenge.status === 403;
      // The config's own scope goes with what the server asks for (the SDK chooses from the metadata when neither says).
      const scope = sdk.computeScopeUnion(provider.clientMetadata.scope, ...(stepUp ? [previous?.scope] : []), challenged);
      // A 401 with a token in hand: it no longer works here, so discovery runs again (the server may have moved to another authorization server).
      if (!stepUp) await provider.invalidateCredentials('discovery');
      const common = { serverUrl, resourceMetadataUrl, scope, fetchFn: flowFetch };
      let result = await sdk.auth(provider, {
        ...common,
        forceReauthorization: stepUp && sdk.isStrictScopeSuperset(scope, previous?.scope),
      });
      if (result === 'REDIRECT') {
        const callback = provider.callback;
        provider.callback = undefined;
        if (callback === undefined) throw new McpAuthError(alias, "the user's approval brought no authorization code back.");
        result = await sdk.auth(provider, {
          ...common,
          authorizationCode: callback.code,
          ...(callback.iss !== undefined ? { iss: callback.iss } : {}),
        });
      }
      if (result !== 'AUTHORIZED') throw new McpAuthError(alias, `the authorization server did not issue a token (${String(result)}).`);
    } catch (error) {
      if (error instanceof McpAuthError) throw error;
      if ((error as { code?: unknown })?.code === 'MCP_SECURITY') throw error;
      const name = (error as Error)?.name ?? 'Error';
      const message = String((error as Error)?.message ?? error).slice(0, SHOWN_MESSAGE);
      throw new McpAuthError(alias, provider.secrets.redact(`${name}: ${message}`));
    }
  };

  /** Each request: at most one authorization for a 401 and one step-up for a 403 `insufficient_scope` (a partial grant, then more). */
  return async (input, init) => {
    const send = async (): Promise<Response> => {
      const headers = new Headers(init?.headers);
      const tokens = await provider.tokens();
      if (tokens) headers.set('Authorization', `Bearer ${tokens.access_token}`);
      return base(input, { ...init, headers });
    };
    let authorized = false;
    let steppedUp = false;
    for (;;) {
      const response = await send();
      const stepUp = insufficientScope(sdk, response);
      if (response.status !== 401 && !stepUp) return response;
      const { scope } = sdk.extractWWWAuthenticateParams(response);
      await response.body?.cancel().catch(() => undefined);
      if (response.status === 401 && authorized) {
        throw new McpAuthError(
          alias,
          'the server still refused the token the authorization server issued (401). Check that both agree on the resource and the scopes.',
        );
      }
      if (stepUp && steppedUp) {
        throw new McpAuthError(
          alias,
          `the server still asks for more scope${scope ? ` (${scope.slice(0, 200)})` : ''} after a step-up; the authorization server did not grant it.`,
        );
      }
      if (stepUp) steppedUp = true;
      else authorized = true;
      await authorize(response);
    }
  };
}
