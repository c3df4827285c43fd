/**
 * What an MCP server is, as a table of contents: its options are checked (options.ts); it serves
 * members (../members) under one rule of who may see them, with mounts (../composition); a tool call
 * may become a task (../tasks); a 2026-07-28 call may ask across rounds (../protocol). Hosting
 * (../hosting: HTTP, sessions, stdio) builds one SDK server per connection from the factory here.
 */
import { Server, type CallToolResult, type ListToolsResult, type ServerCapabilities } from '@modelcontextprotocol/server';
import type { IncomingHttpHeaders } from 'node:http';
import { container as rootContainer } from 'tsyringe';
import { DeclarationError, Invoker, ToolDefinition } from '../../../index';
import { callerOf } from '../auth/caller';
import type { McpEra } from '../members/call-context';
import { defaultMembers, McpServedCompletions, McpServedPrompts, McpServedResources } from '../members/member-entries';
import { handleMemberCalls } from '../members/member-calls';
import { handleMemberLists, memberCapabilities, MemberRule } from '../members/member-requests';
import type { RunDeps } from '../members/member-run';
import { ListenRequest, ResourceVisibleTo } from '../members/resource-listens';
import { McpServedTools } from '../members/served-tools';
import type { McpServedSets } from '../members/served-sets';
import { callParams, ToolsServer } from '../members/tools-server';
import { mapResult, McpAdapter } from '../members/wrap';
import { Composition } from '../composition/composition';
import { mountedDefinitions } from '../composition/mounts';
import { McpToolSearch } from '../composition/tool-search';
import type { InboundClassification } from '../protocol/classify';
import { checkListCache, checkReadCache } from '../protocol/list-cache';
import { RequestStateSeal } from '../protocol/request-state';
import { handleTasks, TaskStore } from '../tasks/tasks';
import { TASKS_EXTENSION_CAPABILITY, taskRequestAnswerer, TaskHttpAnswer } from '../tasks/tasks-extension';
import { checkServerOptions, McpServerOptions, runConfigure } from './options';
import { callTool, taskSupportOf, type ToolCallDeps } from './tool-call';

export type { McpSdkServer, McpServerOptions } from './options';

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
  /** @internal A stateless 2025-11-25 call answered over SSE: its client's asks are assumed (ToolsServer.assumeClientAsks). */
  assumeClientAsks?: boolean;
}

/** The factory of SDK servers `mcpServerFactory` returns, with the live tool set they share. */
export interface McpServerFactory extends McpServedSets {
  (context?: McpServerFactoryContext): Server;
  /** Resolves once every remote mount is connected and its tools served; rejects with why one could not be. */
  readonly ready: () => Promise<void>;
  /** Closes the remote mounts' connections (command servers' processes exit). */
  readonly close: () => Promise<void>;
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
  const checked = checkServerOptions(options);
  // What is served: members a local mount serves are left out of the defaults (served once, under their namespace).
  const mounted = mountedDefinitions(checked.mounts);
  const unmounted = <T extends { definition: ToolDefinition } | ToolDefinition>(all: T[]) =>
    all.filter((member) => !mounted.has(member instanceof ToolDefinition ? member : member.definition));
  const tools = new McpServedTools(options.tools ?? unmounted(McpAdapter.tools()));
  const resources = new McpServedResources(options.resources ?? unmounted(defaultMembers('resource', 'resource-template')));
  const prompts = new McpServedPrompts(options.prompts ?? unmounted(defaultMembers('prompt')));
  const completions = new McpServedCompletions(options.completions ?? unmounted(defaultMembers('completion')));
  const members = { resources, prompts, completions };
  // Who may see and use what: scopes, the visible rule, mounts.
  const composition = new Composition(options, checked.mounts, { tools, ...members }, checked.unauthenticated);
  const search = options.toolSearch === undefined ? undefined : new McpToolSearch(options.toolSearch, tools, composition);
  const store = taskStore(checked, tools);
  const listCache = checkListCache(options.listCache, composition.ruled);
  const readCache = checkReadCache(options.readCache, composition.ruled);
  // How members run: the invoker, in a child of the container, with the round state sealed for 2026-07-28.
  const invoker = new Invoker(options.resolver ? { ...options.invoker, resolver: options.resolver } : options.invoker);
  const seal = new RequestStateSeal(options.requestState, 'createMcpServer');
  const run: RunDeps = { root: options.container ?? rootContainer, ambientContext: options.ambientContext, seal, approval: checked.approval, invoker };
  const calls: ToolCallDeps = { tools, composition, run, tasks: store && { options: checked.tasks!, store } };
  const capabilities = capabilitiesOf(options, store !== undefined);

