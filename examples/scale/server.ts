/**
 * One stateless MCP server process: answers tools/call as tasks on the shared queue, and tasks/get,
 * tasks/result and tasks/cancel for any task, whichever server created it (and on MCP 2026-07-28 the
 * tasks extension's tasks/get and tasks/cancel). REDIS_URL, PORT (0: free), REPLICA (its name: the
 * server calls itself `scale-<REPLICA>`, which every 2026-07-28 answer carries in its `_meta`).
 */
import 'reflect-metadata';
import { serveHttp } from 'toolwright/mcp';
import { createToolQueue } from 'toolwright/queue';
import { ledgerClient, SCALE_TOOLS } from './tools';

async function main(): Promise<void> {
  const queue = createToolQueue({ connection: ledgerClient() });
  const handle = await serveHttp(
    {
      name: process.env.REPLICA ? `scale-${process.env.REPLICA}` : 'scale',
      version: '1.0.0',
      tools: SCALE_TOOLS,
      tasks: { queue, pollIntervalMs: 25 },
    },
    { port: Number(process.env.PORT ?? 0), stateless: true },
  );
  process.send?.({ url: handle.url });
  console.log(`server ${process.pid} on ${handle.url}`);
  const stop = async () => {
    await handle.close();
    await queue.close();
    ledgerClient().disconnect();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

void main();
