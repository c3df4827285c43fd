/**
 * The loan desk's token check for `npm start -- --auth`: JWTs signed with a development key
 * (ES256, generated on first use into examples/loan-desk/.keys/, which git ignores), verified
 * against a local JWKS with jose: signature, issuer, audience and expiry. The officer is the
 * token's `sub`; its scopes are the `scope` claim. A real deployment verifies its authorization
 * server's tokens instead (`createRemoteJWKSet(new URL(jwksUri))`) and lists that server below.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createLocalJWKSet, errors, exportJWK, generateKeyPair, jwtVerify, type JWK } from 'jose';
import { InvalidTokenError, type McpHttpAuth } from 'toolwright/mcp';
import { SCOPES } from './scopes';

/** Who signs development tokens: the `iss` the server accepts and the authorization server it names. */
export const DEV_ISSUER = process.env.LOAN_DESK_ISSUER ?? 'https://issuer.loan-desk.example';
export const DEFAULT_AUDIENCE = 'http://127.0.0.1:3000/mcp';
const ALG = 'ES256';

export function keysDir(): string {
  return process.env.LOAN_DESK_KEYS_DIR ?? path.join(__dirname, '.keys');
}

/** The development signing key (a private JWK), created once; concurrent first uses agree on one key. */
export async function signingKey(): Promise<JWK> {
  const file = path.join(keysDir(), 'signing-key.json');
  if (!fs.existsSync(file)) {
    const { privateKey } = await generateKeyPair(ALG, { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: ALG, use: 'sig' };
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(jwk, null, 2), { mode: 0o600 });
    try {
      fs.linkSync(temp, file); // atomic, and fails if another process got there first
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.unlinkSync(temp);
    }
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as JWK;
}

/** The public half, as a JWKS. */
export async function publicJwks(): Promise<{ keys: JWK[] }> {
  const { kty, crv, x, y, kid, alg, use } = await signingKey();
  return { keys: [{ kty, crv, x, y, kid, alg, use }] };
}

/** `serveHttp`'s auth option; `audience()` is the served URL, known once the server listens. */
export async function loanDeskAuth(audience: () => string): Promise<McpHttpAuth> {
  const jwks = createLocalJWKSet(await publicJwks());
  return {
    async verifyAccessToken(token) {
      try {
        const { payload } = await jwtVerify(token, jwks, {
          issuer: DEV_ISSUER,
          audience: audience(),
          algorithms: [ALG],
          requiredClaims: ['sub', 'exp'],
        });
        const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
        const clientId = typeof payload.client_id === 'string' ? payload.client_id : payload.sub!;
        return { token, clientId, scopes, expiresAt: payload.exp, extra: { sub: payload.sub } };
      } catch (error) {
        // jose's verdicts (bad signature, wrong issuer or audience, expired, malformed) are the caller's: 401.
        if (error instanceof errors.JOSEError) throw new InvalidTokenError(error.message);
        throw error;
      }
    },
    resourceMetadata: { authorizationServers: [DEV_ISSUER], scopesSupported: SCOPES, resourceName: 'Loan desk' },
  };
}
