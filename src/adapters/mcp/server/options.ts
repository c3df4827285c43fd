/**
 * What a server is told: the options of `createMcpServer` (and of `serveHttp`, `serveStdio`,
 * `createMcpHttpHandler`), and their checks, made once when the server is built.
 */
import type { Server, ServerCapabilities } from '@modelcontextprotocol/server';
import type { DependencyContainer } from 'tsyringe';
import { AmbientSource, DeclarationError, InvokerOptions, ToolLike, ToolResolver } from '../../../index';
import { checkCallOptions, describeValue } from '../../../adapter-kit';
import { isPlainObject } from '../../../adapter-kit/internal';
import { scopeListProblem } from '../auth/auth';
import type { McpRequestContext } from '../members/request-context';
import type { ServableTool } from '../members/served-tools';
import type { McpCompositionOptions } from '../composition/composition';
import { checkMounts, type McpMount } from '../composition/mounts';
import type { McpToolSearchOptions } from '../composition/tool-search';
import { checkTasksOptions, type McpTasksOptions } from '../tasks/tasks';
import type { McpListCache, McpReadCache } from '../protocol/list-cache';
import type { McpRequestStateOptions } from '../protocol/request-state';

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
   * What MCP 2026-07-28 `resources/read` answers carry for resources without their own `cache`
   * (`@Resource(uri, { cache: { ttlMs, cacheScope } })`): `ttlMs` (default 0: read every time) and
   * `cacheScope` (default `'private'`; `'public'` is refused with a `visible` rule, and a resource with
   * scopes reads as `'private'` whatever this says). 2025-11-25 answers carry neither.
   */
  readCache?: McpReadCache;
  /**
   * How MCP 2026-07-28 input-required rounds keep a call's answers between rounds (elicitation,
   * sampling and approvals on a request without a session): sealed (AES-256-GCM) into the
   * `requestState` the client echoes. `keys`: secrets of at least 32 bytes, the same on every
   * replica (the first seals, any opens); `ttlMs` (default 600,000); `maxRounds` (default 8). Without
   * keys a per-process random key is used: fine for one process (stdio), refused for HTTP when
   * NODE_ENV is production, and warned about otherwise.
   */
  requestState?: McpRequestStateOptions;
  /**
   * Deferred loading for a large catalogue: `tools/list` answers the `core` tools and a search tool
   * (`search_tools`); the tools a session's search finds join that session's list, and its client is
   * sent `notifications/tools/list_changed`. A tool the caller may not see is never found. See the
   * Tool search guide (docs/guide/tool-search.md).
   */
  toolSearch?: McpToolSearchOptions;
}

/**
 * The SDK `Server` (`@modelcontextprotocol/server` 2.x) toolwright builds and hands to `configure`,
 * as toolwright's CommonJS build loads it. Annotate with this type in an ES-module application: the
 * SDK ships separate ESM and CommonJS typings, whose `Server` classes TypeScript keeps apart.
 */
export type McpSdkServer = Server;

/** The options after their checks: what the factory builds from. */
export interface CheckedServerOptions {
  mounts: McpMount[];
  /** The scopes a request without auth info holds. */
  unauthenticated: readonly string[];
  /** How approvals are asked: trusted to the client's own confirmation, and how long a question waits. */
  approval: { trusted: boolean; timeoutMs: number };
  tasks: McpTasksOptions | undefined;
}

/** Checks every option a server is built from; a wrong one is a DeclarationError that says the fix. */
export function checkServerOptions(options: McpServerOptions): CheckedServerOptions {
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
  const mounts = checkMounts(options.mounts);
  const unauthenticated = options.unauthenticatedScopes ?? [];
  const problem = scopeListProblem(unauthenticated);
  if (problem) throw new DeclarationError(`createMcpServer: unauthenticatedScopes ${problem}; got ${describeValue(unauthenticated)}.`);
  if (options.trustClientConfirmation !== undefined && typeof options.trustClientConfirmation !== 'boolean') {
    throw new DeclarationError(
      `createMcpServer: trustClientConfirmation must be true or false; got ${describeValue(options.trustClientConfirmation)}.`,
    );
  }
  const timeoutMs = options.approvalTimeoutMs ?? 60_000;
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw new DeclarationError(
      `createMcpServer: approvalTimeoutMs must be a whole number of milliseconds of at least 1; got ${describeValue(timeoutMs)}.`,
    );
  }
  const tasks = checkTasksOptions(options.tasks);
  checkCallOptions('createMcpServer', { resolver: options.resolver });
  return { mounts, unauthenticated, approval: { trusted: options.trustClientConfirmation === true, timeoutMs }, tasks };
}

/** Runs the `configure` hook on one SDK server; a hook that throws is a DeclarationError naming it, with the thrown error as its cause. */
export function runConfigure(configure: (server: Server) => void, server: Server): void {
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
