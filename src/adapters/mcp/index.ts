/**
 * `toolwright/mcp`: serves toolwright tools to any MCP client through the official SDK
 * (`@modelcontextprotocol/server` 2.x, an optional peer dependency needed by this entry point only). Importing it registers
 * the adapter key `mcp` and the semantic hints `openWorld` and `closedWorld`.
 *
 * @module toolwright/mcp
 */
import './peers';
export { MCP_ADAPTER, McpConfig } from './members/config';
export { McpAdapter } from './members/wrap';
export type { McpCallOptions, McpToolEntry, WrapOptions } from './members/wrap';
export { createMcpServer, mcpServerFactory } from './server/factory';
export type { McpSdkServer, McpServerFactory, McpServerFactoryContext, McpServerOptions } from './server/factory';
export type { McpEra } from './members/call-context';
export type { McpListCache, McpReadCache } from './protocol/list-cache';
export type { McpToolIcon } from './members/tool-extras';
export type { McpRequestStateOptions, McpSpentApprovals } from './protocol/request-state';
export type { McpTaskAsk, McpTaskJob, McpTaskQueue, McpTasksOptions } from './tasks/tasks';
export { McpServedTools } from './members/served-tools';
export { McpServedMembers } from './members/served-members';
export { McpServedCompletions, McpServedPrompts, McpServedResources } from './members/member-entries';
export type { McpCompletionEntry, McpPromptEntry, McpResourceEntry } from './members/member-entries';
export { InMemoryEventStore } from './hosting/event-store';
export type { EventStore } from './hosting/event-store';
export type { McpSsePolling } from './hosting/sse-polling';
export type { ServableTool } from './members/served-tools';
export { createMcpHttpHandler, serveHttp, serveStdio } from './hosting/serve';
export type { McpServedSets } from './members/served-sets';
export type { HttpServeOptions, McpHttpHandle, McpHttpHandler, McpNodeHandler, McpStdioHandle, StdioServeOptions } from './hosting/serve';
export { McpRequestContext, mcpRequest } from './members/request-context';
export type { McpRequestHeaders } from './members/request-context';
export type { AuthInfo, McpHttpAuth, McpResourceMetadata } from './auth/auth';
export { InsufficientScopeError, InvalidTokenError } from './auth/auth';
export type { McpCallerIdentity } from './auth/caller';
export type { McpMember } from './members/served-members';
export type { McpVisibleRule } from './composition/visibility';
export type { McpLocalMount, McpMount, McpRemoteMount } from './composition/mounts';
export type { McpToolSearchOptions } from './composition/tool-search';
