/**
 * What every MCP request that runs a member shares (tools/call, resources/read, prompts/get,
 * completion/complete): the request as `McpRequestContext`, the 2026-07-28 rounds from its sealed
 * state, a child container with the request registered, the server's ambientContext, the tool
 * context and approver per revision, and the trace. One place, so a prompt runs as a tool does.
 */
import type { Server, ServerContext } from '@modelcontextprotocol/server';
import type { DependencyContainer } from 'tsyringe';
import type { AmbientSource, Approver, CallContext, Invoker, Result, ToolDefinition } from '../../../index';
import { callHandlers, McpEra } from './call-context';
import { callerOf } from '../auth/caller';
import { McpCallTrace, McpTracedMethod, RequestContext } from './call-request';
import { MCP_ADAPTER } from './config';
import { McpRequestContext, withMcpRequest } from './request-context';
import { RequestStateSeal, StateBinding } from '../protocol/request-state';
import { CallRounds } from '../protocol/rounds';

/** What the server lends every run: its container, ambientContext, requestState seal, approval rule and invoker. */
export interface RunDeps {
  readonly root: DependencyContainer;
  readonly ambientContext?: (request: McpRequestContext) => AmbientSource | undefined | Promise<AmbientSource | undefined>;
  readonly seal: RequestStateSeal;
  readonly approval: { trusted: boolean; timeoutMs: number };
  readonly invoker: Invoker;
}

/** One request's run of a member, ready to invoke. */
export interface PreparedRun {
  readonly request: RequestContext;
  /** 2026-07-28: the run's rounds so far (undefined on 2025-11-25). */
  readonly rounds?: CallRounds;
  /** The caller's signal, and on 2026-07-28 the suspension's. */
  readonly signal: AbortSignal;
  /** What the sealed requestState is bound to: the member, the arguments and the caller. */
  readonly binding: StateBinding;
  readonly container: DependencyContainer;
  readonly ambientContext: AmbientSource;
  readonly context: CallContext;
  readonly approve: Approver | undefined;
}

/**
 * Prepares one request's run of `definition`: `key` is what its requestState is bound to (the
 * tool's name; `prompts/get <name>`, ...), `label` the name its logs carry. A bad requestState is refused (-32602) before anything runs; an
 * ambientContext function that throws is returned as `{ fault }`, the server's own problem.
 */
export async function prepareRun(
  deps: RunDeps,
  server: Server,
  era: McpEra,
  ctx: ServerContext,
  definition: ToolDefinition,
  key: string,
  args: unknown,
  label: string = key,
): Promise<PreparedRun | { fault: Error }> {
  const request = new RequestContext(ctx, server.getNegotiatedProtocolVersion());
  let rounds: CallRounds | undefined;
  let signal = request.signal;
  const binding: StateBinding = { tool: key, args: args ?? {}, caller: callerOf(ctx) };
  if (era === 'modern') {
    const onRefused = (reason: string) => server.onerror?.(new Error(`requestState refused for ${key}: ${reason}`));
    ({ rounds, signal } = CallRounds.open(deps.seal, ctx, binding, request.signal, onRefused));
    request.rounds = rounds;
  }
  const container = deps.root.createChildContainer();
  container.register(McpRequestContext, { useValue: request });
  let ambientContext: AmbientSource = {};
  if (deps.ambientContext) {
    try {
      ambientContext = (await deps.ambientContext(request)) ?? {};
    } catch (error) {
      rounds?.detach();
      return { fault: contextError(definition, error) };
    }
  }
  const { context, approve } = callHandlers(era, server, ctx, request, label, deps.approval, rounds);
  return { request, rounds, signal, binding, container, ambientContext, context, approve };
}

/** Runs a prepared member through the invoker (middleware, timeouts, tracing, audit, redaction), as `method` traces it. */
export async function invokePrepared(
  deps: RunDeps,
  run: PreparedRun,
  definition: ToolDefinition,
  args: unknown,
  method: McpTracedMethod,
  target: string,
): Promise<Result> {
  try {
    return await withMcpRequest(run.request, () =>
      deps.invoker.invoke(definition, args ?? {}, {
        ambientContext: run.ambientContext,
        container: run.container,
        request: run.request,
        signal: run.signal,
        transport: 'mcp',
        approve: run.approve,
        callId: String(run.request.requestId),
        trace: new McpCallTrace(run.request, target, method),
        context: run.context,
      }),
    );
  } finally {
    run.rounds?.detach();
  }
}

/** An ambientContext function that threw, as the error reported. */
export function contextError(tool: ToolDefinition, error: unknown): Error {
  return new Error(
    `the server's ambientContext function threw for ${tool.toolName(MCP_ADAPTER)}: ${(error as Error)?.message ?? String(error)}`,
    { cause: error },
  );
}
