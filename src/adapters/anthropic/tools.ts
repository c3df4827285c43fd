/**
 * A toolbox's functions as the `tools` of an Anthropic Messages request (structural types,
 * assignable to `@anthropic-ai/sdk`'s `Tool` and tool search tools), with strict tool use and
 * Anthropic's own tool search (deferred loading).
 */
import type { JsonSchema } from '../../index';
import { DeclarationError } from '../../index';
import { checkOptionsObject, describeValue } from '../../adapter-kit';
import { Toolbox } from '../toolbox/index';
import { strictInputSchema } from './strict-schema';

/** A custom tool of a Messages request (`Anthropic.Tool`). */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: JsonSchema & { type: 'object' };
  /** Present (and true) only for strict tool use. */
  strict?: boolean;
  /** Present (and true) for a tool the model loads only when Anthropic's tool search finds it. */
  defer_loading?: boolean;
}

/** Anthropic's tool search tool (`Anthropic.ToolSearchToolBm25_20251119` or `ToolSearchToolRegex20251119`). */
export type AnthropicToolSearchTool =
  | { type: 'tool_search_tool_bm25_20251119'; name: 'tool_search_tool_bm25' }
  | { type: 'tool_search_tool_regex_20251119'; name: 'tool_search_tool_regex' };

/** The variants of Anthropic's tool search tool: natural-language queries (`bm25`) or regular expressions (`regex`). */
export type AnthropicToolSearch = 'bm25' | 'regex';

/** The options of `toAnthropicTools(toolbox, { ... })`. */
export interface AnthropicToolsOptions {
  /** Only these function names (still in registration order). An unregistered name is an error. */
  only?: readonly string[];
  /**
   * Strict tool use: each tool's `input_schema` in the part of JSON Schema strict tool use takes, and
   * `strict: true` (default: the toolbox's `strict`).
   */
  strict?: boolean;
  /**
   * Anthropic's tool search: adds its tool search tool (`bm25` or `regex`) and marks every tool not
   * in `core` `defer_loading: true`, so the model sees a deferred tool's schema only once a search found it.
   */
  toolSearch?: AnthropicToolSearch;
  /** With `toolSearch`: the names the model sees from the start (default: none). An unregistered name is an error. */
  core?: readonly string[];
}

const SEARCH_TOOLS: Record<AnthropicToolSearch, AnthropicToolSearchTool> = {
  bm25: { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
  regex: { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' },
};

/** Checks a list of function names (`only`, `core`) against the toolbox, as toAnthropicTools' own error. */
function checkNames(toolbox: Toolbox, names: unknown, key: string): readonly string[] | undefined {
  if (names === undefined) return undefined;
  if (!Array.isArray(names) || names.some((name) => typeof name !== 'string')) {
    throw new DeclarationError(`toAnthropicTools: '${key}' must be a list of function names; got ${describeValue(names)}.`);
  }
  const unknown = names.filter((name: string) => !toolbox.has(name));
  if (unknown.length > 0) {
    throw new DeclarationError(
      `toAnthropicTools: '${key}' names ${unknown.map((name: string) => `'${name}'`).join(', ')}, not in this toolbox. Registered: ${toolbox.names().join(', ') || 'none'}.`,
    );
  }
  return names as readonly string[];
}

/**
 * The tools of a Toolbox as a Messages request's `tools`: `{ name, description, input_schema }`,
 * in registration order, fresh objects. `strict: true` gives strict tool use (`strict: true` and the
 * schema projected to what strict tool use takes; a contract it cannot express is an error naming
 * the field). `toolSearch` adds Anthropic's tool search tool and defers every tool not in `core`.
 * The calls (`tool_use` blocks) go to `toolbox.invokeAll(toolCalls(message.content))`.
 */
export function toAnthropicTools(toolbox: Toolbox, options?: AnthropicToolsOptions & { toolSearch?: undefined }): AnthropicTool[];
export function toAnthropicTools(toolbox: Toolbox, options: AnthropicToolsOptions): Array<AnthropicTool | AnthropicToolSearchTool>;
export function toAnthropicTools(toolbox: Toolbox, options: AnthropicToolsOptions = {}): Array<AnthropicTool | AnthropicToolSearchTool> {
  if (!(toolbox instanceof Toolbox)) {
    throw new DeclarationError(`toAnthropicTools: expected a Toolbox (new Toolbox([...]) from 'toolwright/toolbox'); got ${describeValue(toolbox)}.`);
  }
  const { only, strict = toolbox.strict, toolSearch, core } = checkOptionsObject('toAnthropicTools', options, ['only', 'strict', 'toolSearch', 'core']);
  if (typeof strict !== 'boolean') throw new DeclarationError(`toAnthropicTools: 'strict' must be true or false; got ${describeValue(strict)}.`);
  if (toolSearch !== undefined && toolSearch !== 'bm25' && toolSearch !== 'regex') {
    throw new DeclarationError(`toAnthropicTools: 'toolSearch' must be 'bm25' or 'regex'; got ${describeValue(toolSearch)}.`);
  }
  if (core !== undefined && toolSearch === undefined) {
    throw new DeclarationError("toAnthropicTools: 'core' names the tools loaded up front with Anthropic's tool search; pass toolSearch: 'bm25' or 'regex' too.");
  }
  const coreNames = checkNames(toolbox, core, 'core') ?? [];
  // The plain schemas: strict tool use keeps optional fields optional, so calls read as sent.
  const tools = toolbox.functions({ only: checkNames(toolbox, only, 'only'), strict: false }).map((described): AnthropicTool => {
    const { name, description, parameters } = described;
    return {
      name,
      ...(description ? { description } : {}),
      input_schema: (strict ? strictInputSchema(name, parameters) : parameters) as AnthropicTool['input_schema'],
      ...(strict ? { strict: true } : {}),
      ...(toolSearch !== undefined && !coreNames.includes(name) ? { defer_loading: true } : {}),
    };
  });
  return toolSearch === undefined ? tools : [...tools, { ...SEARCH_TOOLS[toolSearch as AnthropicToolSearch] }];
}
