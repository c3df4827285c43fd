import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolResult,
  type IsomorphicHeaders,
  type JSONRPCRequest,
  type RequestId,
  type ServerCapabilities,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { container as rootContainer, type DependencyContainer, type InjectionToken } from 'tsyringe';
import { AmbientSource, CallTrace, Invoker, InvokerOptions, SpanAttributes, ToolDefinition } from '../../index';
import { DEFAULT_ERROR, describeValue, guardToolResponse } from '../../adapter-kit';
import { isPlainObject } from '../../adapter-kit/internal';
import { scopeListProblem } from './auth';
import { handleSetLevel, mcpCallContext, SessionState } from './call-context';
import { MCP_ADAPTER, McpConfig } from './config';
import { mcpApprover } from './approval';
import { McpRequestContext, withMcpRequest } from './request-context';
import { McpServedTools, ServableTool, ServedTool } from './served-tools';
import { checkTasksOptions, createdTask, enqueueTaskCall, McpTasksOptions, queueTaskStore } from './tasks';
import { mapResult, McpAdapter } from './wrap';
import { DeclarationError } from '../../index';

export interface McpServerOptions {
  /** The server's name, as clients show it. */
  name: string;
  version: string;
  /** Instructions for the model, sent at initialization. */
  instructions?: string;
  /** The tools to serve: tools, or entries from `McpAdapter.wrap`. Default: `McpAdapter.tools()`. */
  tools?: ReadonlyArray<ServableTool>;
  /** The container tools resolve from; each call gets a child of it with the request registered. */
  container?: DependencyContainer;
  /**
   * The trusted ambient values of a call, from its request (auth info, session, headers). Never
   * from the model's arguments.
   */
  ambientContext?: (request: McpRequestContext) => AmbientSource | undefined | Promise<AmbientSource | undefined>;
  /** Invoker options: `rejectUndeclaredInputs`, `userFacingInputErrors`, `onException`. */
  invoker?: Omit<InvokerOptions, 'container'>;
  /**
   * The scopes a request without auth info holds (stdio, or `serveHttp` without `auth`), for tools
   * that declare `scopes`. Default none: such tools are hidden and refused (fail-closed). A request
   * that `serveHttp({ auth })` verified holds its token's scopes only.
   */
  unauthenticatedScopes?: readonly string[];
  /**
   * Tools that need approval (`@Tool({ approval })`) ask through an elicitation; a client without
   * elicitation gets a refusal. `true` relies on the client's own confirmation UI instead: such
   * clients' calls run as confirmed. Default false.
   */
  trustClientConfirmation?: boolean;
  /** How long an approval question waits for the person's answer, in milliseconds (default 60,000, the SDK's request timeout); then the call is not approved. */
  approvalTimeoutMs?: number;
  /**
   * MCP tasks on a job queue: tools whose `taskSupport` is `optional` or `required` may be called
   * as tasks, which run on the queue's workers. Any server process on the same queue answers
   * `tasks/get`, `tasks/result` and `tasks/cancel`.
   */
  tasks?: McpTasksOptions;
  /**
   * Capabilities declared beside `tools` and `logging` (e.g. `{ resources: {}, prompts: {} }`), so
   * `configure` can answer their requests.
   */
  capabilities?: ServerCapabilities;
  /**
   * Called with every SDK server this builds (once per session; once per request in stateless mode;
   * once for stdio) before it connects: add resources, prompts, completions and anything else with
   * the SDK's own API (`server.setRequestHandler(ListResourcesRequestSchema, …)`). Declare their
   * capabilities in `capabilities`.
   */
  configure?: (server: Server) => void;
}

/** The factory of SDK servers `mcpServerFactory` returns, with the live tool set they share. */
export interface McpServerFactory {
  (): Server;
  /** The tools served: add and remove them at run time; clients are sent tools/list_changed. */
  readonly tools: McpServedTools;
}

/**
 * A JSON-RPC error the SDK sends as it is. (The SDK's `McpError` puts "MCP error <code>: " into its
 * message, and the client's `McpError` adds it again: "MCP error -32602: MCP error -32602: …".)
 */
class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** What the SDK hands a request handler of this server. */
type RequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

class RequestContext extends McpRequestContext {
  readonly requestId: RequestId;
  readonly sessionId?: string;
  readonly authInfo?: AuthInfo;
  readonly headers?: Readonly<IsomorphicHeaders>;
  readonly signal: AbortSignal;
  readonly meta?: Readonly<Record<string, unknown>>;

  constructor(private readonly extra: RequestExtra) {
    super();
    this.requestId = extra.requestId;
    this.sessionId = extra.sessionId;
    this.authInfo = extra.authInfo;
    this.headers = extra.requestInfo?.headers;
    this.signal = extra.signal;
    this.meta = extra._meta;
  }

  async progress(progress: number, total?: number, message?: string): Promise<void> {
    const progressToken = this.extra._meta?.progressToken;
    if (progressToken === undefined || this.signal.aborted) return;
    await this.extra.sendNotification({
      method: 'notifications/progress',
      params: { progressToken, progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) },
    });
  }
}

