/**
 * The SDK's OAuthClientProvider for one remote server's `auth` config: tokens and registration in
 * its store, PKCE verifier and state in memory, the user's approval through the host's
 * `onAuthorizationUrl`, client credentials (secret or private key) for a service.
 */
import { randomBytes } from 'node:crypto';
import type {
  AddClientAuthentication,
  DpopSession,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { Sdk } from '../sdk';
import { McpAuthError, Secrets } from './auth-error';
import type { McpOAuthConfig } from './oauth-config';
import { MemoryTokenStore, McpTokenStore } from './token-stores';

interface Saved {
  tokens?: StoredOAuthTokens;
  client?: StoredOAuthClientInformation;
}

/** What the authorization server sent the user back with: the code to redeem and its `iss`. */
export interface Callback {
  code: string;
  iss?: string;
}

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** How long an answer from the authorization server's error may be, as shown. */
const SHOWN = 200;

export class StoredOAuthProvider implements OAuthClientProvider {
  private readonly store: McpTokenStore;
  private saved?: Saved;
  private verifier?: string;
  private pendingState?: string;
  private discovery?: OAuthDiscoveryState;
  /** The pre-registered client as the SDK stamped it with its authorization server. */
  private preRegistered?: StoredOAuthClientInformation;
  /** The approval the last redirect brought back, taken by the flow that started it. */
  callback?: Callback;
  readonly addClientAuthentication?: AddClientAuthentication;

  constructor(
    private readonly alias: string,
    private readonly config: McpOAuthConfig,
    /** The store key: the server's URL. */
    private readonly key: string,
    /** Throws an McpSecurityError when the policy refuses a URL the flow would send the user to. */
    private readonly guard: (url: URL, what: string) => void,
    readonly secrets: Secrets,
    private readonly sdk: Sdk,
  ) {
    this.store = config.store ?? new MemoryTokenStore();
    secrets.add(config.clientSecret, config.privateKey);
    if (config.privateKey !== undefined) {
      this.addClientAuthentication = sdk.createPrivateKeyJwtAuth({
        issuer: config.clientId!,
        subject: config.clientId!,
        privateKey: config.privateKey,
        alg: config.signingAlgorithm ?? 'ES256',
      });
    }
  }

  private get interactive(): boolean {
    return (this.config.grant ?? 'authorization_code') === 'authorization_code';
  }

  private authorizationServer?: string;
  private resource?: string;
  private dpopSession?: Promise<DpopSession>;

  saveAuthorizationServerUrl(url: string): void {
    this.authorizationServer = url;
  }

  authorizationServerUrl(): string | undefined {
    return this.authorizationServer;
  }

  saveResourceUrl(url: string): void {
    this.resource = url;
  }

  resourceUrl(): string | undefined {
    return this.resource;
  }

  /** With `auth.dpop`: one key for this connection's tokens and proofs. */
  dpop(): Promise<DpopSession> | undefined {
    if (!this.config.dpop) return undefined;
    this.dpopSession ??= this.sdk.DpopSession.create();
    return this.dpopSession;
  }

  get redirectUrl(): string | undefined {
    return this.interactive ? this.config.redirectUrl : undefined;
  }

  get clientMetadataUrl(): string | undefined {
    return this.config.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.config.clientName ?? 'toolwright',
      redirect_uris: this.interactive ? [this.config.redirectUrl!] : [],
      ...(this.interactive ? {} : { grant_types: [this.config.grant === 'jwt_bearer' ? JWT_BEARER : 'client_credentials'] }),
      ...(this.config.privateKey !== undefined ? { token_endpoint_auth_method: 'private_key_jwt' } : {}),
      ...(this.config.scope !== undefined ? { scope: this.config.scope } : {}),
    };
  }

  state(): string {
    this.pendingState = randomBytes(24).toString('base64url');
    return this.pendingState;
  }

  /** Reads the store again (another process may have refreshed the tokens): each authorization starts so. */
  async reload(): Promise<void> {
    this.saved = undefined;
    await this.load();
  }

  private async load(): Promise<Saved> {
    if (this.saved === undefined) {
      const text = await this.store.get(this.key);
      let saved: Saved = {};
      if (typeof text === 'string') {
        try {
          saved = JSON.parse(text) as Saved;
        } catch {
          saved = {}; // unreadable: authorize anew, and the next save replaces it
        }
      }
      this.saved = saved;
      this.secrets.add(saved.tokens?.access_token, saved.tokens?.refresh_token, saved.client?.client_secret);
    }
    return this.saved;
  }

  private async save(change: (saved: Saved) => void): Promise<void> {
    const saved = { ...(await this.load()) };
    change(saved);
    this.saved = saved;
    if (saved.tokens === undefined && saved.client === undefined) await this.store.delete(this.key);
    else await this.store.set(this.key, JSON.stringify(saved));
  }

  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    if (this.config.clientId !== undefined) {
      // Until the SDK stamps it, it belongs to the authorization server discovery found now.
      const issuer = this.discovery?.authorizationServerMetadata?.issuer;
      return (
        this.preRegistered ?? {
          client_id: this.config.clientId,
          ...(this.config.clientSecret !== undefined ? { client_secret: this.config.clientSecret } : {}),
          ...(issuer !== undefined ? { issuer } : {}),
        }
      );
    }
    return (await this.load()).client;
  }

  async saveClientInformation(client: StoredOAuthClientInformation): Promise<void> {
    if (this.config.clientId !== undefined) {
      // Pre-registered: the config's, never replaced; the SDK's stamp of its issuer is kept (in memory, with the secret).
      if (client.client_id === this.config.clientId) this.preRegistered = client;
      return;
    }
    this.secrets.add(client.client_secret);
    await this.save((saved) => void (saved.client = client));
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    return (await this.load()).tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    this.secrets.add(tokens.access_token, tokens.refresh_token, tokens.id_token);
    await this.save((saved) => void (saved.tokens = tokens));
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
    if (scope === 'all' || scope === 'client' || scope === 'tokens') {
      await this.save((saved) => {
        if (scope !== 'tokens') delete saved.client;
        if (scope !== 'client') delete saved.tokens;
      });
    }
  }

  saveCodeVerifier(verifier: string): void {
    this.secrets.add(verifier);
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined)
      throw new McpAuthError(this.alias, 'no authorization is in progress (no PKCE verifier); connect again.');
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    if (this.interactive) return undefined;
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    if (this.config.grant === 'jwt_bearer') {
      if (this.authorizationServer === undefined || this.resource === undefined) {
        throw new McpAuthError(
          this.alias,
          "grant 'jwt_bearer' needs the server's protected resource metadata (its resource and authorization server), and discovery found none.",
        );
      }
      let assertion: unknown;
      try {
        assertion = await this.config.assertion!({
          authorizationServer: this.authorizationServer,
          resource: this.resource,
          ...(scope ? { scope } : {}),
        });
      } catch (error) {
        throw new McpAuthError(
          this.alias,
          this.secrets.redact(`its 'auth.assertion' failed: ${(error as Error)?.message ?? String(error)}`),
        );
      }
      if (typeof assertion !== 'string' || assertion === '')
        throw new McpAuthError(this.alias, "its 'auth.assertion' must return the JWT to present, a non-empty string.");
      this.secrets.add(assertion);
      params.set('grant_type', JWT_BEARER);
      params.set('assertion', assertion);
    }
    if (scope) params.set('scope', scope);
    return params;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.callback = undefined;
    const fail = (message: string): never => {
      throw new McpAuthError(this.alias, this.secrets.redact(message));
    };
    if (!this.interactive) fail("the authorization server asked for a user's approval, which grant 'client_credentials' cannot give.");
    this.guard(authorizationUrl, 'its authorization endpoint');
    const approve = this.config.onAuthorizationUrl;
    if (approve === undefined) {
      fail(
        `a user must approve access at ${authorizationUrl.origin}, and its config has no 'auth.onAuthorizationUrl' to ask one. ` +
          'Give one (open the URL, resolve with the URL the user is sent back to), or a store that already holds its tokens.',
      );
    }
    let answer: unknown;
    try {
      answer = await approve!(new URL(authorizationUrl.href));
    } catch (error) {
      fail(`its 'auth.onAuthorizationUrl' failed: ${(error as Error)?.message ?? String(error)}`);
    }
    let back: URL | undefined;
    try {
      back = new URL(String(answer));
    } catch {
      fail(`its 'auth.onAuthorizationUrl' must resolve with the URL the user was sent back to (with code and state); got something else.`);
    }
    const query = back!.searchParams;
    const error = query.get('error');
    if (error !== null) {
      const description = query.get('error_description');
      fail(`the authorization server refused: ${error.slice(0, SHOWN)}${description ? ` (${description.slice(0, SHOWN)})` : ''}.`);
    }
    if (query.getAll('state').length !== 1 || query.get('state') !== this.pendingState) {
      fail('the redirect back does not carry the state this client sent (a forged or stale approval); it is refused. Approve again.');
    }
    const code = query.get('code');
    if (!code) fail('the redirect back carries no authorization code.');
    this.secrets.add(code!);
    this.callback = { code: code!, ...(query.has('iss') ? { iss: query.get('iss')! } : {}) };
  }
}
