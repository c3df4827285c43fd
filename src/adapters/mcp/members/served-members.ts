/**
 * The members a running server serves, one set per kind (tools, resources and templates, prompts,
 * completions), changeable at run time: each member is an entry (its definition and what MCP
 * lists) with the scopes a request needs to see and use it (`adapters.mcp.scopes`). Adding or
 * removing one tells connected clients the list changed (2025-11-25: each attached server's
 * notification; 2026-07-28: the `subscriptions/listen` streams, through `onChange`).
 */
import type { Server } from '@modelcontextprotocol/server';
import { DeclarationError, MemberKind, ToolDefinition, ToolLike, Tools } from '../../../index';
import { McpConfig } from './config';

/**
 * A member as a server's `visible` rule sees it: what it is, the name clients use, its tags and
 * where it comes from. One object per served member, made when it is served.
 */
export interface McpMember {
  /** `'tool'`, `'resource'`, `'resource-template'`, `'prompt'` or `'completion'`. */
  readonly kind: MemberKind;
  /** What clients address it by: a tool's or prompt's name (with its mount's namespace), a resource's URI or template. */
  readonly name: string;
  /** Its tags: the declared `@Tool({ tags })` (and `@Resource`, `@Prompt` …), with those its mount gives. */
  readonly tags: readonly string[];
  /** The namespace of the mount it was served through; undefined for the server's own members. */
  readonly namespace?: string;
  /** The alias of the remote MCP server it is proxied to; undefined for local members. */
  readonly remote?: string;
  /** Its definition (for a remote member, the definition the invoker runs: hints, id `mcp:<alias>/<name>`). */
  readonly definition: ToolDefinition;
}

/** @internal Where a mounted member comes from, and what its mount adds (remote members take scopes and tags from their mount). */
export interface MountFacts {
  readonly namespace: string;
  readonly remote?: string;
  readonly scopes?: readonly string[];
  readonly tags?: readonly string[];
  /** A remote member's kind (its definition is a proxy's, whose own kind is `'tool'`). */
  readonly kindOf?: (entry: object) => MemberKind;
}

/** What the server answers for a member: its entry, the scopes a request needs to see and use it, and the member the visible rule sees. */
export interface ServedMember<Entry extends { readonly definition: ToolDefinition } = { readonly definition: ToolDefinition }> {
  readonly entry: Entry;
  readonly scopes: readonly string[];
  readonly member: McpMember;
}

/** How one kind's set keys, builds and announces its entries. @internal */
export interface MemberKindSpec<Entry extends { readonly definition: ToolDefinition }, Input> {
  /** One member in messages: `tool`, `resource`, `prompt`, `completion`. */
  readonly singular: string;
  /** Builds the entry of what `add` was given (checking it is a member of this kind). */
  toEntry(input: Input): Entry;
  /** The key clients address it by (a tool's or prompt's name, a resource's URI); unique in the set. */
  keyOf(entry: Entry): string;
  /** Entries under different keys that still may not both be served share this (templates matching the same URIs). */
  clashKey?(entry: Entry): string;
  /**
   * Whether an entry a remote mount adds serves what an entry already served does, though their keys
   * differ (a fixed URI a template matches): how to name each, else undefined.
   */
  overlap?(existing: Entry, added: Entry): { existing: string; added: string } | undefined;
  /** Why two entries may not both be served (a sentence naming both and the fix). */
  collision(existing: Entry, added: Entry, key: string): string;
  /** Tells one connected server's client that the list changed (undefined: this kind has no list). */
  notify?(server: Server): Promise<void>;
}

/**
 * The members of one kind a running server serves, changeable at run time: every connected client
 * is sent the kind's list_changed notification when one is added or removed.
 */
export class McpServedMembers<Entry extends { readonly definition: ToolDefinition }, Input = ToolLike> {
  private readonly byKey = new Map<string, ServedMember<Entry>>();
  /** @internal The connected servers (2025-11-25 sessions, stdio) to notify of changes. */
  protected readonly servers = new Set<Server>();
  private readonly listeners = new Set<() => void>();
  private anyScoped: boolean | undefined;

