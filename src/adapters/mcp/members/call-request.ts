/**
 * One tools/call as toolwright sees it on the SDK 2.x server: the request (`McpRequestContext`,
 * built from the SDK's handler context, the same on both protocol revisions) and where the call sits
 * in a trace.
 */
import type { AuthInfo, RequestId, ServerContext } from '@modelcontextprotocol/server';
import type { CallTrace, SpanAttributes } from '../../../index';
import { McpRequestContext, McpRequestHeaders } from './request-context';
import type { CallRounds } from '../protocol/rounds';

/** The request of one tools/call, from the SDK's handler context. */
export class RequestContext extends McpRequestContext {
  override readonly requestId: RequestId;
  override readonly sessionId?: string;
  override readonly authInfo?: AuthInfo;
  override readonly signal: AbortSignal;
  override readonly meta?: Readonly<Record<string, unknown>>;
  override readonly protocolVersion?: string;
  /** 2026-07-28: the rounds of the call this request runs (a remote call held open across them reads them, held-calls.ts). */
  rounds?: CallRounds;
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

  override get headers(): Readonly<McpRequestHeaders> | undefined {
    const req = this.ctx.http?.req;
    if (!req) return undefined;
    return (this.headerRecord ??= Object.fromEntries(req.headers));
  }

  override async progress(progress: number, total?: number, message?: string): Promise<void> {
    const progressToken = this.ctx.mcpReq._meta?.progressToken;
    if (progressToken === undefined || this.signal.aborted) return;
    await this.ctx.mcpReq.notify({
      method: 'notifications/progress',
      params: { progressToken, progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) },
    });
  }

  /** The SDK offers `closeSSE` only on a resumable stream: a session's, with an event store, on 2025-11-25. */
  override closeStream(): boolean {
    const close = this.ctx.http?.closeSSE;
    if (!close) return false;
    close();
    return true;
  }
}

/** The MCP methods that run a member, as their spans name them. */
export type McpTracedMethod = 'tools/call' | 'resources/read' | 'prompts/get' | 'completion/complete';

/**
 * Where a request that runs a member sits in a trace: the client's `_meta` trace context and the
 * MCP span attributes (OpenTelemetry MCP semantic conventions: `gen_ai.tool.name` for tools/call,
 * `mcp.resource.uri` for resources/read, `gen_ai.prompt.name` for prompts/get). Read only when the
 * call opens a span (a tracer provider is registered).
 */
export class McpCallTrace implements CallTrace {
  constructor(
    private readonly request: RequestContext,
    /** The tool's or prompt's name, or the resource's URI. */
    private readonly target: string,
    private readonly method: McpTracedMethod = 'tools/call',
  ) {}

  get parent(): CallTrace['parent'] {
    return this.request.meta;
  }

  /**
   * Tools keep the pipeline's `execute_tool <name>`; the other methods are named as the MCP
   * conventions say, `{mcp.method.name} {target}`, a resource's URI left out (high cardinality).
   */
  get spanName(): string | undefined {
    if (this.method === 'tools/call') return undefined;
    return this.method === 'prompts/get' ? `prompts/get ${this.target}` : this.method;
  }

  get attributes(): SpanAttributes {
    const { requestId, sessionId, protocolVersion } = this.request;
    return {
      'mcp.method.name': this.method,
      ...(this.method === 'tools/call' ? { 'gen_ai.tool.name': this.target } : {}),
      ...(this.method === 'resources/read' ? { 'mcp.resource.uri': this.target } : {}),
      ...(this.method === 'prompts/get' ? { 'gen_ai.prompt.name': this.target } : {}),
      'jsonrpc.request.id': String(requestId),
      ...(sessionId !== undefined ? { 'mcp.session.id': sessionId } : {}),
      ...(protocolVersion !== undefined ? { 'mcp.protocol.version': protocolVersion } : {}),
    };
  }
}
