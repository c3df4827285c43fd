/**
 * Tool search in a toolbox: `toolbox.search(query)` over every function it holds, and deferred
 * loading (the `search` option): the listed functions are a core set plus a `search_tools`
 * function, and the tools a search finds join the listed ones for the rest of the conversation.
 */
import { DeclarationError, ToolLike } from '../../../index';
import { checkOptionsObject, describeValue } from '../../../adapter-kit';
import type { EntryOutcome, ToolboxEntry } from '../entry';
import { INVALID_ARGUMENTS, toolboxEntry } from '../entry';
import { checkFunctionName, resolveFunctionTool } from '../function-schema';
import { ToolSearch, ToolSearchHit, ToolSearchOptions } from '../../../adapter-kit';
import { MAX_QUERY_LENGTH, readSearch } from '../../../adapter-kit/internal';

/** The `search` option of `new Toolbox(tools, { search: { ... } })`: deferred loading. */
export interface ToolboxSearchOptions {
  /** The functions listed from the start (names or tools); every other one is found by searching. */
  core?: ReadonlyArray<string | ToolLike>;
  /** How many tools one search call finds at most (default 5, at most 50). */
  limit?: number;
  /** The search function's name (default `search_tools`). */
  name?: string;
}

/** The search function's name unless the option names another. */
export const SEARCH_TOOLS = 'search_tools';

/** @internal The checked `search` option. */
export interface DeferredSettings {
  readonly core: ReadonlySet<string>;
  readonly limit: number;
  readonly name: string;
}

/** @internal Checks the `search` option of `new Toolbox`. */
export function readDeferred(option: unknown): DeferredSettings | undefined {
  if (option === undefined) return undefined;
  const { core = [], limit = 5, name = SEARCH_TOOLS } = checkOptionsObject('new Toolbox: search', option, ['core', 'limit', 'name']);
  if (!Array.isArray(core)) throw new DeclarationError(`new Toolbox: 'search.core' must be a list of function names or tools; got ${describeValue(core)}.`);
  const names = core.map((item: unknown) =>
    typeof item === 'string'
      ? checkFunctionName(item, "new Toolbox: 'search.core'", 'Name a function of this toolbox.')
      : resolveFunctionTool(item as ToolLike, "new Toolbox: 'search.core'").name,
  );
  readSearch('', { limit }, "new Toolbox: 'search'");
  return { core: new Set(names), limit: limit as number, name: checkFunctionName(name, "new Toolbox: 'search.name'", 'Pick a function name.') };
}

/** @internal A toolbox's search: the index over its functions (built at the first search after a change) and the deferred listing. */
export class ToolboxSearch {
  private index: ToolSearch | undefined;
  /** Functions a search found (or the model called), listed from then on. */
  private readonly found = new Set<string>();
  /** The `search_tools` function, when the toolbox defers loading. */
  readonly entry: ToolboxEntry | undefined;

  constructor(
    private readonly catalogue: () => Iterable<ToolboxEntry>,
    readonly deferred: DeferredSettings | undefined,
  ) {
    this.entry = deferred && searchEntry(deferred, (query) => this.reveal(this.search(query, { limit: deferred.limit })));
  }

  /** The catalogue changed: the next search builds a new index. */
  invalidate(): void {
    this.index = undefined;
  }

  search(query: string, options?: ToolSearchOptions): ToolSearchHit[] {
    readSearch(query, options, 'Toolbox.search');
    this.index ??= new ToolSearch(
      [...this.catalogue()].map((entry) => ({ ...entry.toFunction(false), ...(entry.tool?.title ? { title: entry.tool.title } : {}) })),
    );
    return this.index.search(query, options);
  }

  /** Is this function listed now (always, without deferred loading)? */
  listed(name: string): boolean {
    return !this.deferred || this.deferred.core.has(name) || this.found.has(name);
  }

  /** Lists these functions from now on. */
  reveal<T extends { name: string }>(hits: T[]): T[] {
    for (const hit of hits) this.found.add(hit.name);
    return hits;
  }
}

/** The `search_tools` function: finds tools by a few words, lists them from then on, and tells the model which. */
function searchEntry(settings: DeferredSettings, find: (query: string) => ToolSearchHit[]): ToolboxEntry {
  const failed = (why: string): EntryOutcome => ({ status: 'failed', output: INVALID_ARGUMENTS + why });
  return toolboxEntry({
    name: settings.name,
    origin: 'local',
    tool: undefined,
    owner: `the toolbox's ${settings.name} function`,
    toFunction: (strict) => ({
      name: settings.name,
      description:
        'Searches the catalogue of tools for the ones a task needs; the tools found become available to call. ' +
        'Describe what you want to do in a few words.',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', description: 'What the tool should do, in a few words.', maxLength: MAX_QUERY_LENGTH } },
        required: ['query'],
        additionalProperties: false,
      },
      strict,
    }),
    async call(args) {
      const query = (args as { query?: unknown } | null)?.query;
      if (args === null || typeof args !== 'object' || Array.isArray(args)) return failed(`expected an object { query }; got ${describeValue(args)}.`);
      const extra = Object.keys(args).filter((key) => key !== 'query');
      if (extra.length > 0) return failed(`unknown field '${extra[0]}'; the only field is 'query'.`);
      if (typeof query !== 'string' || query.trim() === '') return failed(`'query' must be a few words; got ${describeValue(query)}.`);
      if (query.length > MAX_QUERY_LENGTH) return failed(`'query' is ${query.length} characters long; at most ${MAX_QUERY_LENGTH}.`);
      const tools = find(query).map(({ name, description }) => ({ name, ...(description ? { description } : {}) }));
      const output =
        tools.length === 0
          ? `No tools match '${query}'. Search again with other words.`
          : [`Found ${tools.length} tool(s), now available to call:`, ...tools.map((tool) => `- ${tool.name}${tool.description ? `: ${tool.description}` : ''}`)].join('\n');
      return { status: 'completed', output, data: { tools } };
    },
  });
}

