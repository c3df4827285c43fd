/**
 * The SDK's `Server` as toolwright builds it: the params of tools/call, prompts/get and
 * resources/* checked before the SDK's own schema, so a malformed request is answered in one line.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { isPlainObject } from '../../../adapter-kit/internal';
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
