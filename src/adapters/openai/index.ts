/**
 * `toolwright/openai`: function calling with OpenAI's APIs (Chat Completions and Responses) and
 * anything that speaks their tool-call format. Importing it registers the adapter key `openai`.
 * It does not load the `openai` package: its types are structural, so it needs no peer.
 */
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
export { McpSecurityError, McpSecurityPolicy } from './remote-mcp/security-policy';
export { REFUSED_ENV_VARIABLES } from './remote-mcp/refused-env';
export type { McpSecurityPolicyOptions, McpTransportKind } from './remote-mcp/security-policy';
export type { McpCommandConfig, McpServerConfig, McpUrlConfig } from './remote-mcp/server-config';
export type { AddMcpServerOptions } from './remote-mcp/mount';
