import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { isLoopbackHost } from '../../adapter-kit';
import { requirePeers } from '../../adapter-kit/internal';
import { DOCS_PACKAGES } from './docs';
import { toolwrightHttp } from './plugin';
import type { HttpApiOptions } from './options';
import { problem, sendProblem } from './problem';
import { checkRequestTimeout, serverTimeouts } from './timeouts';

/** The second argument of `serveHttpApi(options, { ... })`: where it listens, and the Host names it answers. */
export interface HttpApiServeOptions {
  /** Default 127.0.0.1: only this machine can connect. */
  host?: string;
  /** Default 3000; 0 picks a free port (read it from `url`). */
  port?: number;
  /**
   * The Host names a loopback server answers to (default: loopback names only), so a web page
   * cannot reach it through DNS rebinding.
   */
  allowedHosts?: readonly string[];
}

/** What `serveHttpApi` resolves to: the API's URL, its Fastify instance, and `close()`. */
export interface HttpApiHandle {
  /** The API's base URL, e.g. `http://127.0.0.1:3000/api`. */
  readonly url: string;
  /** The Fastify instance, for inject() or more routes before traffic. */
  readonly fastify: FastifyInstance;
  close(): Promise<void>;
}

/** The Host header's name without its port: `[::1]:3000` → `[::1]`, `localhost:80` → `localhost`. */
function hostName(header: string): string {
  return header.replace(/:\d+$/, '').toLowerCase();
}

/**
 * A Fastify app serving the tools' HTTP API, ready but not listening: for serving it from another
 * server (`app.routing(req, res)`) or testing it with `app.inject()`. A loopback `host` (the
 * default) refuses requests whose Host is not a loopback name or one of `allowedHosts`. The server
 * bounds request time (`requestTimeoutMs`, timeouts.ts) when it listens or is given `routing` traffic.
 */
export async function httpApiApp(options: HttpApiOptions = {}, serve: Omit<HttpApiServeOptions, 'port'> = {}): Promise<FastifyInstance> {
  const { host = '127.0.0.1' } = serve;
  requirePeers(
    'toolwright/http (httpApiApp, serveHttpApi)',
    ['fastify', ...(options.docs === false ? [] : DOCS_PACKAGES)],
    options.docs === false ? undefined : 'docs: false serves the API without the docs page and its two packages',
  );
  const { fastify: createFastify } = require('fastify') as typeof import('fastify');
  // Headers within requestTimeoutMs, the whole request within twice that (the plugin bounds the body).
  const app = createFastify({ logger: false, ...serverTimeouts(checkRequestTimeout(options.requestTimeoutMs)) });
  if (isLoopbackHost(host)) {
    const allowed = new Set((serve.allowedHosts ?? []).map((name) => name.toLowerCase()));
    app.addHook('onRequest', async (request, reply) => {
      const header = request.headers.host ?? '';
      if (!isLoopbackHost(header) && !allowed.has(hostName(header))) {
        return sendProblem(reply, problem(403, 'This server only answers requests addressed to localhost.', request.url.split('?')[0]));
      }
      return undefined;
    });
  }
  await app.register(toolwrightHttp, { ...options, prefix: options.prefix ?? '' });
  await app.ready();
  return app;
}

/** A Fastify server with the tools' HTTP API (and its docs), listening: one call. */
export async function serveHttpApi(options: HttpApiOptions = {}, serve: HttpApiServeOptions = {}): Promise<HttpApiHandle> {
  const { host = '127.0.0.1', port = 3000 } = serve;
  const app = await httpApiApp(options, serve);
  await app.listen({ host, port });
  const address = app.server.address() as AddressInfo;
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  return {
    url: `http://${urlHost}:${address.port}${prefix}`,
    fastify: app,
    close: () => app.close(),
  };
}
