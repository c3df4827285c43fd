/**
 * A toolbox's functions as every provider starts from them: the checked function name (the tool's
 * `openai` name, the function-calling adapter key's), the description, and a fresh parameters schema
 * (the strict projection or not). Each provider adapter formats these in its own dialect.
 */
import { JsonSchema, ToolDefinition, ToolLike, Tools } from '../../index';
import { checkOptionsObject, describeValue } from '../../adapter-kit';
import { OPENAI_ADAPTER } from './config';
import { DeclarationError } from '../../index';

/** What OpenAI accepts as a function name. Longer or other names are refused, never truncated. */
export const FUNCTION_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The message form a call's answer takes: OpenAI Chat Completions (`chat`, also every call given as
 * `{ name, arguments }`) or Responses (`responses`).
 */
export type FunctionApi = 'chat' | 'responses';

/** One function of a toolbox, as every provider's tool format starts from it (`toolbox.functions()`). */
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


/** The options of `toolbox.functions({ ... })` and `describeFunction(tool, { ... })`. */
export interface DescribeFunctionOptions {
  /** The strict-mode projection: every property required, optional ones nullable (default false). */
  strict?: boolean;
}

/** The options of `describeFunction(tool, { ... })`. */
export interface DescribeToolOptions extends DescribeFunctionOptions {
  /** What errors name as the caller (default `describeFunction`): an adapter's own function, e.g. `toFunctionSchema`. */
  caller?: string;
}

/** @internal Checks `{ strict? }` (and `extra` keys, returned as `rest`). */
export function readDescribeOptions(options: unknown, where: string, extra: readonly string[] = []): { strict: boolean | undefined; rest: Record<string, unknown> } {
  if (options === undefined) return { strict: undefined, rest: {} };
  const { strict, ...rest } = checkOptionsObject(where, options, ['strict', ...extra]);
  if (strict !== undefined && typeof strict !== 'boolean') {
    throw new DeclarationError(`${where}: 'strict' must be true or false; got ${describeValue(strict)}.`);
  }
  return { strict, rest };
}

/**
 * A tool's function as every provider's tool format starts from it: `{ name, description?,
 * parameters, strict }`. The name is the tool's `openai` name (the function-calling adapter key's);
 * one that does not match `^[a-zA-Z0-9_-]{1,64}$` is an error naming the tool. `strict: true` gives
 * the strict-mode projection of the input schema.
 */
export function describeFunction(tool: ToolLike, options?: DescribeToolOptions): FunctionDescription {
  const { strict, rest } = readDescribeOptions(options, 'describeFunction', ['caller']);
  const caller = rest.caller ?? 'describeFunction';
  if (typeof caller !== 'string') throw new DeclarationError(`describeFunction: 'caller' must be a string; got ${describeValue(caller)}.`);
  const { definition, name } = resolveFunctionTool(tool, caller);
  return describeLocalFunction(definition, name, strict === true);
}
