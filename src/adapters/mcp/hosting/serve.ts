import type { AddressInfo } from 'node:net';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import {
  createMcpHandler,
  isInitializeRequest,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  WebStandardStreamableHTTPServerTransport,
  type Server,
} from '@modelcontextprotocol/server';
import { httpAuthGate, warnIfExposed } from '../auth/auth';
import { callerIdentity, namedIdentity, recordCaller } from '../auth/caller';
import { hostGuard } from './hosts';
import { withParamHeaderCheck } from './param-headers';
import { jsonRpcError, readJsonBody } from './http-body';
import { mcpServerFactory, McpServerFactory, McpServerFactoryContext, McpServerOptions } from '../server/factory';
import { isConfigureFailure } from '../server/options';
import type { McpServedTools } from '../members/served-tools';
import type { McpServedSets } from '../members/served-sets';
import type { MemberSets } from '../members/member-requests';
import { serveWeb, SessionTable } from './sessions';
import { StatelessAsks } from './stateless-asks';
import { answeredRequestId, webRequest, writeWebResponse } from './web-bridge';
import { classifyPost } from '../protocol/classify';
import { listenError } from './listen-error';
import { narrowListen, type ResourceVisibleTo } from '../members/resource-listens';

import { resolveHttpOptions, type HttpServeOptions } from './http-options';

export type { HttpServeOptions } from './http-options';
export { serveStdio } from './stdio';
export type { McpStdioHandle, StdioServeOptions } from './stdio';


/** What `serveHttp` resolves to: the URL, the live sets of what it serves, and `close()`. */
export interface McpHttpHandle extends McpServedSets {
  /** Where clients connect, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  /** Open sessions (session mode). */
  readonly sessions: () => number;
  close(): Promise<void>;
}

/**
 * Serves the tools over Streamable HTTP, to clients of MCP 2025-11-25 and 2026-07-28 on one endpoint.
 * For 2025-11-25, session mode (default) keeps one SDK server per session and stateless mode builds
 * one per request; 2026-07-28 requests always get one per request. Bound to 127.0.0.1 by default; a server on loopback
 * refuses requests whose Host or Origin is not loopback (DNS rebinding), and `allowedHosts` /
 * `allowedOrigins` set the rule for any bind address (hosts.ts). Sessions, bodies and request time
 * are bounded (limits.ts has the defaults; docs/guide/mcp-limits.md).
 */
export async function serveHttp(options: McpServerOptions, http: HttpServeOptions = {}): Promise<McpHttpHandle> {
  resolveHttpOptions(http); // the options' errors before the tools'
  const makeServer = mcpServerFactory(options);
  try {
    makeServer.checkConfigure(); // a configure hook that throws fails here, not at every request
    await makeServer.ready(); // remote mounts served before the first client lists
  } catch (error) {
    await makeServer.close();
    throw error;
  }
  const { tools, resources, prompts, completions } = makeServer;
  const members = { resources, prompts, completions };
  const hosted = await hostHttp(makeServer, http, tools, makeServer.taskRequests, members, makeServer.resourceVisibleTo).catch(
    async (error: unknown) => {
      await makeServer.close();
      throw error;
    },
  );
  return {
    ...hosted,
    tools,
    resources,
    prompts,
    completions,
    async close() {
      await hosted.close();
      await makeServer.close();
    },
  };
}

/** `createMcpHttpHandler`'s answer: the endpoint's handler, and what `serveHttp`'s handle offers beside it. */
export interface McpHttpHandler extends McpNodeHandler, McpServedSets {}

/**
 * `serveHttp` without a server of its own: the MCP endpoint (both revisions, sessions, host rules,
 * auth, limits) as a handler of Node request/response pairs, for a server someone else owns (a
 * framework's: toolwright/nest mounts it so). `http.host` is the host the server is bound to
 * (default 127.0.0.1: the loopback Host/Origin rule applies; set `allowedHosts` otherwise);
 * `port` and `otherRequests` are not used. `url`: where clients connect, for the auth metadata.
 */
