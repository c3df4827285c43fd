/**
 * The `toolSearch` option of an MCP server: `tools/list` answers a core set plus a search tool, and
 * what a session's search finds joins that session's list (the client is sent
 * `notifications/tools/list_changed`). The search sees only what the caller may see: a tool hidden
 * by scopes or the visible rule is never found, so never listed. Calls are untouched: a tool
 * not listed yet runs when called by name, under every rule a call has.
 */
import type { CallToolResult, ListToolsResult, Server, ServerContext } from '@modelcontextprotocol/server';
import { DeclarationError } from '../../../index';
import { checkOptionsObject, describeValue } from '../../../adapter-kit';
import { ToolSearch } from '../../../adapter-kit';
import type { McpServedTools, ServedTool } from '../members/served-tools';
import type { Composition } from './composition';

/** The `toolSearch` option of `createMcpServer` (and the serving entries): deferred loading. */
export interface McpToolSearchOptions {
  /** The tools listed from the start, by the name clients call; every other tool is found by searching. */
  core?: readonly string[];
  /** How many tools one search finds at most (default 5, at most 50). */
  limit?: number;
  /** The search tool's name (default `search_tools`). */
  name?: string;
}

const MAX_LIMIT = 50;
const MAX_QUERY = 1000;

/** @internal The search of one server factory: the index over the served tools, and each session's found tools. */
export class McpToolSearch {
  private readonly core: ReadonlySet<string>;
  private readonly limit: number;
  readonly name: string;
  /** The index, with the tools/list answer it was built from (rebuilt when the tools change). */
  private built: { from: object; index: ToolSearch } | undefined;
  /** What each SDK server (a session, a stdio connection) has found so far. */
  private readonly found = new WeakMap<Server, Set<string>>();

  constructor(
    options: McpToolSearchOptions,
    private readonly tools: McpServedTools,
    private readonly composition: Composition,
  ) {
    const { core = [], limit = 5, name = 'search_tools' } = checkOptionsObject('createMcpServer: toolSearch', options, ['core', 'limit', 'name']);
    if (!Array.isArray(core) || core.some((item) => typeof item !== 'string')) {
      throw new DeclarationError(`createMcpServer: 'toolSearch.core' must be a list of tool names; got ${describeValue(core)}.`);
    }
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      throw new DeclarationError(`createMcpServer: 'toolSearch.limit' must be a whole number from 1 to ${MAX_LIMIT}; got ${describeValue(limit)}.`);
    }
    if (typeof name !== 'string' || !/^[A-Za-z0-9_.-]{1,128}$/.test(name)) {
      throw new DeclarationError(`createMcpServer: 'toolSearch.name' must be a tool name (letters, digits, '_', '-', '.'); got ${describeValue(name)}.`);
    }
    if (tools.get(name)) {
      throw new DeclarationError(`createMcpServer: a served tool is named '${name}', the name of the search tool. Pass toolSearch: { name: '…' } with another name.`);
    }
    this.core = new Set(core as string[]);
    this.limit = limit;
    this.name = name;
  }

  /** The search tool as tools/list shows it. */
  get tool(): ListToolsResult['tools'][number] {
    return {
      name: this.name,
      description:
        'Searches the catalogue of tools for the ones a task needs; the tools found become available to call. ' +
        'Describe what you want to do in a few words.',
      inputSchema: {
        type: 'object',
        properties: { query: { type: 'string', description: 'What the tool should do, in a few words.', maxLength: MAX_QUERY } },
        required: ['query'],
        additionalProperties: false,
      },
    };
  }

  /** The tools/list answer: the visible tools this server lists now (core and found), then the search tool. */
  list(server: Server, visible: readonly ServedTool[]): ListToolsResult {
    const found = this.found.get(server);
    const listed = visible.filter((served) => this.core.has(served.entry.tool.name) || found?.has(served.entry.tool.name));
    return { tools: [...listed.map((served) => served.entry.tool), this.tool] };
  }

  /** Answers a call of the search tool: the visible tools that match, listed from now on in this server's session. */
  async call(server: Server, args: unknown, ctx: ServerContext, notify: boolean): Promise<CallToolResult> {
    const query = (args as { query?: unknown } | null | undefined)?.query;
    if (typeof query !== 'string' || query.trim() === '' || query.length > MAX_QUERY) {
      const why = typeof query === 'string' && query.length > MAX_QUERY ? `is ${query.length} characters long; at most ${MAX_QUERY}` : `must be a few words; got ${describeValue(query)}`;
      return { isError: true, content: [{ type: 'text', text: `Invalid tool arguments: 'query' ${why}.` }] };
    }
    const visible = new Map((await this.composition.filter(server, this.tools.all(), ctx)).map((served) => [served.entry.tool.name, served]));
    const hits = this.index().search(query, { limit: this.limit }, (name) => visible.has(name));
    const found = this.found.get(server) ?? new Set<string>();
    this.found.set(server, found);
    const added = hits.filter((hit) => !found.has(hit.name) && !this.core.has(hit.name));
    for (const hit of hits) found.add(hit.name);
    if (added.length > 0 && notify) await server.sendToolListChanged().catch(() => undefined);
    const tools = hits.map((hit) => visible.get(hit.name)!.entry.tool);
    const text =
      tools.length === 0
        ? `No tools match '${query}'. Search again with other words.`
        : [`Found ${tools.length} tool(s), now available to call:`, ...tools.map((tool) => `- ${tool.name}${tool.description ? `: ${tool.description}` : ''}`)].join('\n');
    // The found tools' definitions travel with the answer: a client whose list does not follow (a
    // 2026-07-28 or stateless request) can still call them.
    return { content: [{ type: 'text', text }], structuredContent: { tools } };
  }

  private index(): ToolSearch {
    const listing = this.tools.list();
    if (this.built?.from !== listing) {
      const documents = listing.tools.map((tool) => ({ name: tool.name, title: tool.title, description: tool.description, parameters: tool.inputSchema }));
      this.built = { from: listing, index: new ToolSearch(documents) };
    }
    return this.built.index;
  }
}
