import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport, type AuthInfo, type Server } from '@modelcontextprotocol/server';
import type { EventStore } from './event-store';
import { jsonRpcError } from './http-body';
import { sessionEventStore, sessionScope } from './session-events';
import type { McpSsePolling } from './sse-polling';
import { answeredRequestId, writeWebResponse } from './web-bridge';

type StreamableHTTPServerTransport = WebStandardStreamableHTTPServerTransport;

/** A server at its session limit logs at most one line a minute. */
const REPORT_EVERY_MS = 60_000;

export interface SessionLimits {
  maxSessions: number;
  sessionIdleTimeoutMs: number;
}

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  /** Who opened it (callerIdentity): the only caller it serves. */
  readonly owner: string;
  readonly server: Pick<Server, 'connect' | 'close'>;
  /** Requests of this session whose response is still open (an open GET stream counts). */
  open: number;
  /** Armed while `open` is 0; when it fires the session is closed. */
  timer?: NodeJS.Timeout;
  idleSince: number;
  closed?: boolean;
}

/**
 * The open sessions of a Streamable HTTP server, bounded in number and in idle time. A session is
 * active while any of its requests has an open response (including a GET event stream); once the
 * last one ends, it has `sessionIdleTimeoutMs` until the next request or it is closed and its SDK
 * server freed. Beyond `maxSessions`, an initialize request gets 503 with `Retry-After`; existing
 * sessions are not affected. Any close of a session's transport (DELETE, idle expiry, server close)
 * removes it. Iteration order is least recently active first. A session belongs to the caller that
 * opened it: to anyone else it does not exist.
 */
