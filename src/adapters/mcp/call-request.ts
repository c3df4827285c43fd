/**
 * One tools/call as toolwright sees it on the SDK 2.x server: the request (`McpRequestContext`,
 * built from the SDK's handler context, the same on both protocol revisions) and where the call sits
 * in a trace.
 */
import type { AuthInfo, RequestId, ServerContext } from '@modelcontextprotocol/server';
import type { CallTrace, SpanAttributes } from '../../index';
import { McpRequestContext, McpRequestHeaders } from './request-context';

/** The request of one tools/call, from the SDK's handler context. */
export class RequestContext extends McpRequestContext {
  readonly requestId: RequestId;
  readonly sessionId?: string;
  readonly authInfo?: AuthInfo;
  readonly signal: AbortSignal;
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly protocolVersion?: string;
  private headerRecord?: McpRequestHeaders;

  constructor(
    private readonly ctx: ServerContext,
    protocolVersion: string | undefined,
  ) {
    super();
    this.requestId = ctx.mcpReq.id;
    this.sessionId = ctx.sessionId;
    this.authInfo = ctx.http?.authInfo;
    this.signal = ctx.mcpReq.signal;
    this.meta = ctx.mcpReq._meta;
    this.protocolVersion = protocolVersion;
  }

  get headers(): Readonly<McpRequestHeaders> | undefined {
    const req = this.ctx.http?.req;
    if (!req) return undefined;
    return (this.headerRecord ??= Object.fromEntries(req.headers));
  }

  async progress(progress: number, total?: number, message?: string): Promise<void> {
    const progressToken = this.ctx.mcpReq._meta?.progressToken;
    if (progressToken === undefined || this.signal.aborted) return;
    await this.ctx.mcpReq.notify({
      method: 'notifications/progress',
      params: { progressToken, progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) },
    });
  }
}

/**
 * Where a tools/call sits in a trace: the client's `_meta` trace context and the MCP span
 * attributes. Read only when the call opens a span (a tracer provider is registered).
 */
export class McpCallTrace implements CallTrace {
  constructor(
    private readonly request: RequestContext,
    private readonly toolName: string,
  ) {}

  get parent(): CallTrace['parent'] {
    return this.request.meta;
  }

  get attributes(): SpanAttributes {
    const { requestId, sessionId, protocolVersion } = this.request;
    return {
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': this.toolName,
      'jsonrpc.request.id': String(requestId),
      ...(sessionId !== undefined ? { 'mcp.session.id': sessionId } : {}),
      ...(protocolVersion !== undefined ? { 'mcp.protocol.version': protocolVersion } : {}),
    };
  }
}
