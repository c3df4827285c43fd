/**
 * `toolwright/anthropic`: function calling with Anthropic's Messages API, a thin adapter over
 * `toolwright/toolbox`: `toAnthropicTools(toolbox)` for the request's `tools` (strict tool use and
 * Anthropic's tool search as options), `toolCalls(message)` for `toolbox.invokeAll`, and
 * `toToolResults(records)` for the next `user` message. Its types are structural: it does not load
 * `@anthropic-ai/sdk`, so it needs no peer.
 *
 * @module toolwright/anthropic
 */
export { toAnthropicTools } from './tools';
export type { AnthropicTool, AnthropicToolSearch, AnthropicToolSearchTool, AnthropicToolsOptions } from './tools';
export { toolCalls, toToolResults } from './messages';
export type { AnthropicContentBlock, AnthropicToolResult, AnthropicToolResultContent } from './messages';