export async function createMcpHttpHandler(
  options: McpServerOptions,
  http: Omit<HttpServeOptions, 'port' | 'otherRequests'> & { url?: string } = {},
): Promise<McpHttpHandler> {
  const { url, ...rest } = http;
  resolveHttpOptions(rest, 'createMcpHttpHandler');
  const makeServer = mcpServerFactory(options);
  try {
    makeServer.checkConfigure();
    await makeServer.ready();
  } catch (error) {
    await makeServer.close();
    throw error;
  }
  const { tools, resources, prompts, completions } = makeServer;
  const members = { resources, prompts, completions };
  const handler = httpHandler(makeServer, rest, tools, makeServer.taskRequests, members, () => url ?? '', makeServer.resourceVisibleTo);
  return {
    ...handler,
    path: handler.path,
    tools,
    resources,
    prompts,
    completions,
    async close() {
      await handler.close();
      await makeServer.close();
    },
  };
}

/**
 * `serveHttp`'s hosting of any SDK server factory, for both protocol revisions on one endpoint:
 * the HTTP server, host rules, auth and body limits, then a 2025-11-25 request goes to the session
 * table (one server per session, or per request when stateless) and a 2026-07-28 one to the SDK's
 * `createMcpHandler` (one server per request). Internal; bench/mcp hosts the SDK's `McpServer` with
 * it, so both contenders stand behind the same hosting code. `tools`: their changes are published
 * to 2026-07-28 clients listening with `subscriptions/listen`. `taskRequests`: answers the tasks
 * extension's methods of 2026-07-28 requests (../tasks/tasks-extension.ts). `members`: resource and prompt
 * list changes and resource updates, published the same way. `resourceVisibleTo`: which of those
 * updates a listen stream's caller may hear of (../members/resource-listens.ts).
 * @internal
 */
