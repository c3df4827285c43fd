/**
 * A consumer of the entry points that start servers and reach Redis, compiled from the packed tarball
 * and run beside the versions of their optional peers a project installed: the HTTP API on Fastify
 * (with its docs page: @fastify/swagger and @fastify/swagger-ui), MCP over Streamable HTTP reached
 * through toolwright/mcp-client from a Toolbox, and the queue on BullMQ and ioredis against the
 * redis-server at REDIS_PORT. Prints one JSON document: what each answered. (The test reads which
 * versions of the peers the project installed.)
 */
import 'reflect-metadata';
import { Expects, Exposes, Integer, SemanticHints, Tool } from 'toolwright';
import { serveHttpApi } from 'toolwright/http';
import { serveHttp } from 'toolwright/mcp';
import { McpSecurityPolicy } from 'toolwright/mcp-client';
import { Toolbox } from 'toolwright/openai';
import { createToolQueue, startToolWorker } from 'toolwright/queue';

@Tool({ description: 'Count the letters of a word' })
@SemanticHints('readOnly')
@Expects({ word: String })
@Exposes({ letters: Integer })
class CountLetters {
  call(input: { word: string }) {
    return { letters: input.word.length };
  }
}

// The consumers compile without Node's typings (`types: []`, and not every project has @types/node).
declare const process: { env: Record<string, string | undefined>; pid: number };

async function main(): Promise<void> {
  // The HTTP API and its docs page.
  const api = await serveHttpApi({ tools: [CountLetters], prefix: '/api' }, { port: 0 });
  const post = await fetch(`${api.url}/count_letters/v1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"word":"fastify"}' });
  const httpApi = { status: post.status, body: (await post.json()) as unknown };
  const docs = (await fetch(`${api.url}/docs`, { redirect: 'follow' })).status;
  await api.close();

  // MCP over Streamable HTTP, mounted in a Toolbox through toolwright/mcp-client's policy.
  const mcp = await serveHttp({ name: 'letters', version: '1.0.0', tools: [CountLetters] }, { port: 0 });
  const toolbox = new Toolbox([]);
  const security = new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['127.0.0.1'] });
  await toolbox.addMcpServer('letters', { url: mcp.url }, { security });
  const remote = await toolbox.invoke({ id: 'call_1', name: 'mcp__letters__count_letters', arguments: '{"word":"remote"}' });
  await toolbox.close();
  await mcp.close();

  // The queue: a worker and a queue on the test's redis-server.
  const connection = { host: '127.0.0.1', port: Number(process.env.REDIS_PORT), maxRetriesPerRequest: null };
  const name = `consumer-${process.pid}`;
  const worker = startToolWorker({ connection, name, tools: [CountLetters] });
  await worker.ready();
  const queue = createToolQueue({ connection, name });
  const job = await queue.enqueue(CountLetters, { word: 'bullmq' });
  const result = await job.result({ timeoutMs: 20_000 });
  const cancelled = await queue.enqueue(CountLetters, { word: 'later' }, { delay: 60_000 });
  const cancel = [await cancelled.cancel(), await cancelled.status()];
  const status = await job.status();
  await queue.close();
  await worker.close();

  console.log(
    JSON.stringify({
      httpApi,
      docs,
      remote: { name: remote.name, status: remote.status, data: remote.data },
      queue: { status, result: result.ok ? result.value : result.message, cancel },
    }),
  );
}

// A rejection ends the process with exit code 1 and the error on stderr.
void main();
