/**
 * The Gemini API's shapes this entry point reads and writes (structural types, assignable to and
 * from `@google/genai`'s: this entry point never loads that package).
 */
import type { JsonSchema } from '../../index';

/** OpenAPI 3.0's types as Gemini's `Schema.type` spells them (`@google/genai`'s `Type` enum values). */
export type GeminiType = 'STRING' | 'NUMBER' | 'INTEGER' | 'BOOLEAN' | 'ARRAY' | 'OBJECT';

/**
 * Gemini's OpenAPI 3.0 subset (`FunctionDeclaration.parameters`, `@google/genai`'s `Schema`): upper-case
 * types, `nullable`, string-only enums, counts as int64 strings, no `$ref`.
 */
export interface GeminiSchema {
  type?: GeminiType;
  title?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  format?: string;
  anyOf?: GeminiSchema[];
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  propertyOrdering?: string[];
  items?: GeminiSchema;
  minItems?: string;
  maxItems?: string;
  minLength?: string;
  maxLength?: string;
  minProperties?: string;
  maxProperties?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
}

/** One function as Gemini declares it (`FunctionDeclaration`): its parameters in one of the two dialects. */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** The `openapi` dialect: Gemini's OpenAPI 3.0 subset. */
  parameters?: GeminiSchema;
  /** The `json-schema` dialect (the default): the JSON Schema subset Gemini reads. */
  parametersJsonSchema?: JsonSchema;
}

/** A Gemini `Tool` holding function declarations: what `config.tools` takes. */
export interface GeminiFunctionTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** A call the model makes (`FunctionCall`): `args` is an object, `id` present on newer models. */
export interface GeminiFunctionCall {
  id?: string;
  name?: string;
  args?: Record<string, unknown>;
}

/** A media part of a function response (`FunctionResponsePart`): inline bytes, base64. */
export interface GeminiFunctionResponsePart {
  inlineData: { mimeType: string; data: string };
}

/** The answer to one call (`FunctionResponse`): `{ output }` or `{ error }`, and media parts. */
export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  response: { output: unknown } | { error: string };
  parts?: GeminiFunctionResponsePart[];
}

/** A content part carrying a function response (`Part`): send these as a `user` turn. */
export interface GeminiFunctionResponseContentPart {
  functionResponse: GeminiFunctionResponse;
}
