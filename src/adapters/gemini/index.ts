/**
 * `toolwright/gemini`: function calling with Google's Gemini API (`@google/genai`), a thin adapter
 * over `toolwright/toolbox`: `toGeminiTools(toolbox)` for `config.tools` (parameters as JSON Schema
 * or Gemini's OpenAPI subset), `fromGeminiCalls(response)` for `toolbox.invokeAll`, and
 * `toFunctionResponses(records)` for the next turn. Its types are structural: it does not load
 * `@google/genai`, so it needs no peer.
 *
 * @module toolwright/gemini
 */
import '../toolbox/index';

export { toGeminiTools } from './tools';
export type { GeminiToolsOptions } from './tools';
export type { GeminiDialect } from './schema-dialect';
export { fromGeminiCalls, toFunctionResponses } from './calls';
export type { GeminiCallSource } from './calls';
export type {
  GeminiFunctionCall,
  GeminiFunctionDeclaration,
  GeminiFunctionResponse,
  GeminiFunctionResponseContentPart,
  GeminiFunctionResponsePart,
  GeminiFunctionTool,
  GeminiOpenApiDeclaration,
  GeminiSchema,
  GeminiType,
} from './types';
