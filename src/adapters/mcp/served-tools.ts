import type { Server } from '@modelcontextprotocol/server';
import { MemberKind, ToolDefinition, ToolLike, Tools } from '../../index';
import { describeValue } from '../../adapter-kit';
import { McpConfig } from './config';
import { McpAdapter, McpToolEntry } from './wrap';
import { DeclarationError } from '../../index';

/** A tool to serve: a tool, or an entry from `McpAdapter.wrap`. */
export type ServableTool = ToolLike | McpToolEntry;

/**
 * A member as a server's `visible` rule sees it: what it is, the name clients use, its tags and
 * where it comes from. One object per served member, made when it is served.
 */
export interface McpMember {
  /** `'tool'` (and, with the members the server serves, `'resource'`, `'resource-template'`, `'prompt'`). */
  readonly kind: MemberKind;
  /** The name clients list and call (with its mount's namespace). */
  readonly name: string;
  /** Its tags: the declared `@Tool({ tags })`, or for a remote member the tags its mount gives. */
  readonly tags: readonly string[];
  /** The namespace of the mount it was served through; undefined for the server's own members. */
  readonly namespace?: string;
  /** The alias of the remote MCP server it is proxied to; undefined for local members. */
  readonly remote?: string;
  /** Its definition (for a remote tool, the definition the invoker runs: hints, id `mcp:<alias>/<name>`). */
  readonly definition: ToolDefinition;
}

/** Where a served tool comes from, and what its mount adds (remote tools take scopes and tags from their mount). */
export interface MountFacts {
  readonly namespace: string;
  readonly remote?: string;
  readonly scopes?: readonly string[];
  readonly tags?: readonly string[];
}

/** What the server answers for a tool: the entry, the scopes it needs, and the member the visible rule sees. */
export interface ServedTool {
  readonly entry: McpToolEntry;
  readonly scopes: readonly string[];
  readonly member: McpMember;
}

/**
 * The tools a running server serves, changeable at run time: every connected client is sent
 * `notifications/tools/list_changed` when a tool is added or removed.
 */
export class McpServedTools {
  private readonly byName = new Map<string, ServedTool>();
  private readonly servers = new Set<Server>();
  private readonly listeners = new Set<() => void>();
  private listing: { tools: McpToolEntry['tool'][] } | undefined;
  private anyScoped: boolean | undefined;
  private anyHeaders: boolean | undefined;

  /** @internal */
  constructor(tools: readonly ServableTool[]) {
    for (const tool of tools) this.put(toEntry(tool), false, '');
  }

  /** The names clients call, in the order the tools were added. */
  names(): string[] {
    return [...this.byName.keys()];
  }

  /** Whether a tool is served under this name. */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /**
   * Serves another tool (or replaces the one served under the same name with `{ replace: true }`),
   * and tells every connected client that the list changed.
   */
  add(tool: ServableTool, options: { replace?: boolean } = {}): void {
    this.put(toEntry(tool), options.replace === true, ', or add(tool, { replace: true })');
    this.changed();
  }

  /** Stops serving a tool (by the name clients call, or the tool); false when it was not served. */
  remove(tool: string | ToolLike): boolean {
    const name = typeof tool === 'string' ? tool : this.nameOf(tool);
    if (name === undefined || !this.byName.delete(name)) return false;
    this.changed();
    return true;
  }

  /** @internal */
  get(name: string): ServedTool | undefined {
    return this.byName.get(name);
  }

  /** @internal */
  all(): Iterable<ServedTool> {
    return this.byName.values();
  }

  /** @internal Whether any tool declares scopes (then tools/list is filtered per request). */
  scoped(): boolean {
    return (this.anyScoped ??= [...this.byName.values()].some((served) => served.scopes.length > 0));
  }

  /** @internal Whether any tool declares input fields mirrored as Mcp-Param-* headers. */
  mirrorsHeaders(): boolean {
    return (this.anyHeaders ??= [...this.byName.values()].some((served) =>
      Object.values((served.entry.tool.inputSchema.properties ?? {}) as Record<string, object>).some(
        (property) => 'x-mcp-header' in property,
      ),
    ));
  }

  /** @internal The unfiltered tools/list answer, built once per change. */
  list(): { tools: McpToolEntry['tool'][] } {
    return (this.listing ??= { tools: [...this.byName.values()].map((served) => served.entry.tool) });
  }

