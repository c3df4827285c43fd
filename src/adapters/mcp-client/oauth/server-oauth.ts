/**
 * A URL server's OAuth, as its connection uses it: the fetch its transport sends through, and the
 * flow's own errors found wherever the SDK wrapped them.
 */
import type { FetchLike } from '@modelcontextprotocol/client';
import type { McpSecurityPolicy } from '../security-policy';
import { loadSdk } from '../sdk';
import { Secrets } from './auth-error';
import type { McpOAuthConfig } from './oauth-config';
import { authorizingFetch, guardedFetch } from './oauth-fetch';
import { StoredOAuthProvider } from './oauth-provider';

/**
 * The fetch of a server with `auth`: made once per connection (its provider holds the tokens and
 * the flow in progress), the SDK loaded on its first request. Every URL of the flow passes `security`.
 */
export function serverOAuthFetch(alias: string, url: string, auth: McpOAuthConfig, security: McpSecurityPolicy): FetchLike {
  let made: Promise<FetchLike> | undefined;
  const make = async (): Promise<FetchLike> => {
    const sdk = await loadSdk();
    const guard = (target: URL, what: string) => security.checkAuthUrl(alias, target, what);
    const secrets = new Secrets();
    const provider = new StoredOAuthProvider(alias, auth, url, guard, secrets, sdk);
    return authorizingFetch({
      alias,
      serverUrl: new URL(url),
      provider,
      sdk,
      flowFetch: guardedFetch(alias, guard, secrets),
      ...(auth.dpop ? { base: sdk.withDpopFromProvider(provider)(fetch) } : {}),
    });
  };
  return async (input, init) => (await (made ??= make()))(input, init);
}

/** An McpAuthError or McpSecurityError of a server's OAuth flow, wherever the SDK wrapped it. */
export function authFailure(error: unknown): Error | undefined {
  for (let cause = error, depth = 0; typeof cause === 'object' && cause !== null && depth < 5; cause = (cause as Error).cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (code === 'MCP_AUTH' || code === 'MCP_SECURITY') return cause as Error;
  }
  return undefined;
}
