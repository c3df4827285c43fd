/**
 * `toolwright/openai`: function calling with OpenAI's APIs (Chat Completions and Responses) and
 * anything that speaks their tool-call format: the Toolbox of `toolwright/toolbox` with `schemas()`
 * in OpenAI's forms, and `toMessages`. Importing it registers the adapter key `openai`. It does not
 * load the `openai` package: its types are structural, so it needs no peer.
 *
 * @module toolwright/openai
 */
import * as mcpClient from '../mcp-client/index';

// The transport-neutral parts live in toolwright/toolbox; these names stay here, the very same.
export { FUNCTION_NAME_PATTERN, OPENAI_ADAPTER, OpenAIConfig } from '../toolbox/index';
export type {
  AddMcpServerOptions,
  ApiOf,
  ChatCompletionsCustomToolCall,
  ChatCompletionsToolCall,
  FunctionApi,
  InvokeAllOptions,
  PlainToolCall,
  RegisterOptions,
  ResponsesFunctionCall,
  ToolboxCallOptions,
  ToolboxOptions,
  ToolCallInput,
  ToolCallMatch,
  ToolCallRecord,
} from '../toolbox/index';
export { toFunctionSchema } from './function-format';
export type { ChatFunctionTool, FunctionSchemaOptions, ResponsesFunctionTool } from './function-format';
export { Toolbox } from './toolbox';
export type { SchemasOptions } from './toolbox';
export { toMessages } from './messages';
export type { ChatToolMessage, ResponsesFunctionCallOutput, ResponsesOutputPart, ToMessagesOptions } from './messages';

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