  /** @internal */
  constructor(
    private readonly spec: MemberKindSpec<Entry, Input>,
    members: readonly Input[],
  ) {
    for (const member of members) this.put(spec.toEntry(member), false, '');
  }

  /** The keys clients address the members by (names, or URIs), in the order they were added. */
  names(): string[] {
    return [...this.byKey.keys()];
  }

  /** Whether a member is served under this key. */
  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** The number of members served. */
  get size(): number {
    return this.byKey.size;
  }

  /**
   * Serves another member (or replaces the one served under the same key with `{ replace: true }`),
   * and tells every connected client that the list changed.
   */
  add(member: Input, options: { replace?: boolean } = {}): void {
    this.put(this.spec.toEntry(member), options.replace === true, `, or add(${this.spec.singular}, { replace: true })`);
    this.changed();
  }

  /** Stops serving a member (by its key, or its class); false when it was not served. */
  remove(member: string | ToolLike): boolean {
    const key = typeof member === 'string' ? member : this.keyOfMember(member);
    if (key === undefined || !this.byKey.delete(key)) return false;
    this.changed();
    return true;
  }

  /** @internal */
  get(key: string): ServedMember<Entry> | undefined {
    return this.byKey.get(key);
  }

  /** @internal */
  all(): Iterable<ServedMember<Entry>> {
    return this.byKey.values();
  }

  /** @internal Whether any member declares scopes (then its list is filtered per request). */
  scoped(): boolean {
    return (this.anyScoped ??= [...this.byKey.values()].some((served) => served.scopes.length > 0));
  }

  /** @internal A server to notify of changes, until it closes. */
  attach(server: Server): void {
    if (this.servers.has(server)) return;
    this.servers.add(server);
    const previous = server.onclose;
    server.onclose = () => {
      this.servers.delete(server);
      this.detached(server);
      previous?.();
    };
  }

  /** @internal Called on every change (the 2026-07-28 endpoint publishes it to subscriptions/listen streams); returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** @internal What a subclass forgets of a server that closed. */
  protected detached(_server: Server): void {}

  /** @internal What a subclass recomputes after a change. */
  protected invalidate(): void {
    this.anyScoped = undefined;
  }

  /**
   * @internal Serves a mount's members in place of the ones it served before. A member another
   * member holds (its key, its template's shape, or for a remote mount's resource a URI a member
   * of this server or another mount serves: a fixed URI a template matches, either way round) is
   * refused: a DeclarationError naming both, and nothing changes; or, with `drop` (a remote's
   * list read again at run time), it alone is left out and `drop` is told why. Clients are told
   * when `notify`.
   */
  mount(entries: readonly Entry[], facts: MountFacts, notify: boolean, drop?: (why: string) => void): void {
    const previous = [...this.byKey].filter(([, served]) => served.member.namespace === facts.namespace).map(([key]) => key);
    // What each entry may not share with another: its key, and its clash key (templates matching the same URIs).
    const shapes = (entry: Entry) => [
      `key:${this.spec.keyOf(entry)}`,
      ...(this.spec.clashKey ? [`shape:${this.spec.clashKey(entry)}`] : []),
    ];
    const others = [...this.byKey.values()].filter((served) => served.member.namespace !== facts.namespace);
    const taken = new Map<string, Entry>();
    for (const served of others) for (const shape of shapes(served.entry)) taken.set(shape, served.entry);
    const orOther = ', or mount one under another namespace';
    const kept: Entry[] = [];
    for (const entry of entries) {
      const clash = shapes(entry)
        .map((shape) => taken.get(shape))
        .find((found) => found !== undefined);
      const why = clash
        ? this.spec.collision(clash, entry, this.spec.keyOf(entry)) + orOther + '.'
        : facts.remote !== undefined
          ? this.overlapOf(entry, others)
          : undefined;
      if (why !== undefined) {
        if (!drop) throw new DeclarationError(why);
        drop(why);
        continue;
      }
      kept.push(entry);
      for (const shape of shapes(entry)) taken.set(shape, entry);
    }
    for (const key of previous) this.byKey.delete(key);
    for (const entry of kept) this.put(entry, true, '', facts);
    // Clients are told only of a list that changed (a kind the mount never served stays quiet).
    if (notify && (previous.length > 0 || kept.length > 0)) this.changed();
    else this.invalidate();
  }

