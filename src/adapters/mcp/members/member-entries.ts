/**
 * Resources, resource templates, prompts and completions as MCP lists them: one entry per member
 * (its definition, its key and its list entry, built once), and the served set of each kind.
 */
import {
  type Prompt as McpPrompt,
  type Resource as McpResource,
  type ResourceTemplateType as McpResourceTemplate,
} from '@modelcontextprotocol/server';
import { DeclarationError, MemberKind, ToolDefinition, ToolLike, Tools } from '../../../index';
import { describeValue, UriTemplate, type UriTemplateMatch } from '../../../adapter-kit';
import { MCP_ADAPTER, McpConfig } from './config';
import { bothOf, McpServedMembers, type ServedMember } from './served-members';

/** A resource or resource template as served: `resources/list` (or `resources/templates/list`) lists `listed`. */
export interface McpResourceEntry {
  readonly definition: ToolDefinition;
  /** The fixed URI, or the URI template. */
  readonly uri: string;
  readonly mimeType?: string;
  /** A fixed resource's list entry (undefined for a template). */
  readonly resource?: McpResource;
  /** A template's list entry and its RFC 6570 template, read once (undefined for a fixed resource). */
  readonly template?: { readonly listed: McpResourceTemplate; readonly matcher: UriTemplate };
}

/** What a URI names: the resource or template serving it, and the template's variables. */
export interface FoundResource {
  readonly served: ServedMember<McpResourceEntry>;
  readonly args: UriTemplateMatch;
}

/**
 * The variables of `uri` when `entry` is a template that matches it (undefined otherwise): the one
 * place a URI is matched against a template, for reads, subscriptions and clashes between members.
 */
export function templateMatch(entry: McpResourceEntry, uri: string): UriTemplateMatch | undefined {
  return entry.template?.matcher.match(uri) ?? undefined;
}

/** A prompt as served: `prompts/list` lists `prompt`. */
export interface McpPromptEntry {
  readonly definition: ToolDefinition;
  readonly prompt: McpPrompt;
}

/** A completion as served: the argument it completes, of the prompt or template `of`. */
export interface McpCompletionEntry {
  readonly definition: ToolDefinition;
  readonly argument: string;
  readonly of: ToolDefinition;
}

/** The MCP name of a member (its `mcp` name). */
export const memberName = (definition: ToolDefinition): string => definition.toolName(MCP_ADAPTER);

/** title, description and icons, as tools show them (`adapters.mcp.title`/`icons`, `@Description`). */
function shown(definition: ToolDefinition) {
  const title = McpConfig.resolveOverrideFor(definition, 'title') ?? definition.title;
  const icons = McpConfig.resolveOverrideFor(definition, 'icons');
  return {
    ...(title !== undefined ? { title } : {}),
    ...(definition.description !== undefined ? { description: definition.description } : {}),
    ...(icons ? { icons: icons.map((icon) => ({ ...icon, ...(icon.sizes ? { sizes: [...icon.sizes] } : {}) })) } : {}),
  };
}

function resolveKind(where: string, member: ToolLike, kinds: readonly MemberKind[], option: string): ToolDefinition {
  if (member === null || (typeof member !== 'function' && typeof member !== 'object')) {
    throw new DeclarationError(`${where}: expected a class declared with @${option}; got ${describeValue(member)}.`);
  }
  const definition = Tools.resolve(member);
  if (!kinds.includes(definition.member)) {
    throw new DeclarationError(
      `${where}: ${definition.id} is a ${definition.member.replace('-', ' ')}, not a ${kinds.map((k) => k.replace('-', ' ')).join(' or ')}; ` +
        `serve it through the option of its kind (tools, resources, prompts, completions).`,
      { class: definition.target },
    );
  }
  return definition;
}

/** A resource's or template's entry. */
export function resourceEntry(member: ToolLike): McpResourceEntry {
  const definition = resolveKind('McpServedResources', member, ['resource', 'resource-template'], 'Resource or @ResourceTemplate');
  const facts = definition.resource!;
  const common = {
    name: memberName(definition),
    ...shown(definition),
    ...(facts.mimeType !== undefined ? { mimeType: facts.mimeType } : {}),
    ...(facts.annotations
      ? {
          annotations: {
            ...(facts.annotations.audience ? { audience: [...facts.annotations.audience] } : {}),
            ...(facts.annotations.priority !== undefined ? { priority: facts.annotations.priority } : {}),
          },
        }
      : {}),
  };
  const base = { definition, uri: facts.uri, ...(facts.mimeType !== undefined ? { mimeType: facts.mimeType } : {}) };
  if (facts.kind === 'resource') {
    return { ...base, resource: { uri: facts.uri, ...common, ...(facts.size !== undefined ? { size: facts.size } : {}) } };
  }
  return { ...base, template: { listed: { uriTemplate: facts.uri, ...common }, matcher: new UriTemplate(facts.uri) } };
}

