/**
 * What `serveHttp`, `createMcpHttpHandler` and `hostHttp` are told about HTTP: where to listen,
 * authentication, streams, and every limit; checked once, before anything listens.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describeValue } from '../../../adapter-kit';
import { DeclarationError } from '../../../index';
import type { McpHttpAuth } from '../auth/auth';
import type { McpCallerIdentity } from '../auth/caller';
import type { EventStore } from './event-store';
import { DEFAULT_LIMITS, positiveInteger } from './limits';
import { checkSsePolling, type McpSsePolling } from './sse-polling';

/**
 * The second argument of `serveHttp(options, { ... })`: where it listens, authentication, and every limit
 * (body size, request time, sessions, allowed hosts and origins).
 */
export interface HttpServeOptions {
  /** Default 127.0.0.1: only this machine can connect. */
  host?: string;
  /** Default 3000; 0 picks a free port (read it from `url`). */
  port?: number;
  /** Default `/mcp`. */
  path?: string;
  /**
   * MCP 2025-11-25 without sessions: a fresh server for every request (default false: one server per
   * session). A tools/call answers over SSE when the client accepts it (so progress and logs reach
   * it); the client closing the response aborts the tool's signal. MCP 2026-07-28 requests are
   * always served this way (that revision has no sessions), whatever this says.
   */
  stateless?: boolean;
  /**
   * Session mode (MCP 2025-11-25): makes SSE streams resumable. A client that lost a stream reconnects with
   * `Last-Event-ID` and is sent what it missed (only its own session's events). `new
   * InMemoryEventStore()` for development and one process; a shared store (`EventStore`) for
   * several. A session's events are forgotten when it ends. Default none.
   */
  eventStore?: EventStore;
  /**
   * SSE polling (SEP-1699; session mode with an `eventStore`): every stream's priming event tells the
   * client to wait `retryMs` before reconnecting to a stream the server closed. A long call lets go of
   * its stream with `mcpRequest().closeStream()` (so a proxy that cuts long connections cuts nothing);
   * the client comes back with `Last-Event-ID` and is sent the rest from the event store. Default
   * none (clients use their own reconnection delay).
   */
  ssePolling?: McpSsePolling;
  /** Largest request body accepted, in bytes (default 4 MiB); a larger one gets 413. */
  maxBodyBytes?: number;
  /**
   * Bearer-token authentication (the MCP authorization spec): every request to `path` needs a
   * valid token; the Protected Resource Metadata document is served when `resourceMetadata` is set.
   */
  auth?: McpHttpAuth;
  /**
   * Who the caller is, when your own code authenticated the request (the middleware in front of
   * `createMcpHttpHandler`, a proxy you trust that names the user in a header): a non-empty string,
   * or undefined for an anonymous caller. A session, its event streams and the tasks it makes
   * belong to the caller that made them (with `auth`, to the token's identity and this one): to
   * any other caller they answer as unknown. Throwing, or answering anything else, is answered 500
   * (logged). Default: no such identity.
   */
  identity?: McpCallerIdentity;
  // Limits and host rules (docs/guide/mcp-limits.md).
  /** A session with no request for this long is closed (default 15 minutes); an open GET stream keeps it active. */
  sessionIdleTimeoutMs?: number;
  /** Open sessions at most (default 10,000; MCP 2025-11-25); beyond it an initialize request gets 503 with `Retry-After`. */
  maxSessions?: number;
  /**
   * Stateless mode: requests of calls to their clients (elicitation, sampling, roots) waiting for
   * the client's answer, at most (default 10,000); past it a tool's ask fails, saying so.
   */
  maxPendingAsks?: number;
  /** Time for the request headers, and then for the body, to arrive (default 30 s); a late body gets 408. */
  requestTimeoutMs?: number;
  /** Host names (optionally `name:port`) the server answers, whatever it is bound to; for proxies and non-loopback hosts. */
  allowedHosts?: readonly string[];
  /** Browser origins (`https://app.example.com`) allowed to call; a request with another Origin gets 403. */
  allowedOrigins?: readonly string[];
  /**
   * Answers requests for other paths (default: 404), e.g. an HTTP API on the same port:
   * `otherRequests: (req, res) => api.routing(req, res)`.
   */
  otherRequests?: (req: IncomingMessage, res: ServerResponse) => void;
}

/** The HTTP options, checked, with their defaults. */
export function resolveHttpOptions(http: HttpServeOptions, where = 'serveHttp') {
  if (typeof http !== 'object' || http === null)
    throw new DeclarationError(`${where}: the second argument must be an options object; got ${describeValue(http)}.`);
  const { host = '127.0.0.1', port = 3000, path = '/mcp', stateless = false } = http;
  if (typeof host !== 'string' || host.trim() === '')
    throw new DeclarationError(`${where}: 'host' must be a host name or address, e.g. '127.0.0.1'; got ${describeValue(host)}.`);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new DeclarationError(`${where}: 'port' must be a whole number from 0 (any free port) to 65535; got ${describeValue(port)}.`);
  if (typeof path !== 'string' || !path.startsWith('/'))
    throw new DeclarationError(`${where}: 'path' must start with '/', e.g. '/mcp'; got ${describeValue(path)}.`);
  if (typeof stateless !== 'boolean')
    throw new DeclarationError(`${where}: 'stateless' must be true or false; got ${describeValue(stateless)}.`);
  if (http.identity !== undefined && typeof http.identity !== 'function') {
    throw new DeclarationError(
      `${where}: 'identity' must be a function (request) => string | undefined naming the caller, e.g. (request) => request.user?.id; got ${describeValue(http.identity)}.`,
    );
  }
  const { eventStore } = http;
  if (eventStore !== undefined) {
    const store = eventStore as Partial<EventStore> | null;
    if (typeof store?.storeEvent !== 'function' || typeof store.replayEventsAfter !== 'function') {
      throw new DeclarationError(
        `${where}: 'eventStore' must implement storeEvent and replayEventsAfter (e.g. new InMemoryEventStore()); got ${describeValue(eventStore)}.`,
      );
    }
    if (stateless)
      throw new DeclarationError(`${where}: 'eventStore' needs sessions; a stateless server has no stream to resume. Drop one of the two.`);
  }
  const limit = (option: keyof typeof DEFAULT_LIMITS) =>
    positiveInteger(where, option, http[option as keyof HttpServeOptions], DEFAULT_LIMITS[option]);
  const sessionIdleTimeoutMs = limit('sessionIdleTimeoutMs');
  return {
    host,
    port,
    path,
    stateless,
    maxBodyBytes: limit('maxBodyBytes'),
    requestTimeoutMs: limit('requestTimeoutMs'),
    maxSessions: limit('maxSessions'),
    maxPendingAsks: limit('maxPendingAsks'),
    sessionIdleTimeoutMs,
    ssePolling: checkSsePolling(where, http.ssePolling, { eventStore: eventStore !== undefined, sessionIdleTimeoutMs }),
  };
}
