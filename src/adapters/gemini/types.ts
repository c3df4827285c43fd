/**
 * The Gemini API's shapes this entry point reads and writes (structural types, assignable to and
 * from `@google/genai`'s: this entry point never loads that package).
 */
import type { JsonSchema } from '../../index';

/** OpenAPI 3.0's types as Gemini's `Schema.type` spells them (`@google/genai`'s `Type` enum values). */
export type GeminiType = 'STRING' | 'NUMBER' | 'INTEGER' | 'BOOLEAN' | 'ARRAY' | 'OBJECT';

/**
 * Gemini's OpenAPI 3.0 subset (`FunctionDeclaration.parameters`, `@google/genai`'s `Schema`): upper-case
 * types, `nullable`, string-only enums, counts as int64 strings, no `$ref`. `T` is the type of `type`:
 * the SDK's `Type` is a string enum of these very values, which TypeScript keeps apart from string
 * literals, so a list assigned to the SDK's types infers `T` as `Type` (or pass it: `toGeminiTools<Type>`).
 */
export interface GeminiSchema<T extends string = GeminiType> {
  type?: T;
  title?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  format?: string;
  anyOf?: GeminiSchema<T>[];
  properties?: Record<string, GeminiSchema<T>>;
  required?: string[];
  propertyOrdering?: string[];
  items?: GeminiSchema<T>;
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

/** One function as Gemini declares it (`FunctionDeclaration`), in the `json-schema` dialect (the default). */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** The JSON Schema subset Gemini reads. */
  parametersJsonSchema: JsonSchema;
}

/** One function as Gemini declares it (`FunctionDeclaration`), in the `openapi` dialect. */
export interface GeminiOpenApiDeclaration<T extends string = GeminiType> {
  name: string;
  description?: string;
  /** Gemini's OpenAPI 3.0 subset; absent for a function without parameters. */
  parameters?: GeminiSchema<T>;
}

/** A Gemini `Tool` holding function declarations: what `config.tools` takes. */
export interface GeminiFunctionTool<D = GeminiFunctionDeclaration> {
  functionDeclarations: D[];
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
