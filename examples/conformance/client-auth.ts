/**
 * The auth/* scenarios of the conformance client: the `auth` a host would put in its server
 * config. The suite's authorization server approves at once: following the authorization URL
 * with a plain GET answers a redirect to the callback with the code, which is what a user's
 * browser would bring back (so `onAuthorizationUrl` resolves with that Location). Scenario data
 * (pre-registered clients, keys) comes in MCP_CONFORMANCE_CONTEXT.
 */
import type { McpOAuthConfig } from 'toolwright/mcp-client';

/** The client metadata document URL the suite's authorization server accepts as a client ID. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const REDIRECT_URL = 'http://localhost:3000/callback';

/** The "browser": follows the authorization URL once and hands back where it redirects. */
async function approve(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  await response.body?.cancel();
  if (location === null) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  return location;
}

/**
 * Enterprise-managed authorization: the user's ID token from the enterprise IdP is exchanged there
 * (RFC 8693) for an identity assertion grant (ID-JAG) for this authorization server and resource,
 * which the client then presents with the jwt-bearer grant.
 */
async function identityAssertionGrant(context: Record<string, string | undefined>, audience: string, resource: string): Promise<string> {
  const response = await fetch(context.idp_token_endpoint!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      subject_token: context.idp_id_token!,
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      audience,
      resource,
      client_id: context.idp_client_id!,
    }),
  });
  const answer = (await response.json()) as { access_token?: string; error?: string };
  if (!response.ok || typeof answer.access_token !== 'string')
    throw new Error(`the IdP refused the token exchange: ${answer.error ?? response.status}`);
  return answer.access_token;
}

/** The `auth` config for an auth/* scenario; undefined for the others. */
export function authFor(scenario: string | undefined, context: Record<string, string | undefined>): McpOAuthConfig | undefined {
  if (scenario === undefined || !scenario.startsWith('auth/')) return undefined;
  switch (scenario) {
    case 'auth/client-credentials-basic':
      return { grant: 'client_credentials', clientId: context.client_id, clientSecret: context.client_secret };
    case 'auth/client-credentials-jwt':
      return {
        grant: 'client_credentials',
        clientId: context.client_id,
        privateKey: context.private_key_pem,
        ...(context.signing_algorithm ? { signingAlgorithm: context.signing_algorithm } : {}),
      };
    case 'auth/wif-jwt-bearer':
      // The workload's identity token, as a platform would mount it.
      return { grant: 'jwt_bearer', clientId: context.client_id, assertion: () => context.valid_jwt! };
    case 'auth/enterprise-managed-authorization':
      return {
        grant: 'jwt_bearer',
        clientId: context.client_id,
        clientSecret: context.client_secret,
        assertion: ({ authorizationServer, resource }) => identityAssertionGrant(context, authorizationServer, resource),
      };
    case 'auth/dpop':
    case 'auth/dpop-nonce':
      return {
        redirectUrl: REDIRECT_URL,
        clientMetadataUrl: CLIENT_METADATA_URL,
        clientName: 'toolwright-conformance',
        onAuthorizationUrl: approve,
        dpop: true,
      };
    case 'auth/pre-registration':
      return { redirectUrl: REDIRECT_URL, clientId: context.client_id, clientSecret: context.client_secret, onAuthorizationUrl: approve };
    default:
      return {
        redirectUrl: REDIRECT_URL,
        clientMetadataUrl: CLIENT_METADATA_URL,
        clientName: 'toolwright-conformance',
        onAuthorizationUrl: approve,
      };
  }
}
