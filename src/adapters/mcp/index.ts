/**
 * `toolwright/mcp`: serves toolwright tools to any MCP client through the official SDK
 * (`@modelcontextprotocol/server` 2.x, an optional peer dependency needed by this entry point only). Importing it registers
 * the adapter key `mcp` and the semantic hints `openWorld` and `closedWorld`.
 *
 * @module toolwright/mcp
 */
export { MCP_ADAPTER, McpConfig } from './config';
export { McpAdapter } from './wrap';
export type { McpCallOptions, McpToolEntry, WrapOptions } from './wrap';
export { createMcpServer, mcpServerFactory } from './server';
export type { McpSdkServer, McpServerFactory, McpServerFactoryContext, McpServerOptions } from './server';
export type { McpEra } from './call-context';
export type { McpListCache } from './list-cache';
export type { McpToolIcon } from './tool-extras';
export type { McpRequestStateOptions, McpSpentApprovals } from './request-state';
export type { McpTaskJob, McpTaskQueue, McpTasksOptions } from './tasks';
export { McpServedTools } from './served-tools';
export { McpServedMembers } from './served-members';
export { McpServedCompletions, McpServedPrompts, McpServedResources } from './member-entries';
export type { McpCompletionEntry, McpPromptEntry, McpResourceEntry } from './member-entries';
export { InMemoryEventStore } from './event-store';
export type { EventStore } from './event-store';
export type { ServableTool } from './served-tools';
export { createMcpHttpHandler, serveHttp, serveStdio } from './serve';
export type { HttpServeOptions, McpHttpHandle, McpHttpHandler, McpNodeHandler, McpStdioHandle, StdioServeOptions } from './serve';
export { McpRequestContext, mcpRequest } from './request-context';
export type { McpRequestHeaders } from './request-context';
export type { AuthInfo, McpHttpAuth, McpResourceMetadata } from './auth';
export { InsufficientScopeError, InvalidTokenError } from './auth';
export type { McpCallerIdentity } from './caller';
export type { McpMember } from './served-members';
export type { McpVisibleRule } from './visibility';
export type { McpLocalMount, McpMount, McpRemoteMount } from './mounts';
