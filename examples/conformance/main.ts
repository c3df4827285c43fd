/**
 * The conformance server: toolwright tools, resources, prompts and a completion (all classes), and the
 * task fixtures on a queue (its own redis-server, tasks.ts), over Streamable HTTP. `--stateless` for stateless mode; `--port N` (default 0: a free port). Prints
 * its URL on the first line of stdout. Run by scripts/conformance/run.mjs (`npm run conformance`).
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { InMemoryEventStore, serveHttp } from 'toolwright/mcp';
import { inputRequiredTools } from './input-required-tools';
import { conformanceCompletions, conformancePrompts, conformanceResources } from './resources-and-prompts';
import { startTasks, taskTools } from './tasks';
import { conformanceTools } from './tools';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const portAt = args.indexOf('--port');
  const stateless = args.includes('--stateless');
  const queued = await startTasks();
  const handle = await serveHttp(
    {
      name: 'toolwright-conformance-server',
      version: '1.0.0',
      tools: [...conformanceTools, ...inputRequiredTools, ...taskTools],
      tasks: queued.tasks,
      // One process: its own key (MCP_STATE_KEY shares one between replicas).
      requestState: { keys: [process.env.MCP_STATE_KEY ?? randomBytes(32)] },
      resources: conformanceResources,
      prompts: conformancePrompts,
      completions: conformanceCompletions,
    },
    {
      port: portAt >= 0 ? Number(args[portAt + 1]) : 0,
      // Session mode: resumable SSE streams (priming event ids, Last-Event-ID), which the suite checks,
      // and SSE polling (SEP-1699): priming events say when to reconnect; test_reconnection lets go of its stream.
      ...(stateless ? { stateless } : { eventStore: new InMemoryEventStore(), ssePolling: { retryMs: 500 } }),
    },
  ).catch(async (error: unknown) => {
    await queued.close(); // no redis-server left behind
    throw error;
  });
  process.stdout.write(`${handle.url}\n`);
  const stop = () =>
    void handle
      .close()
      .then(() => queued.close())
      .then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
