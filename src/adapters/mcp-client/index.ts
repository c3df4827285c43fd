/**
 * `toolwright/mcp-client`: a client for remote MCP servers, for mounting their tools in a toolwright
 * surface (the Toolbox of `toolwright/openai` and `toolwright/ai` does). A server's config is
 * checked against a security policy before anything starts (`admitMcpServer`), then connected
 * (`connectMcpServer`), listed and called. Importing it registers no adapter and has no side
 * effects; the MCP SDK's client (`@modelcontextprotocol/client` 2.x, an optional peer) is loaded on
 * first connect.
 *
 * @module toolwright/mcp-client
 */
export { admitMcpServer } from './admission';
export type { AdmittedMcpServer, McpClientOptions } from './admission';
export { connectMcpServer } from './connection';
export type { McpCallOptions, McpListKind, McpNegotiatedProtocol, McpServerConnection } from './connection';
export { remoteMemberDefinition, remoteToolDefinition, remoteToolProblem } from './remote-tool';
export type { RemoteMemberSpec, RemoteToolCall, RemoteToolOptions } from './remote-tool';
export type { McpInputHandlers } from './input-requests';
export { loadMcpConfig } from './server-config';
export type { McpCommandConfig, McpProtocol, McpServerConfig, McpUrlConfig } from './server-config';
export { McpSecurityError, McpSecurityPolicy } from './security-policy';
export type { McpSecurityPolicyOptions, McpTransportKind } from './security-policy';
export { REFUSED_ENV_VARIABLES } from './refused-env';
export type { McpAssertionContext, McpAuthorizationHandler, McpOAuthConfig } from './oauth/oauth-config';
export { FileTokenStore, MemoryTokenStore, RedisTokenStore } from './oauth/token-stores';
export type { McpTokenStore, RedisLike } from './oauth/token-stores';
export { McpAuthError } from './oauth/auth-error';
export { OAUTH_RESPONSE_LIMIT } from './oauth/oauth-fetch';
