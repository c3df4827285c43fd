import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type ListToolsResult,
  type ServerCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { IncomingHttpHeaders } from 'node:http';
import type { InboundClassification } from './classify';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import { AmbientSource, Invoker, InvokerOptions, ToolDefinition, ToolLike, ToolResolver } from '../../index';
import { checkCallOptions, DEFAULT_ERROR, describeValue, guardToolResponse } from '../../adapter-kit';
import { isPlainObject } from '../../adapter-kit/internal';
import { scopeListProblem } from './auth';
import { callerOf } from './caller';
import type { McpEra } from './call-context';
import { McpConfig } from './config';
import { checkListCache, McpListCache } from './list-cache';
import { McpRequestContext, withMcpRequest } from './request-context';
import { McpCallTrace } from './call-request';
import { prepareRun, RunDeps } from './member-run';
import { McpServedTools, ServableTool, ServedTool } from './served-tools';
import { Composition, McpCompositionOptions } from './composition';
import { checkMounts, mountedDefinitions } from './mounts';
import { defaultMembers, McpServedCompletions, McpServedPrompts, McpServedResources } from './member-entries';
import { handleMemberLists, memberCapabilities, MemberRule } from './member-requests';
import { handleMemberCalls } from './member-calls';
import { callParams, ToolsServer } from './tools-server';
import { checkTasksOptions, createdTask, enqueueTaskCall, handleTasks, McpTasksOptions, TaskStore } from './tasks';
import {
  createdTaskResult,
  declaresTasks,
  missingTasksExtension,
  TASKS_EXTENSION_CAPABILITY,
  taskRequestAnswerer,
  TaskHttpAnswer,
} from './tasks-extension';
import { mapResult, McpAdapter } from './wrap';
import { DeclarationError } from '../../index';
import { McpRequestStateOptions, RequestStateSeal } from './request-state';
import { ListenRequest, ResourceVisibleTo } from './resource-listens';

/**
 * The options of `createMcpServer`, `serveHttp`, `serveStdio` and `createMcpHttpHandler`: the server's
 * identity, what it serves (tools, resources, prompts, completions, mounts), the container, the
 * trusted ambient values of each request, and the invoker.
 */
export interface McpServerOptions extends McpCompositionOptions {
  /** The server's name, as clients show it. */
  name: string;
  version: string;
  /** Instructions for the model, sent at initialization. */
  instructions?: string;
  /** The tools to serve: tools, or entries from `McpAdapter.wrap`. Default: `McpAdapter.tools()`. */
  tools?: ReadonlyArray<ServableTool>;
  /**
   * The resources and resource templates to serve (classes declared with `@Resource` or
   * `@ResourceTemplate`). Default: every `mcp` member of both kinds.
   */
  resources?: ReadonlyArray<ToolLike>;
  /** The prompts to serve (`@Prompt` classes or methods). Default: every `mcp` prompt. */
  prompts?: ReadonlyArray<ToolLike>;
  /** The completions to serve (`@Complete`), for the prompts' arguments and templates' variables. Default: every `mcp` completion. */
  completions?: ReadonlyArray<ToolLike>;
  /** The container tools resolve from; each call gets a child of it with the request registered. */
  container?: DependencyContainer;
  /**
   * How the instance a member runs on is made (default: tsyringe, from `container`). It gets the
   * call's `McpRequestContext` as `call.request`.
   */
  resolver?: ToolResolver;
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
   * as tasks, which run on the queue's workers. Any server process on the same queue answers for
   * any task: `tasks/get`, `tasks/result` and `tasks/cancel` on 2025-11-25; on 2026-07-28 the
   * `io.modelcontextprotocol/tasks` extension (`tasks/get`, `tasks/cancel`), where the server makes
   * a task of every call of such a tool from a client that declares the extension.
   */
  tasks?: McpTasksOptions;
  /**
   * Capabilities declared beside those toolwright declares (`tools`, `logging`, and `resources`,
   * `prompts`, `completions` when it serves such members), merged with them, so `configure` can
   * answer other requests.
   */
  capabilities?: ServerCapabilities;
  /**
   * Called with every SDK server (`Server` of `@modelcontextprotocol/server` 2.x) this builds, before
   * it connects: once per session; once per request in stateless mode and on MCP 2026-07-28; once per
   * stdio connection. Add anything toolwright does not serve with the SDK's own API
   * (`server.setRequestHandler(method, (request, ctx) => …)`); declare its capabilities in
   * `capabilities`. (Resources, prompts and completions are classes: `@Resource`, `@Prompt`, `@Complete`.)
   */
  configure?: (server: Server) => void;
  /**
   * How long MCP 2026-07-28 clients may keep a `tools/list` answer (and `resources/list`,
   * `resources/templates/list`, `prompts/list`) (`ttlMs`, default 60,000) and whether a shared cache
   * may (`cacheScope`; default `'private'` when any member of the list's kind declares scopes, since
   * then the list differs per caller, else `'public'`). 2025-11-25 answers carry neither.
   */
  listCache?: McpListCache;
  /**
   * How MCP 2026-07-28 input-required rounds keep a call's answers between rounds (elicitation,
   * sampling and approvals on a request without a session): sealed (AES-256-GCM) into the
   * `requestState` the client echoes. `keys`: secrets of at least 32 bytes, the same on every
   * replica (the first seals, any opens); `ttlMs` (default 600,000); `maxRounds` (default 8). Without
   * keys a per-process random key is used: fine for one process (stdio), refused for HTTP when
   * NODE_ENV is production, and warned about otherwise.
   */
  requestState?: McpRequestStateOptions;
}