/**
 * Where a tools/call sits in a trace: the client's `_meta` trace context and the MCP span
 * attributes. Read only when the call opens a span (a tracer provider is registered).
 */
class McpCallTrace implements CallTrace {
  constructor(
    private readonly extra: RequestExtra,
    private readonly toolName: string,
  ) {}

  get parent(): CallTrace['parent'] {
    return this.extra._meta;
  }

  get attributes(): SpanAttributes {
    const { requestId, sessionId } = this.extra;
    return {
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': this.toolName,
      'jsonrpc.request.id': String(requestId),
      ...(sessionId !== undefined ? { 'mcp.session.id': sessionId } : {}),
    };
  }
}

/**
 * Builds the tool entries once and returns a factory of SDK servers over them: one server per
 * connection or session, as the SDK requires, all answering from the same prebuilt tool list.
 */
export function mcpServerFactory(options: McpServerOptions): McpServerFactory {
  if (typeof options?.name !== 'string' || typeof options.version !== 'string') {
    throw new DeclarationError("createMcpServer needs { name, version }, e.g. { name: 'loan-desk', version: '1.0.0' }.");
  }
  if (options.configure !== undefined && typeof options.configure !== 'function') {
    throw new DeclarationError(
      `createMcpServer: 'configure' must be a function (server) => void; got ${describeValue(options.configure)}.`,
    );
  }
  if (options.capabilities !== undefined && !isPlainObject(options.capabilities)) {
    throw new DeclarationError(
      `createMcpServer: 'capabilities' must be an object of MCP server capabilities, e.g. { resources: {} }; got ${describeValue(options.capabilities)}.`,
    );
  }
  const tools = new McpServedTools(options.tools ?? McpAdapter.tools());
  const unauthenticated = options.unauthenticatedScopes ?? [];
  const problem = scopeListProblem(unauthenticated);
  if (problem) throw new DeclarationError(`createMcpServer: unauthenticatedScopes ${problem}; got ${describeValue(unauthenticated)}.`);
  if (options.trustClientConfirmation !== undefined && typeof options.trustClientConfirmation !== 'boolean') {
    throw new DeclarationError(
      `createMcpServer: trustClientConfirmation must be true or false; got ${describeValue(options.trustClientConfirmation)}.`,
    );
  }
  const approvalTimeoutMs = options.approvalTimeoutMs ?? 60_000;
  if (typeof approvalTimeoutMs !== 'number' || !Number.isInteger(approvalTimeoutMs) || approvalTimeoutMs < 1) {
    throw new DeclarationError(
      `createMcpServer: approvalTimeoutMs must be a whole number of milliseconds of at least 1; got ${describeValue(approvalTimeoutMs)}.`,
    );
  }
  const tasks = checkTasksOptions(options.tasks);
  const taskSupportOf = (served: ServedTool) => McpConfig.resolveOverrideFor(served.entry.definition, 'taskSupport');
  const wantsTasks = [...tools.all()].filter((served) => taskSupportOf(served) !== 'forbidden');
  if (wantsTasks.length > 0 && !tasks) {
    throw new DeclarationError(
      `createMcpServer: ${wantsTasks[0].entry.definition.id} declares taskSupport '${taskSupportOf(wantsTasks[0])}', and the server has no queue to run tasks on. ` +
        'Pass tasks: { queue: createToolQueue({ connection }) } (toolwright/queue), or leave taskSupport out.',
      { class: wantsTasks[0].entry.definition.target },
    );
  }
  const taskStore = tasks
    ? queueTaskStore(
        tasks,
        wantsTasks.map((served) => served.entry.definition),
        (tool, result) => mapResult(tool, result),
      )
    : undefined;
  const invoker = new Invoker(options.invoker);
  const root = options.container ?? rootContainer;
  const capabilities: ServerCapabilities = { ...options.capabilities, tools: { listChanged: true }, logging: {} };

  /** Whether this request may see and call the tool: it holds every scope the tool declares. */
  const allowed = ({ scopes }: ServedTool, extra: RequestExtra): boolean => {
    if (scopes.length === 0) return true;
    const held = extra.authInfo ? extra.authInfo.scopes : unauthenticated;
    return scopes.every((scope) => held.includes(scope));
  };

  const call = async (
    server: Server,
    state: SessionState,
    name: string,
    args: unknown,
    extra: RequestExtra,
    asTask: boolean,
  ): Promise<CallToolResult | { task: unknown }> => {
    const served = tools.get(name);
    // A tool the caller may not see answers exactly as one that does not exist: nothing to probe.
    if (!served || !allowed(served, extra)) throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const { entry } = served;
    const support = taskSupportOf(served);
    if (asTask && support === 'forbidden') {
      throw new JsonRpcError(
        ErrorCode.InvalidParams,
        `Tool ${name} cannot be called as a task (its taskSupport is forbidden); call it without params.task.`,
      );
    }
    if (!asTask && support === 'required') {
      throw new JsonRpcError(ErrorCode.MethodNotFound, `Tool ${name} must be called as a task (taskSupport required): add params.task.`);
    }
    const request = new RequestContext(extra);
    const child = root.createChildContainer();
    // An abstract class is a fine token at run time; tsyringe's types only admit concrete ones.
    child.register(McpRequestContext as unknown as InjectionToken<McpRequestContext>, { useValue: request });
    let ambientContext: AmbientSource = {};
    if (options.ambientContext) {
      try {
        ambientContext = (await options.ambientContext(request)) ?? {};
      } catch (error) {
        return failedContext(entry.definition, error);
      }
    }
    // Approval, call id and trace context: the pipeline's view of this request.
    const approve = mcpApprover(server, extra, entry.tool.name, options.trustClientConfirmation === true, approvalTimeoutMs);
    if (asTask) {
      // Admitted here, through the pipeline (checks, middleware, approval), and run on a worker with the
      // approved input; the request's own container and signal do not travel (cancel with tasks/cancel).
      const job = await withMcpRequest(request, () =>
        enqueueTaskCall(invoker, tasks!.queue, entry.definition, args ?? {}, {
          ambientContext,
          container: child,
          signal: extra.signal,
          transport: 'mcp',
          approve,
          callId: String(extra.requestId),
        }),
      );
      return createdTask(job, tasks!, tasks!.queue.keepFinishedMs ?? null);
    }
    const context = mcpCallContext(server, state, request, name);
    const trace = new McpCallTrace(extra, entry.tool.name);
    return withMcpRequest(request, () =>
      entry.handler(args, {
        invoker,
        ambientContext,
        container: child,
        signal: extra.signal,
        approve,
        callId: String(extra.requestId),
        trace,
        context,
      }),
    );
  };

  const factory = () => {
    const server = new Server(
      { name: options.name, version: options.version },
      {
        capabilities: tasks ? { ...capabilities, tasks: { cancel: {}, requests: { tools: { call: {} } } } } : capabilities,
        ...(options.instructions ? { instructions: options.instructions } : {}),
        ...(taskStore ? { taskStore } : {}),
      },
    );
    const state: SessionState = {};
    handleSetLevel(server, state);
    server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => {
      if (!tools.scoped()) return tools.list();
      const visible: ServedTool[] = [];
      for (const served of tools.all()) if (allowed(served, extra)) visible.push(served);
      return { tools: visible.map((served) => served.entry.tool) };
    });
    // tools/call is answered here rather than through setRequestHandler: the SDK's Server parses its
    // params first and answers a malformed call with its whole schema report, twice prefixed.
    server.fallbackRequestHandler = async (request, extra) => {
      if (request.method !== 'tools/call') throw new JsonRpcError(ErrorCode.MethodNotFound, 'Method not found');
      const { name, args, asTask } = callParams(request);
      return call(server, state, name, args, extra, asTask);
    };
    options.configure?.(server);
    tools.attach(server);
    return server;
  };
  return Object.assign(factory, { tools });
}

