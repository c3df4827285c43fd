/**
 * The search core every tool search uses (`toolbox.search`, the toolbox's `search_tools` function,
 * the MCP server's `toolSearch` option): a full-text index (MiniSearch, BM25+) over tool names,
 * titles, descriptions and the input fields' names and descriptions, with names and descriptions
 * weighed above field text, prefix and light fuzzy matching, and snake_case/camelCase names split
 * into words. Built once per catalogue; a changed catalogue is a new index.
 */
import MiniSearch from 'minisearch';
import { DeclarationError } from '../errors/declaration-errors';
import type { JsonSchema } from '../schema/build-schema';
import { describeValue } from '../util/describe-value';

/** A tool as the search reads it: `toolbox.functions()` entries and MCP tools both fit. */
export interface SearchableTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** The input schema: its properties' names and descriptions are searched (with less weight). */
  readonly parameters?: JsonSchema;
}

/** One tool found: its name, its description and how well it matched (higher is better). */
export interface ToolSearchHit {
  readonly name: string;
  readonly description?: string;
  readonly score: number;
}

/** The options of a search: how many tools at most (default 5, at most 50). */
export interface ToolSearchOptions {
  limit?: number;
}

/** The most tools one search returns, whatever `limit` asks. */
export const MAX_SEARCH_LIMIT = 50;
/** The longest query read; a longer one is an error (a query is a few words, not a document). */
export const MAX_QUERY_LENGTH = 1000;
/** How deep the input schema is read for field names and descriptions. */
const MAX_FIELD_DEPTH = 4;

const STOP_WORDS = new Set(
  'a an and are as at be by can do does for from get has have how i in is it me my of on or please set the this to use using want was what when where which who will with you your'.split(
    ' ',
  ),
);

/** Words of a text: snake_case, kebab-case, camelCase and dotted names split, lower-cased. */
export function searchWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

/** A light stem, so that "invoices" finds "invoice" and "refunding" finds "refund". */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('ed') && !word.endsWith('eed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

const processTerm = (term: string): string | null => (STOP_WORDS.has(term) ? null : stem(term));

/** The input fields' names and descriptions, depth-first, as one text. */
function fieldText(schema: unknown, depth = 0, out: string[] = []): string[] {
  if (depth > MAX_FIELD_DEPTH || schema === null || typeof schema !== 'object') return out;
  const node = schema as Record<string, unknown>;
  const properties = node.properties;
  if (properties !== null && typeof properties === 'object') {
    for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
      out.push(name);
      const description = (property as { description?: unknown } | null)?.description;
      if (typeof description === 'string') out.push(description);
      fieldText(property, depth + 1, out);
    }
  }
  if (node.items) fieldText(node.items, depth + 1, out);
  for (const key of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(node[key])) for (const branch of node[key]) fieldText(branch, depth + 1, out);
  return out;
}

interface Indexed {
  id: string;
  name: string;
  title: string;
  description: string;
  fields: string;
}

/** Checks a search's query and options; `where` names the caller (first-party: through adapter-kit/internal). */
export function readSearch(query: unknown, options: unknown, where: string): { query: string; limit: number } {
  if (typeof query !== 'string') throw new DeclarationError(`${where}: the query must be a string of words; got ${describeValue(query)}.`);
  if (query.length > MAX_QUERY_LENGTH) {
    throw new DeclarationError(`${where}: the query is ${query.length} characters long; at most ${MAX_QUERY_LENGTH}. Search with a few words.`);
  }
  if (options === undefined) return { query, limit: 5 };
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new DeclarationError(`${where}: the options must be an object ({ limit }); got ${describeValue(options)}.`);
  }
  const { limit = 5, ...rest } = options as { limit?: unknown };
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new DeclarationError(`${where}: unknown option '${unknown[0]}'; the only option is 'limit'.`);
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
    throw new DeclarationError(`${where}: 'limit' must be a whole number from 1 to ${MAX_SEARCH_LIMIT}; got ${describeValue(limit)}.`);
  }
  return { query, limit };
}

/**
 * A full-text index of tools: `search(query, { limit })` answers the best matches first. Build one
 * per catalogue (building reads every tool once); it does not follow later changes.
 *
 * ```ts
 * const index = new ToolSearch(toolbox.functions());
 * index.search('refund an order', { limit: 3 }); // [{ name: 'refund_order', description: '…', score: 12.3 }, …]
 * ```
 */
export class ToolSearch {
  private readonly index = new MiniSearch<Indexed>({
    fields: ['name', 'title', 'description', 'fields'],
    storeFields: ['description'],
    tokenize: searchWords,
    processTerm,
    searchOptions: {
      boost: { name: 3, title: 2, description: 2, fields: 1 },
      prefix: (term) => term.length > 3,
      fuzzy: (term) => (term.length > 5 ? 0.2 : false),
      combineWith: 'OR',
    },
  });

  constructor(tools: Iterable<SearchableTool>) {
    const seen = new Set<string>();
    const documents: Indexed[] = [];
    for (const tool of tools) {
      if (seen.has(tool.name)) continue;
      seen.add(tool.name);
      documents.push({
        id: tool.name,
        name: tool.name,
        title: tool.title ?? '',
        description: tool.description ?? '',
        fields: fieldText(tool.parameters).join(' '),
      });
    }
    this.index.addAll(documents);
  }

  /**
   * The tools that best match the query, best first, at most `limit` (default 5, at most 50).
   * `accept` keeps only the names it accepts (e.g. the tools a caller may see), before the limit.
   */
  search(query: string, options?: ToolSearchOptions, accept?: (name: string) => boolean): ToolSearchHit[] {
    const { limit } = readSearch(query, options, 'ToolSearch.search');
    const results = this.index.search(query, accept ? { filter: (result) => accept(result.id as string) } : undefined);
    return results.slice(0, limit).map((result) => ({
      name: result.id as string,
      ...(result.description ? { description: result.description as string } : {}),
      score: result.score,
    }));
  }
}