export async function hostHttp(
  makeServer: (context: McpServerFactoryContext) => Server | McpServer,
  http: HttpServeOptions = {},
  tools?: McpServedTools,
  taskRequests?: McpServerFactory['taskRequests'],
  members?: MemberSets,
  resourceVisibleTo?: ResourceVisibleTo,
): Promise<Omit<McpHttpHandle, 'tools' | 'resources' | 'prompts' | 'completions'>> {
  const { host, port, requestTimeoutMs } = resolveHttpOptions(http);
  let actualPort = port;
  const handler = httpHandler(makeServer, http, tools, taskRequests, members, () => servedUrl, resourceVisibleTo);
  let servedUrl = '';

  // Headers get requestTimeoutMs; readJsonBody gives the body as long again. Node's own whole-request
  // bound (checked every connectionsCheckingInterval) catches bodies nothing reads (a 404, say).
  const httpServer = createServer(
    {
      headersTimeout: requestTimeoutMs,
      requestTimeout: 2 * requestTimeoutMs,
      connectionsCheckingInterval: Math.min(30_000, Math.ceil(requestTimeoutMs / 2)),
    },
    (req, res) => void handler.handle(req, res),
  );
  await new Promise<void>((resolve, reject) => {
    const refuse = (error: unknown) => reject(listenError(error, host, port));
    httpServer.once('error', refuse);
    httpServer.listen(port, host.replace(/^\[(.*)\]$/, '$1'), () => {
      httpServer.off('error', refuse);
      actualPort = (httpServer.address() as AddressInfo).port;
      resolve();
    });
  });
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  servedUrl = `http://${urlHost}:${actualPort}${handler.path}`;
  warnIfExposed(host, http);
  return {
    url: servedUrl,
    sessions: handler.sessions,
    async close() {
      await handler.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

/** What `httpHandler` gives: one Node request/response pair answered at a time, without owning a server. */
export interface McpNodeHandler {
  /** The endpoint's path (`/mcp`). */
  readonly path: string;
  /**
   * Answers one request. `parsed`: the body when the host already read and parsed it (a framework's
   * body parser); otherwise it is read from `req` within the limits. Never rejects.
   */
  handle(req: IncomingMessage, res: ServerResponse, parsed?: { body: unknown }): Promise<void>;
  /** Open sessions (session mode). */
  sessions(): number;
  /** Closes the sessions and the 2026-07-28 handler (not any server). */
  close(): Promise<void>;
}

/**
 * The request handling of `hostHttp`, on no server of its own: host rules, auth, body limits, then
 * the 2025-11-25 session table or the 2026-07-28 handler. `servedUrl`: where clients connect (for
 * the auth metadata document). `resourceVisibleTo`: a 2026-07-28 listen stream names, and hears of,
 * only resources its caller may see.
 * @internal
 */
export function httpHandler(
  makeServer: (context: McpServerFactoryContext) => Server | McpServer,
  http: HttpServeOptions,
  tools: McpServedTools | undefined,
  taskRequests: McpServerFactory['taskRequests'] | undefined,
  members: MemberSets | undefined,
  servedUrl: () => string,
  resourceVisibleTo?: ResourceVisibleTo,
): McpNodeHandler {
  const { host, path, stateless, maxBodyBytes, requestTimeoutMs, ssePolling, maxPendingAsks, ...limits } = resolveHttpOptions(http);
  const gate = http.auth !== undefined ? httpAuthGate(http.auth, servedUrl) : undefined;
  const sessions = new SessionTable(limits, () => makeServer({ era: 'legacy' }), http.eventStore, ssePolling);
  const refusal = hostGuard(host, http);
  const asks = new StatelessAsks(maxPendingAsks);
  // 2026-07-28: a server per request, whatever `stateless` says (the revision has no sessions).
  const answersTaskMethods = taskRequests !== undefined;
  const modern = createMcpHandler(
    ({ era, requestInfo }) => {
      let server: Server | McpServer;
      try {
        server = makeServer({ era, perRequest: true, answersTaskMethods });
      } catch (error) {
        // The SDK would answer a bare "Internal server error": the request's handler answers instead.
        if (isConfigureFailure(error) && requestInfo) hookFailures.set(requestInfo, error);
        throw error;
      }
      return tools && !(server instanceof McpServer) ? withParamHeaderCheck(server, tools) : server;
    },
    {
      legacy: 'reject',
      onerror: (error) => reportModernError(error),
    },
  );
  const unsubscribes = [
    tools?.onChange(() => modern.notify.toolsChanged()),
    members?.resources.onChange(() => modern.notify.resourcesChanged()),
    members?.resources.onUpdated((uri) => modern.notify.resourceUpdated(uri)),
    members?.prompts.onChange(() => modern.notify.promptsChanged()),
  ];

  const handle = async (req: IncomingMessage, res: ServerResponse, parsed?: { body: unknown }): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (gate?.serveMetadata(req, res, url.pathname)) return;
    if (url.pathname !== path && !http.otherRequests) return void res.writeHead(404).end();
    const forbidden = refusal(req);
    if (forbidden) return jsonRpcError(res, 403, -32000, forbidden);
    if (url.pathname !== path) return http.otherRequests!(req, res);
    const authInfo = gate ? await gate.authenticate(req, res) : undefined;
    if (authInfo === null) return; // answered: 401, 403 or 500
    const named = http.identity ? await namedIdentity(http.identity, req) : undefined;
    if (named instanceof Error) {
      console.error(`toolwright/mcp: ${named.message} Answered 500.`);
      return jsonRpcError(res, 500, -32603, 'Internal error');
    }
    // The one identity sessions, streams, tasks and request states belong to.
    const caller = callerIdentity(authInfo, named);
    const read =
      req.method !== 'POST' ? { body: undefined } : parsed ? parsed : await readJsonBody(req, res, { maxBodyBytes, requestTimeoutMs });
    if (!read) return; // answered (413, 408, 400), or the client is gone
    const { body } = read;
    requestIds.set(req, (body as { id?: unknown } | undefined)?.id);
    // The SDK's own classification (what its isLegacyRequest runs), on the body already parsed: a
    // request with the 2026-07-28 `_meta` envelope (server/discover among them) is modern; anything
    // else is 2025-11-25 traffic. Only the modern handler reads the request's abort signal.
    const classified = req.method === 'POST' && body !== undefined ? classifyPost(req.headers, body) : undefined;
    const modernRequest = classified !== undefined && classified.kind !== 'legacy';
    const request = webRequest(req, res, modernRequest);
    recordCaller(request, caller);
    if (modernRequest) {
      const task = taskRequests?.(body, classified, req.headers, caller);
      if (task) {
        const { status, message } = await task;
        const text = JSON.stringify(message);
        return void res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
      }
      const listen =
        resourceVisibleTo && (await narrowListen(body, resourceVisibleTo, { authInfo, headers: req.headers, signal: request.signal }));
      if (listen && 'refusal' in listen) return jsonRpcError(res, 200, ProtocolErrorCode.InvalidParams, listen.refusal, { id: listen.id });
      const response = await modern.fetch(request, { parsedBody: listen ? listen.body : body, ...(authInfo ? { authInfo } : {}) });
      if (hookFailures.has(request)) throw hookFailures.get(request);
      return writeWebResponse(res, listen ? listen.stream(response) : response, answeredRequestId(body));
    }

    if (stateless) {
      // A tool call answers over SSE when the client takes it, so progress, logs, elicitation,
      // sampling and roots reach the client mid-call; everything else answers with one JSON body.
      // The client answers an ask in a later POST: `asks` hands it to the server that asked.
      const streams = streamsCall(req, body);
      const server = makeServer({ era: 'legacy', perRequest: true, assumeClientAsks: streams });
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !streams });
      let forgetAsks = () => {};
      res.on('close', () => {
        forgetAsks();
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      forgetAsks = asks.serve(transport, caller);
      if (res.closed) forgetAsks();
      return serveWeb(transport, request, res, body, authInfo);
    }

    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      // Another caller's session is answered as an unknown one, so a session id confirms nothing.
      if (await sessions.serve(sessionId, caller, request, res, body, authInfo)) return;
      return jsonRpcError(res, 404, -32001, 'Session not found: start a new session with an initialize request.');
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return jsonRpcError(res, 400, -32000, 'Bad Request: no valid session id; start a session with an initialize request.');
    }
    await sessions.open(request, res, body, caller, authInfo);
  };

  return {
    path,
    handle: (req, res, parsed) =>
      handle(req, res, parsed).catch((error: unknown) => {
        const id = requestIds.get(req);
        if (isConfigureFailure(error)) {
          console.error(`toolwright/mcp: ${error.message}`, error.cause);
          return jsonRpcError(res, 500, -32603, CONFIGURE_FAILED, { id: typeof id === 'string' || typeof id === 'number' ? id : undefined });
        }
        jsonRpcError(res, 500, -32603, 'Internal error');
        console.error('toolwright/mcp: the HTTP handler failed:', error);
      }),
    sessions: () => sessions.size,
    async close() {
      for (const unsubscribe of unsubscribes) unsubscribe?.();
      await modern.close();
      await sessions.closeAll();
    },
  };
}

/** The 2026-07-28 requests whose server the `configure` hook failed to build. */
const hookFailures = new WeakMap<Request, Error>();

/** The id of each request whose body was read, for an answer to a request that failed. */
const requestIds = new WeakMap<IncomingMessage, unknown>();

/** What a client is told when the server's `configure` hook threw building its server (the reason is logged, not sent). */
const CONFIGURE_FAILED = "Internal error: the server's 'configure' hook failed; the server's log says why.";

/**
 * What the SDK's 2026-07-28 handler reports: its refusals of requests (a mismatching header, an
 * unsupported revision, a missing capability: answered to the client, which sees them, and not
 * logged, so a client cannot flood the log) and its own failures (logged).
 */
function reportModernError(error: Error): void {
  if (error instanceof ProtocolError || /^Rejected /.test(error.message) || isConfigureFailure(error)) return;
  console.error('toolwright/mcp: serving an MCP 2026-07-28 request failed:', error);
}

/** A single tools/call from a client that accepts an SSE answer. */
function streamsCall(req: IncomingMessage, body: unknown): boolean {
  const accept = req.headers.accept;
  return (
    typeof accept === 'string' &&
    accept.includes('text/event-stream') &&
    typeof body === 'object' &&
    body !== null &&
    (body as { method?: unknown }).method === 'tools/call'
  );
}

/** Every HTTP option checked and defaulted: a TypeError naming the option otherwise. */
