/**
 * The conformance server: toolwright tools plus resources and prompts through the hook, over
 * Streamable HTTP. `--stateless` for stateless mode; `--port N` (default 0: a free port). Prints
 * its URL on the first line of stdout. Run by scripts/conformance/run.mjs (`npm run conformance`).
 */
import 'reflect-metadata';
import { serveHttp } from 'toolwright/mcp';
import { addResourcesAndPrompts, conformanceCapabilities } from './resources-and-prompts';
import { conformanceTools } from './tools';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const portAt = args.indexOf('--port');
  const handle = await serveHttp(
    {
      name: 'toolwright-conformance-server',
      version: '1.0.0',
      tools: conformanceTools,
      capabilities: conformanceCapabilities,
      configure: addResourcesAndPrompts,
    },
    { port: portAt >= 0 ? Number(args[portAt + 1]) : 0, stateless: args.includes('--stateless') },
  );
  process.stdout.write(`${handle.url}\n`);
  const stop = () => void handle.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void main();
