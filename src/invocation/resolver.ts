/**
 * The resolver seam: how the instance a member runs on is made. One small interface, so the
 * invoker never names a container library; tsyringe's is the default (resolve-tool.ts).
 */
import type { ToolDefinition } from '../registry/tool-definition';
import type { TransportName } from './transport';

/** What a resolver is told about the call it makes an instance for. */
export interface ResolveCall {
  /** The member being called (`definition.target` is the class to make). */
  readonly definition: ToolDefinition;
  /** The transport the call came through (`mcp`, `http`, `queue`, `inprocess`, ...). */
  readonly transport: TransportName;
  /**
   * The transport's request object, when it has one: the `McpRequestContext` over MCP, the Fastify
   * request over toolwright/http, the job over the queue; undefined in process.
   */
  readonly request?: unknown;
  /**
   * The call's own `container` option (a tsyringe child container, as the MCP server makes per
   * call), passed through untouched; a resolver for another container ignores it.
   */
  readonly container?: unknown;
}

/**
 * Makes the instance a tool (or the service class of a method member) runs on. Return it, or a
 * Promise of it for a container that resolves asynchronously (Nest's `ModuleRef.resolve`); a
 * synchronous resolver adds no await to the call. Throw when it cannot: the call fails with a
 * `ToolResolutionError` naming the member and quoting the error.
 */
export interface ToolResolver {
  resolve(target: Function, call: ResolveCall): object | Promise<object>;
}
