/**
 * The tool search measure, shared by bench/search/run.ts and its test: on the kept catalogue
 * (bench/search/catalogue.json, 348 tools in 29 domains) and query set (bench/search/queries.json,
 * each with its expected tools), the top-5 recall of `ToolSearch` (the core `toolbox.search` and the
 * `search_tools` function use) and the tokens of the tool list a request carries, counted with
 * gpt-tokenizer's o200k_base encoding over the Chat Completions `tools` array: every tool (search
 * off) against the core set, the search function and the tools the query's search found (search on).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import 'reflect-metadata';
import { countTokens } from 'gpt-tokenizer';
import { Tool } from 'toolwright';
import { Toolbox, ToolSearch } from 'toolwright/toolbox';
import type { FunctionDescription, SearchableTool } from 'toolwright/toolbox';

/** One tool of the catalogue: its domain, and the function a model is shown. */
export interface CatalogueTool extends Required<Omit<SearchableTool, 'title'>> {
  readonly domain: string;
}

/**
 * One request: the user's words, the words a model sends to the search function for it (the
 * intent in a few plain words, as the function's description asks), and the tools a good search
 * finds for it in the top 5.
 */
export interface SearchQuery {
  readonly request: string;
  readonly query: string;
  readonly expected: readonly string[];
}

/** The tools listed with search on, from the start: a handful used in most conversations. */
export const CORE = ['send_email', 'create_event', 'search_files', 'post_message', 'create_task'];
/** How many tools one search finds. */
export const LIMIT = 5;

const read = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(__dirname, file), 'utf8')) as T;

export const catalogue = (): CatalogueTool[] => read('catalogue.json');
export const queries = (): SearchQuery[] => read('queries.json');

/** The Chat Completions `tools` array of these functions, as a request sends it. */
const toolsParameter = (functions: ReadonlyArray<Pick<FunctionDescription, 'name' | 'description' | 'parameters'>>) =>
  JSON.stringify(functions.map(({ name, description, parameters }) => ({ type: 'function', function: { name, description, parameters } })));

/** The `search_tools` function exactly as a toolbox with deferred loading lists it. */
function searchFunction(): FunctionDescription {
  @Tool('openai', { name: 'placeholder', description: 'A tool, so that the toolbox is not empty.' })
  class Placeholder {
    call() {
      return 'ok';
    }
  }
  const listed = new Toolbox([Placeholder], { search: { core: [] } }).functions();
  return listed[0];
}

export interface SearchMeasure {
  readonly tools: number;
  readonly queries: number;
  /** Expected tools found in the top 5 for the model's search words, over all expected tools. */
  readonly recall: number;
  /** The same for the user's own words searched as they are (no model in between): a harder, lexical baseline. */
  readonly recallRequest: number;
  /** Queries whose expected tools were not all in the top 5, with what was found. */
  readonly misses: ReadonlyArray<{ query: string; expected: readonly string[]; found: string[] }>;
  /** Tokens of the tool list with every tool listed. */
  readonly tokensOff: number;
  /** Tokens of the tool list after a search, averaged over the queries: the core set, the search function, the found tools. */
  readonly tokensOn: number;
  /** Tokens of the tool list before any search: the core set and the search function. */
  readonly tokensCore: number;
  /** The highest tokens of one query's list after its search. */
  readonly tokensOnMax: number;
}

export function measureSearch(tools = catalogue(), set = queries()): SearchMeasure {
  const index = new ToolSearch(tools);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const core = CORE.map((name) => byName.get(name)!);
  const search = searchFunction();
  let expectedCount = 0;
  let foundCount = 0;
  let tokensOnSum = 0;
  let tokensOnMax = 0;
  const misses: Array<{ query: string; expected: readonly string[]; found: string[] }> = [];
  let foundRequest = 0;
  for (const { request, query, expected } of set) {
    const foundForRequest = index.search(request, { limit: LIMIT }).map((hit) => hit.name);
    foundRequest += expected.filter((name) => foundForRequest.includes(name)).length;
    const found = index.search(query, { limit: LIMIT }).map((hit) => hit.name);
    const hits = expected.filter((name) => found.includes(name)).length;
    expectedCount += expected.length;
    foundCount += hits;
    if (hits < expected.length) misses.push({ query, expected, found });
    const listed = [...core, ...found.filter((name) => !CORE.includes(name)).map((name) => byName.get(name)!), search];
    const tokens = countTokens(toolsParameter(listed));
    tokensOnSum += tokens;
    tokensOnMax = Math.max(tokensOnMax, tokens);
  }
  return {
    tools: tools.length,
    queries: set.length,
    recall: foundCount / expectedCount,
    recallRequest: foundRequest / expectedCount,
    misses,
    tokensOff: countTokens(toolsParameter(tools)),
    tokensOn: tokensOnSum / set.length,
    tokensCore: countTokens(toolsParameter([...core, search])),
    tokensOnMax,
  };
}