/**
 * The SDK `Server` (`@modelcontextprotocol/server` 2.x) toolwright builds and hands to `configure`,
 * as toolwright's CommonJS build loads it. Annotate with this type in an ES-module application: the
 * SDK ships separate ESM and CommonJS typings, whose `Server` classes TypeScript keeps apart.
 */
export type McpSdkServer = Server;

/** What the serving entries tell the factory about the server they need. */
export interface McpServerFactoryContext {
  /** The protocol revision family the server serves: 2025-11-25 and before (default), or 2026-07-28. */
  era?: McpEra;
  /** @internal A server for one HTTP request of 2026-07-28: its list changes go out through the handler, not the server. */
  perRequest?: boolean;
  /** @internal One process serves every round of a call (stdio): a per-process requestState key is enough. */
  singleProcess?: boolean;
  /** @internal 2026-07-28: the entry answers the tasks extension's methods (`taskRequests`), so the server may create tasks. */
  answersTaskMethods?: boolean;
}

/** The factory of SDK servers `mcpServerFactory` returns, with the live tool set they share. */
export interface McpServerFactory {
  (context?: McpServerFactoryContext): Server;
  /** The tools served: add and remove them at run time; clients are sent tools/list_changed. */
  readonly tools: McpServedTools;
  /** Resolves once every remote mount is connected and its tools served; rejects with why one could not be. */
  readonly ready: () => Promise<void>;
  /** Closes the remote mounts' connections (command servers' processes exit). */
  readonly close: () => Promise<void>;
  /** The resources and resource templates served: add, remove, and `updated(uri)` for subscribers. */
  readonly resources: McpServedResources;
  /** The prompts served: add and remove them at run time; clients are sent prompts/list_changed. */
  readonly prompts: McpServedPrompts;
  /** The completions served. */
  readonly completions: McpServedCompletions;
  /**
   * @internal Runs the `configure` hook once on a server that is then dropped, so a hook that throws
   * fails the serving entry at start (a DeclarationError naming the hook), not every request after.
   */
  readonly checkConfigure: () => void;
  /** @internal Whether a URI names a resource a request's caller may see (2026-07-28 listen streams over HTTP). */
  readonly resourceVisibleTo: ResourceVisibleTo;
  /**
   * @internal The tasks extension's methods of a 2026-07-28 HTTP request (undefined: not one, or no
   * tasks): the SDK's 2026-07-28 dispatch refuses them by name before any server sees them.
   */
  readonly taskRequests?: (
    body: unknown,
    classified: InboundClassification,
    headers: IncomingHttpHeaders,
    /** The caller's identity (callerIdentity): whose tasks the request may see. */
    caller: string,
  ) => Promise<TaskHttpAnswer> | undefined;
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
  // Members a local mount serves are left out of the defaults: served once, under their namespace.
  const mounts = checkMounts(options.mounts);
  const mounted = mountedDefinitions(mounts);
  const unmounted = <T extends { definition: ToolDefinition } | ToolDefinition>(all: T[]) =>
    all.filter((member) => !mounted.has(member instanceof ToolDefinition ? member : member.definition));
  const tools = new McpServedTools(options.tools ?? unmounted(McpAdapter.tools()));
  const resources = new McpServedResources(options.resources ?? unmounted(defaultMembers('resource', 'resource-template')));
  const prompts = new McpServedPrompts(options.prompts ?? unmounted(defaultMembers('prompt')));
  const completions = new McpServedCompletions(options.completions ?? unmounted(defaultMembers('completion')));
  const unauthenticated = options.unauthenticatedScopes ?? [];
  const problem = scopeListProblem(unauthenticated);
  if (problem) throw new DeclarationError(`createMcpServer: unauthenticatedScopes ${problem}; got ${describeValue(unauthenticated)}.`);
  const composition = new Composition(options, mounts, { tools, resources, prompts, completions }, unauthenticated);
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
  const store = tasks
    ? new TaskStore(
        tasks,
        wantsTasks.map((served) => served.entry.definition),
      )
    : undefined;
  /** Whose tasks a request may see: its caller's (callerIdentity). */
  const owner = callerOf;
  const listCache = checkListCache(options.listCache, composition.ruled);
  checkCallOptions('createMcpServer', { resolver: options.resolver });
  const invoker = new Invoker(options.resolver ? { ...options.invoker, resolver: options.resolver } : options.invoker);
  const root = options.container ?? rootContainer;
  const capabilities: ServerCapabilities = { ...options.capabilities, tools: { listChanged: true }, logging: {} };
  const modernCapabilities: ServerCapabilities = tasks
    ? { ...capabilities, extensions: { ...capabilities.extensions, ...TASKS_EXTENSION_CAPABILITY.extensions } }
    : capabilities;
  const legacyCapabilities: ServerCapabilities = tasks
    ? { ...capabilities, tasks: { cancel: {}, requests: { tools: { call: {} } } } }
    : capabilities;
  const approval = { trusted: options.trustClientConfirmation === true, timeoutMs: approvalTimeoutMs };
  const seal = new RequestStateSeal(options.requestState, 'createMcpServer');
  const runDeps: RunDeps = { root, ambientContext: options.ambientContext, seal, approval, invoker };

