/**
 * `npm run example:nest -- [--fastify|--express] [--port 3000]`: the loan desk as a Nest app. MCP at
 * /mcp (check_credit, approve_loan); REST at POST /credit-checks, POST /approvals, GET /loans/:id; every request needs
 * `Authorization: Bearer dev-token-ada` (or dev-token-reader; see ./auth.ts).
 */
import 'reflect-metadata';
import { createLoanDesk, type Platform } from './app';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const platform: Platform = args.includes('--fastify') ? 'fastify' : 'express';
  const portAt = args.indexOf('--port');
  const port = portAt >= 0 ? Number(args[portAt + 1]) : 3000;
  const app = await createLoanDesk(platform);
  await app.listen(port, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  console.error(`loan desk (Nest on ${platform}) listening on ${url}; MCP at ${url}/mcp`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
