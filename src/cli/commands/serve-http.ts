import { STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Command } from 'commander';
import { isLoopbackHost } from '../../adapter-kit';
import type { AmbientSource, ToolDefinition } from '../../index';
import type { HttpApiOptions } from '../../adapters/http';
import { missingAmbient, parseAmbient } from '../ambient';
import { CliError, oneLine } from '../cli-error';
import { projectFrom, withProjectOptions } from '../project-options';
import { configuredOptions, packageIdentity, parsePort, withAmbient } from './serve-options';

interface ServeHttpOptions {
  host?: string;
  port?: number;
  prefix?: string;
  ambient?: string;
  config?: string;
  import?: string[];
}

type HttpModule = typeof import('../../adapters/http');

function httpModule(): HttpModule {
  try {
    return require('../../adapters/http') as HttpModule;
  } catch (error) {
    throw new CliError(`serving HTTP needs fastify: npm install fastify @fastify/swagger @fastify/swagger-ui (${oneLine(error)}).`);
  }
}

/**
 * `toolwright serve http`: the `http` tools through toolwright/http's plugin, with the config's
 * `serve.http.server` options (ambientContext, auth, …) and `--ambient` values. A call that lacks
 * a required ambient value answers a 500 problem naming the field and how to give it, where the
 * library answers its generic 500 (the server's setup, not the caller, is at fault; this is the
 * developer's own server).
 */
async function serveHttpApiCommand(options: ServeHttpOptions): Promise<void> {
  const http = httpModule(); // registers the 'http' adapter before the project loads
  const flag = parseAmbient(options.ambient);
  const project = await projectFrom(options);
  const { name, version } = packageIdentity(project.root);
  const configured = project.config.serve?.http ?? {};
  const server = (await configuredOptions(project, 'http')) as HttpApiOptions;
  const joined = withAmbient<[unknown, ToolDefinition]>(server.ambientContext, flag, 'serve.http.server');
  const unanswered = new WeakMap<object, string>();
  const ambientContext = async (request: { raw: object }, tool: ToolDefinition): Promise<AmbientSource> => {
    const values = joined ? await joined(request, tool) : {};
    const missing = missingAmbient(
      tool,
      values,
      `start the server with --ambient '{"KEY": …}', or return it from serve.http.server's ambientContext`,
    );
    if (missing) unanswered.set(request.raw, missing);
    return values;
  };

  const host = options.host ?? configured.host ?? '127.0.0.1';
  const prefix = options.prefix ?? configured.prefix ?? '/api';
  const { fastify: createFastify } = require('fastify') as typeof import('fastify');
  const app = createFastify({ logger: false });
  if (isLoopbackHost(host)) {
    // As serveHttpApi: a loopback server answers only requests addressed to a loopback name.
    app.addHook('onRequest', async (request, reply) => {
      if (isLoopbackHost(request.headers.host ?? '')) return undefined;
      return problemReply(reply, 403, 'This server only answers requests addressed to localhost.', request.url);
    });
  }
  app.addHook('onSend', async (request, reply, payload) => {
    const missing = reply.statusCode === 500 ? unanswered.get(request.raw) : undefined;
    return missing === undefined ? payload : JSON.stringify(problemBody(500, missing, request.url));
  });
  await app.register(http.toolwrightHttp, { info: { title: name, version }, ...server, prefix, ambientContext });
  await app.listen({ host, port: options.port ?? configured.port ?? 3000 });
  const { port } = app.server.address() as AddressInfo;
  const url = `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}${prefix.replace(/\/+$/, '')}`;
  process.stdout.write(`toolwright: serving ${name} over HTTP on ${url} (OpenAPI at ${url}/openapi.json, docs at ${url}/docs)\n`);
  const stop = () => void app.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function problemBody(status: number, detail: string, url: string) {
  return { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail, instance: url.split('?')[0] };
}

function problemReply(
  reply: { code(status: number): { type(type: string): { send(body: string): unknown } } },
  status: number,
  detail: string,
  url: string,
) {
  return reply
    .code(status)
    .type(httpModule().PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify(problemBody(status, detail, url)));
}

export function serveHttpCommand(): Command {
  return withProjectOptions(new Command('http'))
    .description('serve the http tools as a plain HTTP API with OpenAPI 3.1 and a docs page (toolwright/http)')
    .option('--host <host>', 'the interface to listen on (default 127.0.0.1, or serve.http.host)')
    .option('--port <port>', 'the port (default 3000, or serve.http.port; 0 picks a free one)', parsePort)
    .option('--prefix <prefix>', 'the path every route starts with (default /api, or serve.http.prefix)')
    .option(
      '--ambient <json>',
      "trusted values for @AmbientContext fields, as a JSON object (serve.http.server's ambientContext adds to them per request)",
    )
    .action((options: ServeHttpOptions) => serveHttpApiCommand(options));
}