  /** Whether a URI names a resource the request's caller may see (for 2026-07-28 listen streams). */
  const resourceVisibleTo: ResourceVisibleTo = async (uri, request) =>
    (await resources.find(uri, (served) => composition.allowsRequest(served, request))) !== undefined;

  const call = async (
    server: Server,
    era: McpEra,
    taskMethods: boolean,
    name: string,
    args: unknown,
    ctx: ServerContext,
    asTask: boolean,
    singleProcess: boolean,
  ): Promise<CallToolResult | { task: unknown }> => {
    const served = tools.get(name);
    // A tool the caller may not see answers exactly as one that does not exist: nothing to probe.
    if (!served || !(await composition.allows(server, served, ctx))) {
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
    const prepared = await prepareRun(runDeps, server, era, ctx, entry.definition, name, args);
    if ('fault' in prepared) return serverFault(entry.definition, prepared.fault);
    const { request, rounds, signal, binding, container: child, ambientContext, context, approve } = prepared;
    /** What a run that stopped at an ask answers: input-required (or the tool error that ends it instead). */
    const stopped = () => rounds!.answer(seal, binding, singleProcess, (error) => serverFault(entry.definition, error)) as CallToolResult;
    if (asTask) {
      // Admitted here, through the pipeline (checks, middleware, approval), and run on a worker with the
      // approved input; the request's own container and signal do not travel (cancel with tasks/cancel).
      // On 2026-07-28 an approval is asked in an input-required round before any task exists.
      const job = await withMcpRequest(request, () =>
        enqueueTaskCall(
          invoker,
          tasks!.queue,
          entry.definition,
          args ?? {},
          {
            ambientContext,
            container: child,
            request,
            signal,
            transport: 'mcp',
            approve,
            callId: String(request.requestId),
          },
          owner(ctx),
          () => rounds?.suspended === true,
        ),
      );
      if (!job) return stopped();
      return era === 'modern' ? createdTaskResult(job, store!) : createdTask(job, store!);
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
  };

  const factory = (context: McpServerFactoryContext = {}): Server => {
    const era: McpEra = context.era === 'modern' ? 'modern' : 'legacy';
    const taskMethods = era === 'modern' && context.answersTaskMethods === true && store !== undefined;
    const members = { resources, prompts, completions };
    const server = new ToolsServer(
      { name: options.name, version: options.version },
      {
        capabilities: memberCapabilities(era === 'legacy' ? legacyCapabilities : taskMethods ? modernCapabilities : capabilities, members),
        ...(options.instructions ? { instructions: options.instructions } : {}),
        cacheHints: {
          'tools/list': listCache.hint(tools),
          'resources/list': listCache.hint(resources),
          'resources/templates/list': listCache.hint(resources),
          'prompts/list': listCache.hint(prompts),
        },
      },
    );
    server.setRequestHandler('tools/list', async (_request, ctx): Promise<ListToolsResult> => {
      if (!tools.scoped() && !composition.ruled) return tools.list();
      const visible = await composition.filter(server, tools.all(), ctx);
      return { tools: visible.map((served) => served.entry.tool) };
    });
    // ToolsServer checks the params first, answering a malformed call in one line.
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const { name, args, asTask } = callParams(request);
      return (await call(server, era, taskMethods, name, args, ctx, asTask, context.singleProcess === true)) as CallToolResult;
    });
    if (store && era === 'legacy') handleTasks(server, store, owner, (tool, result) => mapResult(tool, result));
    // THE rule of who may see and use a member of any kind: scopes, then the visible rule.
    const allowed: MemberRule = (served, ctx) => composition.allows(server, served, ctx);
    handleMemberLists(server, members, allowed);
    handleMemberCalls({
      server,
      era,
      members,
      allowed,
      deps: runDeps,
      attached: !context.perRequest,
      singleProcess: context.singleProcess === true,
    });
    if (era === 'modern' && !context.perRequest) {
      // A 2026-07-28 stdio connection: the SDK's router passes each update to the listen streams that
      // named its URI; it is sent only while the connection's caller may see that resource.
      resources.listens(server);
      const connection = new ListenRequest('stdio', server.getNegotiatedProtocolVersion() ?? '2026-07-28', new AbortController().signal);
      resources.seenBy(server, (uri) => resourceVisibleTo(uri, connection));
    }
    if (options.configure) runConfigure(options.configure, server);
    if (!context.perRequest) for (const set of [tools, resources, prompts, completions]) set.attach(server);
    return server;
  };
  const taskRequests = store ? taskRequestAnswerer(store, options, (tool, result) => mapResult(tool, result)) : undefined;
  // Every option passed its checks: now the remote mounts may be started.
  composition.start();
  const ready = () => composition.ready();
  const close = () => composition.close();
  const checkConfigure = () => void (options.configure && factory({ perRequest: true }));
  return Object.assign(factory, { tools, resources, prompts, completions, taskRequests, resourceVisibleTo, ready, close, checkConfigure });
}