  /** Whether a URI names a resource the request's caller may see (for 2026-07-28 listen streams). */
  const resourceVisibleTo: ResourceVisibleTo = async (uri, request) =>
    (await resources.find(uri, (served) => composition.allowsRequest(served, request))) !== undefined;

  const factory = (context: McpServerFactoryContext = {}): Server => {
    const era: McpEra = context.era === 'modern' ? 'modern' : 'legacy';
    const taskMethods = era === 'modern' && context.answersTaskMethods === true && store !== undefined;
    const singleProcess = context.singleProcess === true;
    const server = new ToolsServer(
      { name: options.name, version: options.version },
      {
        capabilities: memberCapabilities(era === 'legacy' ? capabilities.legacy : taskMethods ? capabilities.modern : capabilities.plain, members),
        ...(options.instructions ? { instructions: options.instructions } : {}),
        cacheHints: {
          'tools/list': listCache.hint(tools),
          'resources/list': listCache.hint(resources),
          'resources/templates/list': listCache.hint(resources),
          'prompts/list': listCache.hint(prompts),
        },
      },
    );
    // THE rule of who may see and use a member of any kind: scopes, then the visible rule.
    const allowed: MemberRule = (served, ctx) => composition.allows(server, served, ctx);
    server.setRequestHandler('tools/list', async (_request, ctx): Promise<ListToolsResult> => {
      if (!search && !tools.scoped() && !composition.ruled) return tools.list();
      const visible = await composition.filter(server, tools.all(), ctx);
      // With toolSearch: the core set and what this session found, then the search tool.
      if (search) return search.list(server, visible);
      return { tools: visible.map((served) => served.entry.tool) };
    });
    // ToolsServer checks the params first, answering a malformed call in one line.
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const { name, args, asTask } = callParams(request);
      if (search && name === search.name) return search.call(server, args, ctx, !context.perRequest);
      return (await callTool(calls, { server, era, taskMethods, singleProcess }, name, args, ctx, asTask)) as CallToolResult;
    });
    if (store && era === 'legacy') handleTasks(server, store, callerOf, (tool, result) => mapResult(tool, result));
    handleMemberLists(server, members, allowed);
    handleMemberCalls({ server, era, members, allowed, deps: run, attached: !context.perRequest, singleProcess, readCache });
    if (era === 'modern' && !context.perRequest) {
      // A 2026-07-28 stdio connection: the SDK's router passes each update to the listen streams that
      // named its URI; it is sent only while the connection's caller may see that resource.
      resources.listens(server);
      const connection = new ListenRequest('stdio', server.getNegotiatedProtocolVersion() ?? '2026-07-28', new AbortController().signal);
      resources.seenBy(server, (uri) => resourceVisibleTo(uri, connection));
    }
    if (context.assumeClientAsks) server.assumeClientAsks();
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

/** The task store of the tools that may run as tasks; a tool that wants tasks on a server without a queue is a DeclarationError. */
function taskStore(checked: ReturnType<typeof checkServerOptions>, tools: McpServedTools): TaskStore | undefined {
  const wantsTasks = [...tools.all()].filter((served) => taskSupportOf(served) !== 'forbidden');
  if (wantsTasks.length > 0 && !checked.tasks) {
    throw new DeclarationError(
      `createMcpServer: ${wantsTasks[0].entry.definition.id} declares taskSupport '${taskSupportOf(wantsTasks[0])}', and the server has no queue to run tasks on. ` +
        'Pass tasks: { queue: createToolQueue({ connection }) } (toolwright/queue), or leave taskSupport out.',
      { class: wantsTasks[0].entry.definition.target },
    );
  }
  return checked.tasks ? new TaskStore(checked.tasks, wantsTasks.map((served) => served.entry.definition)) : undefined;
}

/**
 * The capabilities a server declares: the options' own, with `tools` and `logging`; with a queue, tasks
 * as each revision says them (2025-11-25's `tasks`, 2026-07-28's extension, declared only where the
 * entry answers the extension's methods).
 */
function capabilitiesOf(options: McpServerOptions, tasks: boolean): { plain: ServerCapabilities; modern: ServerCapabilities; legacy: ServerCapabilities } {
  const plain: ServerCapabilities = { ...options.capabilities, tools: { listChanged: true }, logging: {} };
  if (!tasks) return { plain, modern: plain, legacy: plain };
  return {
    plain,
    modern: { ...plain, extensions: { ...plain.extensions, ...TASKS_EXTENSION_CAPABILITY.extensions } },
    legacy: { ...plain, tasks: { cancel: {}, requests: { tools: { call: {} } } } },
  };
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
