/**
 * A toolbox's functions as Gemini's `config.tools`: one `Tool` holding every `functionDeclaration`,
 * its parameters in the dialect asked for.
 */
import { checkOptionsObject, describeValue } from '../../adapter-kit';
import { DeclarationError } from '../../index';
import type { Toolbox } from '../toolbox/index';
import { GeminiDialect, toGeminiParameters } from './schema-dialect';
import type { GeminiFunctionDeclaration, GeminiFunctionTool, GeminiOpenApiDeclaration, GeminiType } from './types';

/** The options of `toGeminiTools(toolbox, { ... })`. */
export interface GeminiToolsOptions {
  /** Only these function names (still in registration order; an unregistered name is an error). */
  only?: readonly string[];
  /**
   * `json-schema` (default): parameters as JSON Schema in `parametersJsonSchema`; `openapi`: as
   * Gemini's OpenAPI 3.0 subset in `parameters` (no recursion, no free-form objects).
   */
  dialect?: GeminiDialect;
}

/** Gemini's rule for function names: a letter or `_` first, then letters, digits, `_ . : -`, at most 128. */
const GEMINI_FUNCTION_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/;

const WHERE = 'toGeminiTools';

/**
 * The toolbox's functions as Gemini's tool list, `[{ functionDeclarations: [...] }]`, for
 * `generateContent({ config: { tools } })`. Each declaration is `{ name, description?,
 * parametersJsonSchema }` (the default `json-schema` dialect) or `{ name, description?, parameters }`
 * (`dialect: 'openapi'`; a tool without parameters has none). A keyword the dialect cannot say is
 * dropped only where the runtime still checks it on every call; what it cannot say at all is a
 * DeclarationError naming the tool and the field. A name Gemini refuses (one starting with a digit
 * or `-`) is an error naming the function.
 */
export function toGeminiTools(toolbox: Toolbox, options?: GeminiToolsOptions & { dialect?: 'json-schema' }): GeminiFunctionTool[];
/** In the `openapi` dialect; `T` is the type of the schemas' `type` (inferred as the SDK's `Type` where the list is assigned to its types). */
export function toGeminiTools<T extends string = GeminiType>(toolbox: Toolbox, options: GeminiToolsOptions & { dialect: 'openapi' }): GeminiFunctionTool<GeminiOpenApiDeclaration<T>>[];
/** Either dialect. */
export function toGeminiTools(toolbox: Toolbox, options?: GeminiToolsOptions): GeminiFunctionTool<GeminiFunctionDeclaration | GeminiOpenApiDeclaration>[];
export function toGeminiTools(toolbox: Toolbox, options?: GeminiToolsOptions): GeminiFunctionTool<GeminiFunctionDeclaration | GeminiOpenApiDeclaration>[] {
  const { only, dialect = 'json-schema' } = options === undefined ? {} : checkOptionsObject(WHERE, options, ['only', 'dialect']);
  if (dialect !== 'json-schema' && dialect !== 'openapi') {
    throw new DeclarationError(`${WHERE}: 'dialect' must be 'json-schema' or 'openapi'; got ${describeValue(dialect)}.`);
  }
  if (typeof (toolbox as Partial<Toolbox> | undefined)?.functions !== 'function') {
    throw new DeclarationError(`${WHERE}: expected a Toolbox (from toolwright/toolbox or toolwright/openai); got ${describeValue(toolbox)}.`);
  }
  // Gemini has no strict mode: the plain schema, every time.
  const functions = toolbox.functions({ strict: false, ...(only !== undefined ? { only: only as readonly string[] } : {}) });
  const functionDeclarations = functions.map(({ name, description, parameters }): GeminiFunctionDeclaration | GeminiOpenApiDeclaration => {
    if (!GEMINI_FUNCTION_NAME.test(name)) {
      throw new DeclarationError(
        `${WHERE}: the function name '${name}' does not start with a letter or '_', and Gemini refuses it. ` +
          "Rename the tool with @Tool({ adapters: { openai: { name: '…' } } }) (or mount the MCP server under another alias).",
      );
    }
    const text = description ? { description } : {};
    if (dialect === 'json-schema') return { name, ...text, parametersJsonSchema: toGeminiParameters(parameters, dialect, { caller: WHERE, tool: name }) };
    const openapi = toGeminiParameters(parameters, dialect, { caller: WHERE, tool: name });
    return { name, ...text, ...(openapi ? { parameters: openapi } : {}) };
  });
  return [{ functionDeclarations }];
}
