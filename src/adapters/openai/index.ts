/**
 * `toolwright/openai`: function calling with OpenAI's APIs (Chat Completions and Responses) and
 * anything that speaks their tool-call format. Importing it registers the adapter key `openai`.
 * It does not load the `openai` package: its types are structural, so it needs no peer.
 *
 * @module toolwright/openai
 */
import * as mcpClient from '../mcp-client/index';

export { OPENAI_ADAPTER, OpenAIConfig } from './config';
export { FUNCTION_NAME_PATTERN, toFunctionSchema } from './function-schema';
export type { ChatFunctionTool, FunctionApi, FunctionSchemaOptions, ResponsesFunctionTool } from './function-schema';
export { Toolbox } from './toolbox';
export type { RegisterOptions, SchemasOptions } from './toolbox';
export type { InvokeAllOptions, ToolboxOptions } from './options';
export type { ToolboxCallOptions } from './entry';
export type {
  ApiOf,
  ChatCompletionsCustomToolCall,
  ChatCompletionsToolCall,
  PlainToolCall,
  ResponsesFunctionCall,
  ToolCallInput,
  ToolCallMatch,
  ToolCallRecord,
} from './tool-calls';
export { toMessages } from './messages';
export type { ChatToolMessage, ResponsesFunctionCallOutput, ResponsesOutputPart, ToMessagesOptions } from './messages';
export type { AddMcpServerOptions } from './remote-mcp/mount';

// The MCP client moved to `toolwright/mcp-client`; these names stay here, deprecated, so code that
// imported them from `toolwright/openai` keeps compiling and working (the very same classes).
/** @deprecated Import McpSecurityPolicy from 'toolwright/mcp-client'. */
export const McpSecurityPolicy = mcpClient.McpSecurityPolicy;
/** @deprecated Import McpSecurityPolicy from 'toolwright/mcp-client'. */
export type McpSecurityPolicy = mcpClient.McpSecurityPolicy;
/** @deprecated Import McpSecurityError from 'toolwright/mcp-client'. */
export const McpSecurityError = mcpClient.McpSecurityError;
/** @deprecated Import McpSecurityError from 'toolwright/mcp-client'. */
export type McpSecurityError = mcpClient.McpSecurityError;
/** @deprecated Import REFUSED_ENV_VARIABLES from 'toolwright/mcp-client'. */
export const REFUSED_ENV_VARIABLES = mcpClient.REFUSED_ENV_VARIABLES;
/** @deprecated Import McpSecurityPolicyOptions from 'toolwright/mcp-client'. */
export type McpSecurityPolicyOptions = mcpClient.McpSecurityPolicyOptions;
/** @deprecated Import McpTransportKind from 'toolwright/mcp-client'. */
export type McpTransportKind = mcpClient.McpTransportKind;
/** @deprecated Import McpServerConfig from 'toolwright/mcp-client'. */
export type McpServerConfig = mcpClient.McpServerConfig;
/** @deprecated Import McpCommandConfig from 'toolwright/mcp-client'. */
export type McpCommandConfig = mcpClient.McpCommandConfig;
/** @deprecated Import McpUrlConfig from 'toolwright/mcp-client'. */
export type McpUrlConfig = mcpClient.McpUrlConfig;