  /** Why a remote mount's entry may not be served beside another mount's or this server's own member (undefined: it may). */
  private overlapOf(entry: Entry, others: readonly ServedMember<Entry>[]): string | undefined {
    if (!this.spec.overlap) return undefined;
    for (const served of others) {
      const overlap = this.spec.overlap(served.entry, entry);
      if (overlap === undefined) continue;
      const { remote, namespace } = served.member;
      const owner =
        remote !== undefined
          ? `the MCP server '${remote}' (mounted as '${namespace}')`
          : namespace !== undefined
            ? `the local mount '${namespace}'`
            : 'this server';
      return (
        `its ${overlap.added} serves a URI ${overlap.existing} of ${owner} already serves; ` +
        'a URI is served by one member only, local members and earlier mounts first. Give it another URI on its server, or stop serving the other.'
      );
    }
    return undefined;
  }

  /** @internal The entry of a member of this kind (checked as `add` checks it), not yet served. */
  entryOf(member: Input): Entry {
    return this.spec.toEntry(member);
  }

  /** @internal Stops serving every member of a mount; false when it served none. */
  unmount(namespace: string): boolean {
    const keys = [...this.byKey].filter(([, served]) => served.member.namespace === namespace).map(([key]) => key);
    for (const key of keys) this.byKey.delete(key);
    if (keys.length > 0) this.changed();
    return keys.length > 0;
  }

  private keyOfMember(member: ToolLike): string | undefined {
    const definition: ToolDefinition = Tools.resolve(member);
    for (const [key, served] of this.byKey) if (served.entry.definition === definition) return key;
    return undefined;
  }

  private put(entry: Entry, replace: boolean, orReplace: string, facts?: MountFacts): void {
    const key = this.spec.keyOf(entry);
    const clash = this.spec.clashKey;
    let existing = this.byKey.get(key);
    if (!existing && clash) {
      const shape = clash(entry);
      existing = [...this.byKey.values()].find((served) => clash(served.entry) === shape);
      if (existing && replace) this.byKey.delete(this.spec.keyOf(existing.entry));
    }
    if (existing && !replace) throw new DeclarationError(this.spec.collision(existing.entry, entry, key) + orReplace + '.');
    const { definition } = entry;
    const member: McpMember = Object.freeze({
      kind: facts?.kindOf?.(entry) ?? definition.member,
      name: key,
      tags: Object.freeze([...new Set([...(facts?.tags ?? []), ...definition.tags])]),
      ...(facts ? { namespace: facts.namespace } : {}),
      ...(facts?.remote !== undefined ? { remote: facts.remote } : {}),
      definition,
    });
    const scopes = [...(facts?.scopes ?? []), ...McpConfig.resolveOverrideFor(definition, 'scopes')];
    this.byKey.set(key, { entry, scopes, member });
    this.invalidate();
  }

  private changed(): void {
    this.invalidate();
    if (this.spec.notify) {
      for (const server of this.servers) {
        // A server whose client has not finished initializing, or is gone, has no one to tell.
        this.spec.notify(server).catch(() => undefined);
      }
    }
    for (const listener of this.listeners) listener();
  }
}

/** The two definitions of a collision, sorted, for a message that reads the same whichever came first. */
export function bothOf(a: ToolDefinition, b: ToolDefinition): [string, string] {
  return [a.id, b.id].sort() as [string, string];
}
