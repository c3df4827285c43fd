/**
 * OpenAI's function tool forms: the Chat Completions `tools` entry and the Responses API function
 * tool, built from a toolbox's function descriptions. Never a `null`-valued key; always a fresh object.
 */
import type { JsonSchema, ToolLike } from '../../index';
import { checkOptionsObject, describeValue } from '../../adapter-kit';
import { DeclarationError } from '../../index';
import { describeFunction, FunctionApi, FunctionDescription } from '../toolbox/index';

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
  return formatFunction(describeFunction(tool, { strict: strict === true, caller: 'toFunctionSchema' }), api);
}
