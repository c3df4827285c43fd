/**
 * Runs the gateway on http://127.0.0.1:3000/mcp (`--port 0` for a free port):
 *
 *   npm run example:compose
 *
 * Connect with Authorization: Bearer finance-token (billing_*) or ops-token (inventory_*).
 */
import { startGateway } from './gateway';

const index = process.argv.indexOf('--port');
void startGateway(index >= 0 ? Number(process.argv[index + 1]) : 3000).then((gateway) => {
  console.log(`gateway on ${gateway.url}: ${gateway.tools.names().join(', ')}`);
  process.once('SIGINT', () => void gateway.close().then(() => process.exit(0)));
});
