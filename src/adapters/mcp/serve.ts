import { randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { httpAuthGate, McpHttpAuth, warnIfExposed } from './auth';
import { mcpServerFactory, McpServerOptions } from './server';

export interface McpStdioHandle {
  readonly server: Server;
  close(): Promise<void>;
}

/** Serves the tools over stdio (the process's stdin and stdout): what desktop clients launch. */
export async function serveStdio(options: McpServerOptions): Promise<McpStdioHandle> {
  const server = mcpServerFactory(options)();
  await server.connect(new StdioServerTransport());
  return { server, close: () => server.close() };
}

export interface HttpServeOptions {
  /** Default 127.0.0.1: only this machine can connect. */
  host?: string;
  /** Default 3000; 0 picks a free port (read it from `url`). */
  port?: number;
  /** Default `/mcp`. */
  path?: string;
  /** No sessions: a fresh server for every request (default false: one server per session). */
  stateless?: boolean;
  /** Largest request body accepted, in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /**
   * Bearer-token authentication (the MCP authorization spec): every request to `path` needs a
   * valid token; the Protected Resource Metadata document is served when `resourceMetadata` is set.
   */
  auth?: McpHttpAuth;
  /** The Host names this server answers to: see the host checks. */
  allowedHosts?: readonly string[];
  /**
   * Answers requests for other paths (default: 404), e.g. an HTTP API on the same port:
   * `otherRequests: (req, res) => api.routing(req, res)`.
   */
  otherRequests?: (req: IncomingMessage, res: ServerResponse) => void;
}

export interface McpHttpHandle {
  /** Where clients connect, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  /** Open sessions (session mode). */
  readonly sessions: () => number;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw Object.assign(new Error(`request body over ${limit} bytes`), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    throw Object.assign(new Error('request body is not JSON'), { status: 400, code: -32700 });
  }
}

/**
 * Serves the tools over Streamable HTTP. Session mode (default) keeps one SDK server per session;
 * stateless mode builds one per request. Bound to 127.0.0.1 by default; a server on loopback
 * refuses requests whose Host or Origin is not loopback (DNS rebinding).
 */
export async function serveHttp(options: McpServerOptions, http: HttpServeOptions = {}): Promise<McpHttpHandle> {
  const { host = '127.0.0.1', port = 3000, path = '/mcp', stateless = false, maxBodyBytes = 4 * 1024 * 1024 } = http;
  const makeServer = mcpServerFactory(options);
  let servedUrl = '';
  const gate = http.auth !== undefined ? httpAuthGate(http.auth, () => servedUrl) : undefined;
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();
  let actualPort = port;

  const loopbackOnly = LOOPBACK.has(host);
  const allowed = (req: IncomingMessage): boolean => {
    if (!loopbackOnly) return true;
    const hostHeader = req.headers.host ?? '';
    const hostName = hostHeader.replace(/:\d+$/, '');
    if (!LOOPBACK.has(hostName)) return false;
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    try {
      return LOOPBACK.has(new URL(origin).hostname) || LOOPBACK.has(`[${new URL(origin).hostname}]`);
    } catch {
      return false;
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (gate?.serveMetadata(req, res, url.pathname)) return;
    if (url.pathname !== path) return http.otherRequests ? http.otherRequests(req, res) : void res.writeHead(404).end();
    if (!allowed(req)) return jsonRpcError(res, 403, -32000, 'Forbidden: this server only answers requests addressed to localhost.');
    const authInfo = gate ? await gate.authenticate(req, res) : undefined;
    if (authInfo === null) return; // answered: 401, 403 or 500
    const body = req.method === 'POST' ? await readJson(req, maxBodyBytes) : undefined;

    if (stateless) {
      const server = makeServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
      return;
    }

    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing && gate && !gate.owns(existing.transport, authInfo)) {
      // Another client's session: answered as an unknown one, so a session id confirms nothing.
      return jsonRpcError(res, 404, -32001, 'Session not found: start a new session with an initialize request.');
    }
    if (existing) return existing.transport.handleRequest(req, res, body);
    if (typeof sessionId === 'string')
      return jsonRpcError(res, 404, -32001, 'Session not found: start a new session with an initialize request.');
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return jsonRpcError(res, 400, -32000, 'Bad Request: no valid session id; start a session with an initialize request.');
    }
    const server = makeServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { transport, server }),
    });
    if (gate && authInfo) gate.claim(transport, authInfo);
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void server.close();
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const httpServer = createServer((req, res) => {
    handle(req, res).catch((error: Error & { status?: number; code?: number }) => {
      jsonRpcError(res, error.status ?? 500, error.code ?? -32603, error.status ? error.message : 'Internal error');
      if (!error.status) console.error('toolwright/mcp: the HTTP handler failed:', error);
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(port, host, () => {
      httpServer.off('error', reject);
      actualPort = (httpServer.address() as AddressInfo).port;
      resolve();
    });
  });
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  servedUrl = `http://${urlHost}:${actualPort}${path}`;
  warnIfExposed(host, http);
  return {
    url: servedUrl,
    sessions: () => sessions.size,
    async close() {
      for (const { transport, server } of [...sessions.values()]) {
        await transport.close();
        await server.close();
      }
      sessions.clear();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
