/**
 * Provider function schemas: the Chat Completions `tools` entry and the Responses API function
 * tool, built from one description. Never a `null`-valued key; always a fresh object.
 */
import { JsonSchema, ToolDefinition, ToolLike, Tools } from '../../index';
import { checkOptionsObject, describeValue } from '../../adapter-kit';
import { OPENAI_ADAPTER } from './config';
import { DeclarationError } from '../../index';

/** What OpenAI accepts as a function name. Longer or other names are refused, never truncated. */
export const FUNCTION_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** The two OpenAI APIs: Chat Completions (`chat`) and Responses (`responses`). */
export type FunctionApi = 'chat' | 'responses';

/** A Chat Completions `tools` entry. */
export interface ChatFunctionTool {
  type: 'function';
  function: {
    name: string;
    description?: string;
    parameters: JsonSchema;
    /** Present (and true) only for the strict projection. */
    strict?: boolean;
  };
}

/** A Responses API function tool (`strict` is always stated: that API defaults it to true). */
export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: JsonSchema;
  strict: boolean;
}

/** The options of `toFunctionSchema(tool, { ... })`: the strict projection, and which OpenAI API's tool form. */
export interface FunctionSchemaOptions {
  /** The strict-mode projection: every property required, optional ones nullable (default false). */
  strict?: boolean;
  /** `chat` (default): a Chat Completions tool; `responses`: a Responses API function tool. */
  api?: FunctionApi;
}

/** @internal One function as any API describes it. */
export interface FunctionDescription {
  readonly name: string;
  readonly description?: string;
  readonly parameters: JsonSchema;
  readonly strict: boolean;
}

/**
 * @internal Checks a function name; `owner` names what it belongs to and `fix` says what to do.
 */
export function checkFunctionName(name: unknown, owner: string, fix: string): string {
  if (typeof name === 'string' && FUNCTION_NAME_PATTERN.test(name)) return name;
  const why =
    typeof name !== 'string'
      ? 'is not a string'
      : name.length === 0
        ? 'is empty'
        : name.length > 64
          ? `is ${name.length} characters long`
          : "has characters other than letters, digits, '_' and '-'";
  throw new DeclarationError(
    `${owner}: the function name ${describeValue(name)} ${why}; function names must match ^[a-zA-Z0-9_-]{1,64}$ and are never truncated. ${fix}`,
  );
}

/** @internal The fix for a local tool's name. */
export function renameHint(definition: ToolDefinition): string {
  return `Give ${definition.id} a shorter name with @Tool({ adapters: { openai: { name: '…' } } }).`;
}

/** @internal Resolves a tool for function calling: its definition and checked `openai` name. */
export function resolveFunctionTool(tool: ToolLike, where: string): { definition: ToolDefinition; name: string } {
  const definition = Tools.resolve(tool);
  if (definition.declaration?.optOut) {
    throw new DeclarationError(`${where}: ${definition.id} opted out of being a tool (@Tool(false)); it cannot be offered to a model.`, {
      class: definition.target,
      member: definition.kind === 'method' ? definition.method : undefined,
    });
  }
  return { definition, name: checkFunctionName(definition.toolName(OPENAI_ADAPTER), definition.id, renameHint(definition)) };
}

/** @internal A local tool's description, with a fresh parameters schema. */
export function describeLocalFunction(definition: ToolDefinition, name: string, strict: boolean): FunctionDescription {
  const description = definition.description;
  return {
    name,
    ...(description ? { description } : {}),
    parameters: definition.inputSchema({ strict }),
    strict,
  };
}

/** @internal The provider object for one API. Copies nothing it does not own: `parameters` is fresh. */
export function formatFunction(described: FunctionDescription, api: 'chat'): ChatFunctionTool;
/** @internal */
export function formatFunction(described: FunctionDescription, api: 'responses'): ResponsesFunctionTool;
/** @internal */
export function formatFunction(described: FunctionDescription, api: FunctionApi): ChatFunctionTool | ResponsesFunctionTool;
export function formatFunction(described: FunctionDescription, api: FunctionApi): ChatFunctionTool | ResponsesFunctionTool {
  const { name, description, parameters, strict } = described;
  const text = description ? { description } : {};
  if (api === 'responses') return { type: 'function', name, ...text, parameters, strict };
  return { type: 'function', function: { name, ...text, parameters, ...(strict ? { strict: true } : {}) } };
}

/** @internal Checks `{ strict?, api? }` and friends; returns the resolved values. */
export function readSchemaOptions(
  options: unknown,
  where: string,
  extra: readonly string[] = [],
): { strict: boolean | undefined; api: FunctionApi; rest: Record<string, unknown> } {
  if (options === undefined) return { strict: undefined, api: 'chat', rest: {} };
  const { strict, api = 'chat', ...rest } = checkOptionsObject(where, options, ['strict', 'api', ...extra]);
  if (strict !== undefined && typeof strict !== 'boolean') {
    throw new DeclarationError(`${where}: 'strict' must be true or false; got ${describeValue(strict)}.`);
  }
  if (api !== 'chat' && api !== 'responses') {
    throw new DeclarationError(`${where}: 'api' must be 'chat' or 'responses'; got ${describeValue(api)}.`);
  }
  return { strict, api, rest };
}

/**
 * A tool's function schema for OpenAI:
 * `{ type: 'function', function: { name, description, parameters, strict? } }` (Chat Completions), or
 * with `api: 'responses'` the Responses API's `{ type: 'function', name, description, parameters, strict }`.
 * The name is the tool's `openai` name; one that does not match `^[a-zA-Z0-9_-]{1,64}$` is an error
 * naming the tool. `strict: true` uses the strict-mode projection of the input schema.
 */
export function toFunctionSchema(tool: ToolLike, options?: FunctionSchemaOptions & { api?: 'chat' }): ChatFunctionTool;
export function toFunctionSchema(tool: ToolLike, options: FunctionSchemaOptions & { api: 'responses' }): ResponsesFunctionTool;
export function toFunctionSchema(tool: ToolLike, options?: FunctionSchemaOptions): ChatFunctionTool | ResponsesFunctionTool;
export function toFunctionSchema(tool: ToolLike, options?: FunctionSchemaOptions): ChatFunctionTool | ResponsesFunctionTool {
  const { strict, api } = readSchemaOptions(options, 'toFunctionSchema');
  const { definition, name } = resolveFunctionTool(tool, 'toFunctionSchema');
  return formatFunction(describeLocalFunction(definition, name, strict === true), api);
}
