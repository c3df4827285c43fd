import type { AmbientSource, ToolDefinition } from '../../index';
import type { HttpServeOptions, McpRequestContext, McpServerOptions } from '../mcp/index';
import type { HttpApiOptions } from '../http/index';
import type { EndpointGuard } from './endpoint-guards';

/** The MCP endpoint on the application's server: both protocol revisions, through toolwright/mcp. */
export interface NestMcpOptions
  extends
    Omit<
      McpServerOptions,
      'name' | 'version' | 'tools' | 'resources' | 'prompts' | 'completions' | 'resolver' | 'ambientContext' | 'container'
    >,
    Pick<
      HttpServeOptions,
      'stateless' | 'eventStore' | 'auth' | 'sessionIdleTimeoutMs' | 'maxSessions' | 'allowedHosts' | 'allowedOrigins'
    > {
  /**
   * Where clients connect (default `/mcp`), on the application's own HTTP server, under its global
   * prefix (`app.setGlobalPrefix('api')`: `/api/mcp`) unless the prefix's `exclude` matches it.
   */
  path?: string;
  /** The server's name, as clients show it (default `toolwright`). */
  name?: string;
  /** Default `1.0.0`. */
  version?: string;
  /**
   * The host the application listens on (default 127.0.0.1: requests whose Host or Origin is not
   * loopback are refused, as `serveHttp` does; set `allowedHosts` for other names).
   */
  host?: string;
}

/** The HTTP API (toolwright/http) on the application's server. */
export interface NestHttpOptions extends Omit<HttpApiOptions, 'tools' | 'resolver' | 'ambientContext' | 'container' | 'prefix'> {
  /**
   * Where the routes live (default `/tools`: `POST /tools/check_credit/v1`), under the application's
   * global prefix unless the prefix's `exclude` matches this path (the API moves as one).
   */
  prefix?: string;
  /** As NestMcpOptions.host (default 127.0.0.1). */
  host?: string;
  allowedHosts?: readonly string[];
}

/** What `ambientContext` is told besides the platform request. */
export interface NestAmbientCall {
  readonly transport: 'mcp' | 'http';
  /** The member called (HTTP); over MCP, undefined (read `mcp`). */
  readonly tool?: ToolDefinition;
  /** The MCP request, over MCP. */
  readonly mcp?: McpRequestContext;
}

/** The options of `ToolwrightModule.forRoot({ ... })`: the MCP endpoint, the HTTP API, where a call's trusted ambient values come from, and the endpoints' guards. */
export interface ToolwrightModuleOptions {
  /** The MCP endpoint (default `{ path: '/mcp' }`); `false` serves none. */
  mcp?: NestMcpOptions | false;
  /** The HTTP API of the `http` members (default: none); `{ prefix: '/tools' }` serves it. */
  http?: NestHttpOptions | false;
  /**
   * The trusted ambient values of a call, from the platform's request (Express's or Fastify's),
   * e.g. `request.user` set by Passport. Never from the model's arguments.
   */
  ambientContext?: (request: any, call: NestAmbientCall) => AmbientSource | undefined | Promise<AmbientSource | undefined>;
  /**
   * Who is calling, from the platform's request after the endpoint guards ran: a non-empty string,
   * or undefined for an anonymous caller. An MCP session, its event streams and the tasks it makes
   * belong to this identity (and, with `mcp.auth`, to the verified token's too): any other caller is
   * answered as for an unknown session or task. Default `userIdentity`: `request.user`'s `id`,
   * `userId` or `sub` (a string or a number); no `request.user` is anonymous, and one without any of
   * those is answered 500 and logged, naming this option.
   */
  identity?: (request: any) => string | undefined | Promise<string | undefined>;
  /**
   * Nest guards run on every request to the MCP endpoint and the HTTP API, before toolwright reads
   * it (the place for authentication: a guard setting `request.user` makes it available to
   * `ambientContext`). Classes are resolved through Nest's container. See ./endpoint-guards.ts.
   */
  guards?: readonly EndpointGuard[];
}

/** `forRootAsync`: options made by a factory with Nest's injection. */
export interface ToolwrightModuleAsyncOptions {
  imports?: any[];
  inject?: any[];
  useFactory: (...args: any[]) => ToolwrightModuleOptions | Promise<ToolwrightModuleOptions>;
}

/** The injection token of the module's options. */
export const TOOLWRIGHT_MODULE_OPTIONS = Symbol.for('toolwright/nest:options');
