/**
 * Mints a development access token for `npm start -- --auth`, signed with the loan desk's
 * development key (examples/loan-desk/.keys/). Prints only the token, so it can be captured:
 *
 *   TOKEN=$(npm run -s loan-desk:token -- --sub officer-7 --scope "loans:read loans:write" --expires 1h)
 *
 * Options: --sub (the officer, required), --scope (default "loans:read"), --expires (a jose time
 * span such as 15m, 1h, 2d; default 1h), --audience (the server's URL, default
 * http://127.0.0.1:3000/mcp), --client (the client id, default loan-desk-cli).
 */
import { importJWK, SignJWT } from 'jose';
import { DEFAULT_AUDIENCE, DEV_ISSUER, signingKey } from './auth';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function main(): Promise<void> {
  const sub = option('--sub');
  if (!sub || sub.startsWith('--')) {
    throw new Error('mint-token: --sub is required, e.g. npm run -s loan-desk:token -- --sub officer-7 --scope "loans:read loans:write"');
  }
  const jwk = await signingKey();
  const token = await new SignJWT({ scope: option('--scope') ?? 'loans:read', client_id: option('--client') ?? 'loan-desk-cli' })
    .setProtectedHeader({ alg: jwk.alg!, kid: jwk.kid, typ: 'at+jwt' })
    .setIssuer(DEV_ISSUER)
    .setAudience(option('--audience') ?? DEFAULT_AUDIENCE)
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime(option('--expires') ?? '1h')
    .sign(await importJWK(jwk, jwk.alg));
  process.stdout.write(`${token}\n`);
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
