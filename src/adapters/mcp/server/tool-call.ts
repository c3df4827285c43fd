/**
 * A `tools/call`, from the name to the answer: who may call it (composition), whether it runs as a
 * task (its taskSupport, the revision, the client's tasks extension), the run's preparation (rounds,
 * ambient values, approval), then the tool's handler or the queue.
 */
import { ProtocolError, ProtocolErrorCode, type CallToolResult, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { ToolDefinition } from '../../../index';
import { DEFAULT_ERROR, guardToolResponse } from '../../../adapter-kit';
import { callerOf } from '../auth/caller';
import type { McpEra } from '../members/call-context';
import { McpCallTrace } from '../members/call-request';
import { McpConfig } from '../members/config';
import { PreparedRun, prepareRun, RunDeps } from '../members/member-run';
import { withMcpRequest } from '../members/request-context';
import type { McpServedTools, ServedTool } from '../members/served-tools';
import type { Composition } from '../composition/composition';
import { createdTask, enqueueTaskCall, McpTasksOptions, TaskStore } from '../tasks/tasks';
import { createdTaskResult, declaresTasks, missingTasksExtension, taskAsks } from '../tasks/tasks-extension';

/** What every tools/call of one server factory shares. */
export interface ToolCallDeps {
  tools: McpServedTools;
  composition: Composition;
  run: RunDeps;
  /** The queue tasks run on, and the store that answers for them (none: no tasks). */
  tasks?: { options: McpTasksOptions; store: TaskStore };
}

/** Where a tools/call arrived: the SDK server, its revision family, and what its entry can do. */
export interface ToolCallSite {
  server: Server;
  era: McpEra;
  /** 2026-07-28: the entry answers the tasks extension's methods, so the call may become a task. */
  taskMethods: boolean;
  /** One process serves every round of the call (stdio). */
  singleProcess: boolean;
}

/** A tool's taskSupport: forbidden (the default), optional or required. */
export const taskSupportOf = (served: ServedTool) => McpConfig.resolveOverrideFor(served.entry.definition, 'taskSupport');

/** Answers one tools/call: the tool's result, input-required, a created task, or a ProtocolError. */
export async function callTool(
  deps: ToolCallDeps,
  site: ToolCallSite,
  name: string,
  args: unknown,
  ctx: ServerContext,
  asTask: boolean,
): Promise<CallToolResult | { task: unknown }> {
  const { server, era, taskMethods } = site;
  const served = deps.tools.get(name);
  // A tool the caller may not see answers exactly as one that does not exist: nothing to probe.
  if (!served || !(await deps.composition.allows(server, served, ctx))) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
  }
  const { entry } = served;
  const support = taskSupportOf(served);
  if (era === 'modern') {
    // 2026-07-28: the server decides (the 2025 `task` param means nothing here): a task-capable tool
    // called by a client that declared the tasks extension runs as a task.
    asTask = support !== 'forbidden' && taskMethods && declaresTasks(ctx);
    if (!asTask && support === 'required') {
      if (!taskMethods) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Tool ${name} runs only as a task, and this server offers 2026-07-28 tasks over HTTP only (serveHttp); call it over HTTP, or over 2025-11-25.`,
        );
      }
      throw missingTasksExtension(`Tool ${name} runs only as a task, so calling it`);
    }
  } else if (asTask && support === 'forbidden') {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Tool ${name} cannot be called as a task (its taskSupport is forbidden); call it without params.task.`,
    );
  }
  if (era === 'legacy' && !asTask && support === 'required') {
    throw new ProtocolError(
      ProtocolErrorCode.MethodNotFound,
      `Tool ${name} must be called as a task (taskSupport required): add params.task.`,
    );
  }
  const prepared = await prepareRun(deps.run, server, era, ctx, entry.definition, name, args);
  if ('fault' in prepared) return serverFault(entry.definition, prepared.fault);
  try {
    return await runPrepared(deps, site, prepared, entry, name, args, ctx, asTask);
  } finally {
    prepared.rounds?.detach();
  }
}

/** The prepared run of a tools/call: as a task (enqueued), or through the tool's handler. */
async function runPrepared(
  deps: ToolCallDeps,
  { era, singleProcess }: ToolCallSite,
  prepared: PreparedRun,
  entry: ServedTool['entry'],
  name: string,
  args: unknown,
  ctx: ServerContext,
  asTask: boolean,
): Promise<CallToolResult | { task: unknown }> {
  const { invoker, seal } = deps.run;
  const { request, rounds, signal, binding, container: child, ambientContext, context, approve } = prepared;
  /** What a run that stopped at an ask answers: input-required (or the tool error that ends it instead). */
  const stopped = () => rounds!.answer(seal, binding, singleProcess, (error) => serverFault(entry.definition, error)) as CallToolResult;
  if (asTask) {
    // Admitted here, through the pipeline (checks, middleware, approval), and run on a worker with the
    // approved input; the request's own container and signal do not travel (cancel with tasks/cancel).
    // On 2026-07-28 an approval is asked in an input-required round before any task exists.
    const { options, store } = deps.tasks!;
    const job = await withMcpRequest(request, () =>
      enqueueTaskCall(
        invoker,
        options.queue,
        entry.definition,
        args ?? {},
        { ambientContext, container: child, request, signal, transport: 'mcp', approve, callId: String(request.requestId) },
        // Whose task it is: its caller's (callerIdentity).
        callerOf(ctx),
        () => rounds?.suspended === true,
        // 2026-07-28: the tool may ask inside the task what the request says its client can answer.
        era === 'modern' ? taskAsks(ctx) : [],
      ),
    );
    if (!job) return stopped();
    return era === 'modern' ? createdTaskResult(job, store) : createdTask(job, store);
  }
  const trace = new McpCallTrace(request, entry.tool.name, 'tools/call');
  const result = await withMcpRequest(request, () =>
    entry.handler(args, {
      invoker,
      ambientContext,
      container: child,
      request,
      signal,
      approve,
      callId: String(request.requestId),
      trace,
      context,
    }),
  );
  // A run that reached an unanswered ask ends as input-required, whatever the tool did with the suspension.
  if (rounds?.suspended) return stopped();
  // One that failed for want of a capability the request did not declare: -32021 (a tool that went on without it keeps its result).
  if (rounds?.missing && result.isError === true) throw rounds.missingCapability();
  return result;
}

/** The server's own problem (its ambientContext threw, its setup is wrong): reported once, never shown to the model. */
function serverFault(tool: ToolDefinition, wrapped: Error): CallToolResult {
  return guardToolResponse(
    tool,
    () => {
      throw wrapped;
    },
    (): CallToolResult => ({ isError: true, content: [{ type: 'text', text: tool.messages.error ?? DEFAULT_ERROR }] }),
  );
}
