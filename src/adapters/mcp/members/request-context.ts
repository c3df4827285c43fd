import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuthInfo, RequestId } from '@modelcontextprotocol/server';
import { DeclarationError } from '../../../index';

/** HTTP request headers by lower-cased name (a repeated header's values joined with ", "). */
export type McpRequestHeaders = Record<string, string | string[] | undefined>;

/**
 * The MCP request a tool call belongs to. Registered in the per-call child DI container (so a tool
 * or service may inject it: a constructor parameter of this type, or `@inject(McpRequestContext)`),
 * passed to the server's `ambientContext` function, and available inside a call through
 * `mcpRequest()`. Transport capabilities (cancellation, progress) live here, not in ambient values:
 * they are operations, not data.
 */
export interface McpRequestContext {
  /** The JSON-RPC id of the tools/call request. */
  readonly requestId: RequestId;
  /** The transport session, when the transport has sessions (Streamable HTTP in session mode, MCP 2025-11-25). */
  readonly sessionId?: string;
  /**
   * The verified access token (`token`, `clientId`, `scopes`, `expiresAt`, `extra`) when the server
   * authenticates requests (`serveHttp(options, { auth })`); undefined otherwise (stdio, no auth).
   */
  readonly authInfo?: AuthInfo;
  /** HTTP request headers (Streamable HTTP only), lower-cased names. */
  readonly headers?: Readonly<McpRequestHeaders>;
  /** Aborted when the client cancels the request. */
  readonly signal: AbortSignal;
  /** The protocol revision of the request: `2026-07-28`, or the one its session negotiated (e.g. `2025-11-25`). */
  readonly protocolVersion?: string;
  /** The request's `_meta`. */
  readonly meta?: Readonly<Record<string, unknown>>;
  /**
   * Reports progress to the client (`notifications/progress`), when the client asked for it with a
   * progress token; otherwise does nothing.
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
}

/**
 * The class is the DI token (a concrete class, as tsyringe's `inject` and `register` want); the server
 * makes its instances, one per request, so constructing it yourself is refused.
 */
export class McpRequestContext {
  constructor() {
    if (new.target === McpRequestContext) {
      throw new DeclarationError(
        'McpRequestContext is made by the MCP server for each request: inject it (a constructor parameter, or @inject(McpRequestContext)) or read mcpRequest() inside a call; do not construct it.',
      );
    }
  }

  /**
   * Lets go of the call's SSE stream (SEP-1699 polling), for a long call behind a proxy that cuts
   * long connections: the stream ends, the call runs on, and the client reconnects (after
   * `serveHttp`'s `ssePolling.retryMs`) with `Last-Event-ID` and is sent what followed, the result
   * included, from the event store. True when the stream was closed; false, doing nothing, where no
   * stream can be resumed: without an `eventStore`, stateless, on MCP 2026-07-28, over stdio.
   */
  closeStream(): boolean {
    return false;
  }
}

const current = new AsyncLocalStorage<McpRequestContext>();

/** The MCP request of the tool call running now, or undefined outside an MCP call. */
export function mcpRequest(): McpRequestContext | undefined {
  return current.getStore();
}

/** @internal Runs `fn` with `context` as the current MCP request. */
export function withMcpRequest<T>(context: McpRequestContext, fn: () => T): T {
  return current.run(context, fn);
}
