/**
 * `toolwright/toolbox`: the tools of a function-calling conversation, whatever the model's provider.
 * A `Toolbox` holds the conversation's functions (local tools and remote MCP servers' tools), runs the
 * calls a model makes through the invoker (trusted ambient values, approvals that run exactly what
 * was approved, sensitive values redacted in questions) and answers records. Each provider's entry
 * point (`toolwright/openai`, `toolwright/ai`, …) is a thin adapter over it: the functions in that
 * provider's schema dialect, its calls in, its result messages out. Importing it registers the
 * function-calling adapter key, `openai`. It needs no package.
 *
 * @module toolwright/toolbox
 */
export { OPENAI_ADAPTER, OpenAIConfig } from './config';
export { describeFunction, FUNCTION_NAME_PATTERN } from './function-schema';
export type { DescribeFunctionOptions, DescribeToolOptions, FunctionApi, FunctionDescription } from './function-schema';
export { Toolbox } from './toolbox';
export type { FunctionsOptions, RegisterOptions } from './toolbox';
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
export type { AddMcpServerOptions } from './remote-mcp/mount';
// The search core lives in toolwright/kit (toolwright/mcp uses it too); these are the very same.
export { ToolSearch } from '../../adapter-kit';
export type { SearchableTool, ToolSearchHit, ToolSearchOptions } from '../../adapter-kit';
export type { ToolboxSearchOptions } from './search/deferred';
