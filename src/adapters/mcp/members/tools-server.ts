/**
 * The SDK's `Server` as toolwright builds it: the params of tools/call, prompts/get and
 * resources/* checked before the SDK's own schema, so a malformed request is answered in one line.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ClientCapabilities,
  type ElicitRequestFormParams,
  type ElicitRequestURLParams,
  type ElicitResult,
  type JSONRPCRequest,
  type RequestOptions,
  type Result,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ElicitSchema } from '../../../index';
import { isPlainObject } from '../../../adapter-kit/internal';
import { fitsForm } from '../protocol/round-answers';
import { promptParams, uriOf } from './member-calls';

/** Checks of the params of member requests before the SDK's schema: one line saying what is wrong, as tools/call has. */
const PARAM_CHECKS: Record<string, (params: unknown) => void> = {
  'prompts/get': promptParams,
  'resources/read': (params) => uriOf('resources/read', params),
  'resources/subscribe': (params) => uriOf('resources/subscribe', params),
  'resources/unsubscribe': (params) => uriOf('resources/unsubscribe', params),
};

/**
 * The SDK's `Server`, with toolwright's own check of tools/call params before the SDK's: a
 * malformed call is answered with one line saying what is wrong (the SDK's own answer is its whole
 * schema report). A task-augmented call (2025-11-25) answers with the task, which the SDK's
 * tools/call result check (a plain CallToolResult since 2.x) would refuse: it skips that check.
 * tools/call goes through `setRequestHandler`, so the SDK's own dispatch answers unknown methods
 * (404 on 2026-07-28) and its input-required seam applies to calls.
 */
export class ToolsServer extends Server {
  /** What a client that never sent initialize is taken to offer (`assumeClientAsks`). */
  private assumed?: ClientCapabilities;

  /**
   * A stateless 2025-11-25 call answered over SSE: the server never saw the client's initialize,
   * so it cannot know what the client offers; it offers the tool every ask (a form, sampling
   * without tools, roots) and a client that cannot answer one answers an error, which the ask
   * rejects with. A client's declared capabilities, when the server has them, always win.
   */
  assumeClientAsks(): void {
    this.assumed = { elicitation: { form: {} }, sampling: {}, roots: {} };
  }

  override getClientCapabilities(): ClientCapabilities | undefined {
    return super.getClientCapabilities() ?? this.assumed;
  }

  /**
   * The SDK's elicitInput refuses a form unless the client declared it at initialize: on a server
   * that assumes the client's asks, the form goes out as a plain request, its accepted content
   * checked against the form as the SDK checks it.
   */
  override async elicitInput(params: ElicitRequestFormParams | ElicitRequestURLParams, options?: RequestOptions): Promise<ElicitResult> {
    if (this.assumed === undefined || super.getClientCapabilities() !== undefined || params.mode === 'url') {
      return super.elicitInput(params, options);
    }
    const result = await this.request({ method: 'elicitation/create', params: { ...params, mode: 'form' } }, options);
    if (!fitsForm(result as never, params.requestedSchema as unknown as ElicitSchema)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'Elicitation response content does not match requested schema: the client accepted the form with fields that are missing, unknown or of the wrong type.',
      );
    }
    return result;
  }

  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    const check = PARAM_CHECKS[method];
    if (check) {
      return (request, ctx) => {
        check(request.params);
        return wrapped(request, ctx);
      };
    }
    if (method !== 'tools/call') return wrapped;
    return (request, ctx) => (callParams(request).asTask ? handler(request, ctx) : wrapped(request, ctx));
  }
}

/** The name and arguments of a tools/call request, or a one-line -32602 saying what is wrong. */
export function callParams(request: { params?: unknown }): { name: string; args: Record<string, unknown> | undefined; asTask: boolean } {
  const params = request.params as Record<string, unknown> | undefined;
  if (!isPlainObject(params) || typeof params.name !== 'string') {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid tools/call request: params.name must be the tool's name (a string).");
  }
  const args = params.arguments;
  if (args !== undefined && !isPlainObject(args)) {
    const kind = args === null ? 'null' : Array.isArray(args) ? 'an array' : `a ${typeof args}`;
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid tools/call request: arguments must be an object of named arguments, not ${kind}.`,
    );
  }
  if (params.task !== undefined && !isPlainObject(params.task)) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'Invalid tools/call request: params.task must be an object such as { ttl: 60000 }.',
    );
  }
  return { name: params.name, args, asTask: params.task !== undefined };
}