/** Runs the `configure` hook on one SDK server; a hook that throws is a DeclarationError naming it, with the thrown error as its cause. */
function runConfigure(configure: (server: Server) => void, server: Server): void {
  try {
    configure(server);
  } catch (error) {
    const thrown = error instanceof Error ? error.message : describeValue(error);
    throw new DeclarationError(
      `createMcpServer: the 'configure' hook threw: ${thrown}. It runs with every SDK server toolwright builds (at start, then once per session, ` +
        "per request and per stdio connection): make it not throw (a handler it adds needs its capability declared in 'capabilities').",
      { member: 'configure' },
      { cause: error },
    );
  }
}

/** Whether an error is the `configure` hook's failure (runConfigure's): the serving entries tell the client the hook failed. */
export function isConfigureFailure(error: unknown): error is DeclarationError {
  return error instanceof DeclarationError && error.site.member === 'configure' && error.site.class === undefined;
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

/**
 * An MCP server (the low-level `Server` of `@modelcontextprotocol/server` 2.x) answering `tools/list`
 * and `tools/call` for toolwright tools, speaking MCP 2025-11-25 (and earlier). Connect it to any SDK
 * transport; `serveStdio` and `serveHttp` do that for you, and serve 2026-07-28 as well.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const factory = mcpServerFactory(options);
  // Remote mounts connect in the background here: one that cannot be served is reported.
  factory.ready().catch((error: Error) => console.error(`toolwright/mcp: ${error.message}`));
  return factory();
}