/** A prompt's entry: its arguments from its input contract (clients send strings; the invoker coerces). */
export function promptEntry(member: ToolLike): McpPromptEntry {
  const definition = resolveKind('McpServedPrompts', member, ['prompt'], 'Prompt');
  const schema = definition.inputSchema() as { properties?: Record<string, { description?: string }>; required?: string[] };
  const required = new Set(schema.required ?? []);
  const args = Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    required: required.has(name),
  }));
  return { definition, prompt: { name: memberName(definition), ...shown(definition), ...(args.length > 0 ? { arguments: args } : {}) } };
}

/** A completion's entry. */
export function completionEntry(member: ToolLike): McpCompletionEntry {
  const definition = resolveKind('McpServedCompletions', member, ['completion'], 'Complete');
  const { argument, of } = definition.completes!;
  return { definition, argument, of };
}

/**
 * A template's key: its text with every variable name left out (`a://{x}` and `a://{y}` match the
 * same URIs, so they collide).
 */
export function templateShape(template: string): string {
  return template.replace(/\{([+#./;?&]?)[^}]*\}/g, (_, operator: string) => `{${operator}}`);
}

/** The key of a completion: the member it completes and the argument. */
export const completionKey = (of: ToolDefinition, argument: string): string => `${of.id}#${argument}`;

const collide =
  (noun: string, fix: string) => (existing: { definition: ToolDefinition }, added: { definition: ToolDefinition }, key: string) => {
    const [a, b] = bothOf(existing.definition, added.definition);
    return `${noun} ${a} and ${b} are both served as '${key}'. ${fix}`;
  };

/**
 * The resources and resource templates a running server serves, changeable at run time (clients
 * are sent `notifications/resources/list_changed`); `updated(uri)` tells subscribed clients that a
 * resource changed.
 */
export class McpServedResources extends McpServedMembers<McpResourceEntry> {
  /**
   * Per connected server: the URIs its client subscribed to (a 2025-11-25 session's
   * resources/subscribe), or `'listen'` (a 2026-07-28 stdio connection, whose SDK listen router
   * passes an update to the subscriptions/listen streams that named the URI).
   */
  private readonly subscribed = new Map<object, Set<string> | 'listen'>();
  private readonly updateListeners = new Set<(uri: string) => void>();
  /** Per connected server: whether its caller may see a URI (asked at delivery). */
  private readonly viewers = new Map<object, (uri: string) => Promise<boolean>>();
  /** Per connected server: its updates being sent, in order. */
  private readonly delivering = new Map<object, Promise<unknown>>();

  /** @internal */
  constructor(members: readonly ToolLike[]) {
    super(
      {
        singular: 'resource',
        toEntry: resourceEntry,
        keyOf: (entry) => entry.uri,
        clashKey: (entry) => (entry.template ? templateShape(entry.uri) : entry.uri),
        collision: (existing, added, key) =>
          collide(
            existing.template ? 'Resource templates' : 'Resources',
            existing.template
              ? `Templates that differ only in their variable names match the same URIs; give one another URI template`
              : 'Give one another URI',
          )(existing, added, key),
        // A fixed URI one serves that the other's template matches: a read would reach only one of them.
        overlap: (existing, added) => {
          const kind = (entry: McpResourceEntry) => (entry.template ? 'resource template' : 'resource');
          const overlaps =
            (!added.template && templateMatch(existing, added.uri)) || (!existing.template && templateMatch(added, existing.uri));
          return overlaps
            ? { existing: `the ${kind(existing)} '${existing.uri}' (${existing.definition.id})`, added: `${kind(added)} '${added.uri}'` }
            : undefined;
        },
        notify: (server) => server.sendResourceListChanged(),
      },
      members,
    );
  }

  /**
   * Tells the clients subscribed to `uri` that the resource changed (`notifications/resources/updated`):
   * 2025-11-25 sessions that sent `resources/subscribe`, and 2026-07-28 `subscriptions/listen`
   * streams that named it in `resourceSubscriptions`.
   */
  updated(uri: string): void {
    if (typeof uri !== 'string' || uri === '') {
      throw new DeclarationError(`McpServedResources.updated(uri): uri must be the resource's URI; got ${describeValue(uri)}.`);
    }
    for (const server of this.servers) {
      const subscribed = this.subscribed.get(server);
      if (subscribed !== 'listen' && !subscribed?.has(uri)) continue;
      // Asked at delivery, one update after the other: what its caller may no longer see is not sent.
      const sees = this.viewers.get(server);
      const sent = (this.delivering.get(server) ?? Promise.resolve())
        .then(async () => (!sees || (await sees(uri))) && (await server.sendResourceUpdated({ uri })))
        .catch(() => undefined);
      this.delivering.set(server, sent);
    }
    for (const listener of this.updateListeners) listener(uri);
  }

  /**
   * @internal The resource a URI names for a caller: a fixed one, else the first template that
   * matches (with its variables), asking `allowed` only about members the URI names. Local members
   * come before remote ones (a mount's): a URI a local member serves never reaches a remote server.
   */
  async find(uri: string, allowed: (served: ServedMember<McpResourceEntry>) => Promise<boolean>): Promise<FoundResource | undefined> {
    const fixed = this.get(uri);
    for (const remote of [false, true]) {
      if (fixed && !fixed.entry.template && (fixed.member.remote !== undefined) === remote && (await allowed(fixed))) {
        return { served: fixed, args: {} };
      }
      for (const served of this.all()) {
        if ((served.member.remote !== undefined) !== remote) continue;
        // The URI first: the rule is asked only about templates that match it.
        const variables = templateMatch(served.entry, uri);
        if (variables && (await allowed(served))) return { served, args: variables };
      }
    }
    return undefined;
  }

  /**
   * @internal Whether `uri` (still) names a resource `server`'s caller may see, asked before each
   * update is sent to it (2025-11-25 subscriptions, a 2026-07-28 stdio connection).
   */
  seenBy(server: object, sees: (uri: string) => Promise<boolean>): void {
    this.viewers.set(server, sees);
  }

  /** @internal The fixed resources, and the templates, in the order served. */
  fixed(): McpResourceEntry[] {
    return [...this.all()].filter((served) => !served.entry.template).map((served) => served.entry);
  }

  /** @internal A 2025-11-25 session's subscriptions (created on first use). */
  subscriptionsOf(server: object): Set<string> {
    let set = this.subscribed.get(server);
    if (set === 'listen') return new Set();
    if (!set) this.subscribed.set(server, (set = new Set()));
    return set;
  }

  /** @internal A connected 2026-07-28 server: every update goes to it, and its listen router filters. */
  listens(server: object): void {
    this.subscribed.set(server, 'listen');
  }

  /** @internal Called on every `updated(uri)` (the 2026-07-28 endpoint publishes it to listening streams). */
  onUpdated(listener: (uri: string) => void): () => void {
    this.updateListeners.add(listener);
    return () => void this.updateListeners.delete(listener);
  }

  /** @internal */
  protected override detached(server: object): void {
    this.subscribed.delete(server);
    this.viewers.delete(server);
    this.delivering.delete(server);
  }
}

/** The prompts a running server serves, changeable at run time (clients are sent `notifications/prompts/list_changed`). */
export class McpServedPrompts extends McpServedMembers<McpPromptEntry> {
  /** @internal */
  constructor(members: readonly ToolLike[]) {
    super(
      {
        singular: 'prompt',
        toEntry: promptEntry,
        keyOf: (entry) => entry.prompt.name,
        collision: collide('Prompts', 'Give one another name (@Prompt({ name }) or adapters: { mcp: { name } })'),
        notify: (server) => server.sendPromptListChanged(),
      },
      members,
    );
  }
}

/** The completions a running server serves (keyed by the prompt or template and the argument they complete). */
export class McpServedCompletions extends McpServedMembers<McpCompletionEntry> {
  /** @internal */
  constructor(members: readonly ToolLike[]) {
    super(
      {
        singular: 'completion',
        toEntry: completionEntry,
        keyOf: (entry) => completionKey(entry.of, entry.argument),
        collision: collide('Completions', 'Serve one completion per argument'),
      },
      members,
    );
  }
}

/** Every `mcp` member of these kinds (latest version of each), the default of each option. */
export function defaultMembers(...kinds: MemberKind[]): ToolDefinition[] {
  return kinds.flatMap((kind) => Tools.forAdapter(MCP_ADAPTER, { kind }));
}