export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  /** Initialize requests in progress: they count against `maxSessions` before their id exists. */
  private opening = 0;
  /** 503s since the last log line, which is written at most once every REPORT_EVERY_MS. */
  private refused = 0;
  private reportedAt = -Infinity;
  private closed = false;

  constructor(
    private readonly limits: SessionLimits,
    private readonly makeServer: () => Pick<Server, 'connect' | 'close'>,
    /** Makes the session's SSE streams resumable (`Last-Event-ID`), when given. */
    private readonly eventStore?: EventStore,
    /** The `retry` every stream's priming event tells clients (SEP-1699), when given. */
    private readonly ssePolling?: McpSsePolling,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /**
   * Serves a request of `caller` (callerIdentity) in an existing session; false when there is no
   * such session, or it is another caller's: the same answer, so a session id confirms nothing.
   */
  async serve(id: string, caller: string, request: Request, res: ServerResponse, body: unknown, authInfo?: AuthInfo): Promise<boolean> {
    const session = this.sessions.get(id);
    if (!session || session.owner !== caller) return false;
    this.sessions.delete(id);
    this.sessions.set(id, session); // most recently active last
    this.track(session, res);
    await serveWeb(session.transport, request, res, body, authInfo, this.eventStore !== undefined);
    return true;
  }

  /**
   * Starts a session with an initialize request, or answers 503 when the table is full. `owner` is
   * the caller's identity (callerIdentity): the session serves only it, and its events are scoped
   * by it in the event store.
   */
  async open(request: Request, res: ServerResponse, body: unknown, owner: string, authInfo?: AuthInfo): Promise<void> {
    const { maxSessions } = this.limits;
    if (this.sessions.size + this.opening >= maxSessions) {
      this.refused++;
      const now = Date.now();
      if (now - this.reportedAt >= REPORT_EVERY_MS) {
        console.error(
          `toolwright/mcp: ${maxSessions} sessions are open (maxSessions); ${this.refused} new session(s) refused with 503 since the last report. Sessions end on DELETE or after sessionIdleTimeoutMs idle.`,
        );
        this.reportedAt = now;
        this.refused = 0;
      }
      return jsonRpcError(
        res,
        503,
        -32000,
        `Service Unavailable: this server has reached its limit of ${maxSessions} open sessions (maxSessions). Retry later; clients should end sessions they no longer need with DELETE.`,
        { id: requestId(body), headers: { 'retry-after': String(this.retryAfterSeconds()) } },
      );
    }
    const server = this.makeServer();
    let session: Session | undefined;
    const sessionId = randomUUID();
    // Its events are stored under its own scope, and dropped when it ends.
    const scope = sessionScope(sessionId, owner);
    const store = this.eventStore;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      ...(store ? { eventStore: sessionEventStore(store, scope) } : {}),
      ...(this.ssePolling ? { retryInterval: this.ssePolling.retryMs } : {}),
      onsessioninitialized: (id) => {
        if (this.closed) return void transport.close();
        session = { transport, owner, server, open: 0, idleSince: Date.now() };
        this.sessions.set(id, session);
        this.track(session, res);
      },
    });
    transport.onclose = () => {
      if (session) {
        session.closed = true;
        clearTimeout(session.timer);
      }
      const id = transport.sessionId;
      if (id && this.sessions.get(id) === session) this.sessions.delete(id);
      void server.close();
      if (store?.forgetSession) void forget(store, scope);
    };
    this.opening++;
    try {
      await server.connect(transport);
      await serveWeb(transport, request, res, body, authInfo, store !== undefined);
    } finally {
      this.opening--;
      // An initialize the transport refused (a bad Accept header, say) leaves no session behind.
      if (!session) void transport.close();
    }
  }

  /** Closes every session and clears their timers. */
  async closeAll(): Promise<void> {
    this.closed = true;
    const all = [...this.sessions.values()];
    this.sessions.clear();
    for (const session of all) {
      clearTimeout(session.timer);
      await session.transport.close();
      await session.server.close();
    }
  }

  /** Keeps the session active while this response is open; arms its idle timer when the last one ends. */
  private track(session: Session, res: ServerResponse): void {
    session.open++;
    clearTimeout(session.timer);
    session.timer = undefined;
    res.once('close', () => {
      if (--session.open > 0 || session.closed) return;
      session.idleSince = Date.now();
      session.timer = setTimeout(() => void session.transport.close(), this.limits.sessionIdleTimeoutMs);
      session.timer.unref();
    });
  }

  /** Seconds until the least recently active session would idle out (at least 1). */
  private retryAfterSeconds(): number {
    const { sessionIdleTimeoutMs } = this.limits;
    const oldest = this.sessions.values().next().value as Session | undefined;
    const ms = oldest && oldest.open === 0 ? oldest.idleSince + sessionIdleTimeoutMs - Date.now() : sessionIdleTimeoutMs;
    return Math.max(1, Math.ceil(ms / 1000));
  }
}

/**
 * One request through an SDK web-standard transport (a session's, or a stateless one's). A
 * resumable stream (`resumable`: an event store) always streams, since its client resumes by the
 * ids of its events; any other answer of one event goes out as JSON (`writeWebResponse`).
 */
export async function serveWeb(
  transport: StreamableHTTPServerTransport,
  request: Request,
  res: ServerResponse,
  body: unknown,
  authInfo: AuthInfo | undefined,
  resumable = false,
): Promise<void> {
  const response = await transport.handleRequest(request, {
    ...(body !== undefined ? { parsedBody: body } : {}),
    ...(authInfo ? { authInfo } : {}),
  });
  await writeWebResponse(res, response, resumable ? undefined : answeredRequestId(body));
}

/** Drops an ended session's events; a store that fails to is reported, not thrown into the close. */
async function forget(store: EventStore, scope: string): Promise<void> {
  try {
    await store.forgetSession!(scope);
  } catch (error) {
    console.error(`toolwright/mcp: the event store's forgetSession failed: ${(error as Error)?.message ?? String(error)}`);
  }
}

/** The id of a JSON-RPC request body, for an error answered before the SDK sees it. */
function requestId(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