/** An ambientContext function that threw: the server's problem, reported once, never shown to the model. */
function failedContext(tool: ToolDefinition, error: unknown): CallToolResult {
  const wrapped = new Error(
    `the server's ambientContext function threw for ${tool.toolName(MCP_ADAPTER)}: ${(error as Error)?.message ?? String(error)}`,
    {
      cause: error,
    },
  );
  return guardToolResponse(
    tool,
    () => {
      throw wrapped;
    },
    (): CallToolResult => ({ isError: true, content: [{ type: 'text', text: tool.messages.error ?? DEFAULT_ERROR }] }),
  );
}

/** The name and arguments of a tools/call request, or a one-line -32602 saying what is wrong. */
function callParams(request: JSONRPCRequest): { name: string; args: Record<string, unknown> | undefined; asTask: boolean } {
  const params = request.params as Record<string, unknown> | undefined;
  if (!isPlainObject(params) || typeof params.name !== 'string') {
    throw new JsonRpcError(ErrorCode.InvalidParams, "Invalid tools/call request: params.name must be the tool's name (a string).");
  }
  const args = params.arguments;
  if (args !== undefined && !isPlainObject(args)) {
    const kind = args === null ? 'null' : Array.isArray(args) ? 'an array' : `a ${typeof args}`;
    throw new JsonRpcError(
      ErrorCode.InvalidParams,
      `Invalid tools/call request: arguments must be an object of named arguments, not ${kind}.`,
    );
  }
  if (params.task !== undefined && !isPlainObject(params.task)) {
    throw new JsonRpcError(ErrorCode.InvalidParams, 'Invalid tools/call request: params.task must be an object such as { ttl: 60000 }.');
  }
  return { name: params.name, args, asTask: params.task !== undefined };
}

/**
 * An MCP server (the SDK's low-level `Server`) answering `tools/list` and `tools/call` for
 * toolwright tools. Connect it to any SDK transport; `serveStdio` and `serveHttp` do that for you.
 */
export function createMcpServer(options: McpServerOptions): Server {
  return mcpServerFactory(options)();
}