  /** @internal A server to notify of changes, until it closes. */
  attach(server: Server): void {
    this.servers.add(server);
    const previous = server.onclose;
    server.onclose = () => {
      this.servers.delete(server);
      previous?.();
    };
  }

  /** @internal Called on every change (the 2026-07-28 endpoint publishes it to subscriptions/listen streams); returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private nameOf(tool: ToolLike): string | undefined {
    const definition: ToolDefinition = Tools.resolve(tool);
    for (const [name, served] of this.byName) if (served.entry.definition === definition) return name;
    return undefined;
  }

  /**
   * @internal Serves a mount's tools in place of the ones it served before (all or none: a name
   * another member holds is a DeclarationError naming both, and nothing changes); clients are told
   * when `notify`.
   */
  mount(entries: readonly McpToolEntry[], facts: MountFacts, notify: boolean): void {
    const previous = [...this.byName].filter(([, served]) => served.member.namespace === facts.namespace).map(([name]) => name);
    const names = new Set<string>();
    for (const entry of entries) {
      const existing = this.byName.get(entry.tool.name);
      const clash = names.has(entry.tool.name) ? entry : existing && existing.member.namespace !== facts.namespace ? existing.entry : undefined;
      if (clash) throw collision(clash, entry, '', true);
      names.add(entry.tool.name);
    }
    for (const name of previous) this.byName.delete(name);
    for (const entry of entries) this.put(entry, true, '', facts);
    if (notify) this.changed();
  }

  /** @internal Stops serving every tool of a mount; false when it served none. */
  unmount(namespace: string): boolean {
    const names = [...this.byName].filter(([, served]) => served.member.namespace === namespace).map(([name]) => name);
    for (const name of names) this.byName.delete(name);
    if (names.length > 0) this.changed();
    return names.length > 0;
  }

  private put(entry: McpToolEntry, replace: boolean, orReplace: string, facts?: MountFacts): void {
    const existing = this.byName.get(entry.tool.name);
    if (existing && !replace) throw collision(existing.entry, entry, orReplace, existing.member.namespace !== undefined);
    const { definition } = entry;
    const member: McpMember = Object.freeze({
      kind: definition.member,
      name: entry.tool.name,
      tags: Object.freeze([...(facts?.tags ?? []), ...definition.tags]),
      ...(facts ? { namespace: facts.namespace } : {}),
      ...(facts?.remote !== undefined ? { remote: facts.remote } : {}),
      definition,
    });
    const scopes = [...(facts?.scopes ?? []), ...McpConfig.resolveOverrideFor(definition, 'scopes')];
    this.byName.set(entry.tool.name, { entry, scopes, member });
    this.listing = undefined;
    this.anyScoped = this.anyHeaders = undefined;
  }

  private changed(): void {
    this.listing = undefined;
    this.anyScoped = this.anyHeaders = undefined;
    for (const server of this.servers) {
      // A server whose client has not finished initializing, or is gone, has no one to tell.
      server.sendToolListChanged().catch(() => undefined);
    }
    for (const listener of this.listeners) listener();
  }
}

/** Two members served under one name: a DeclarationError naming both. */
function collision(existing: McpToolEntry, entry: McpToolEntry, orReplace = '', mounted = false): DeclarationError {
  const [a, b] = [existing.definition.id, entry.definition.id].sort();
  const rename = mounted
    ? 'wrap(tool, { name }), @Tool({ adapters: { mcp: { name } } }) or another mount namespace'
    : 'wrap(tool, { name }) or @Tool({ adapters: { mcp: { name } } })';
  return new DeclarationError(`Tools ${a} and ${b} are both served as '${entry.tool.name}'. Give one another name (${rename})${orReplace}.`);
}

/** @internal A tool to serve as an entry (wrapped when it is a tool). */
export function toEntry(tool: ServableTool): McpToolEntry {
  if (isEntry(tool)) return tool;
  if (tool === null || (typeof tool !== 'function' && typeof tool !== 'object')) {
    throw new DeclarationError(`McpServedTools: expected a tool or an McpAdapter.wrap entry; got ${describeValue(tool)}.`);
  }
  return McpAdapter.wrap(tool);
}

function isEntry(value: ServableTool): value is McpToolEntry {
  return typeof value === 'object' && value !== null && 'tool' in value && 'handler' in value && !(value instanceof ToolDefinition);
}
