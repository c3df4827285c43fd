/**
 * One server from many: other toolwright members (local mounts) and admitted remote MCP servers
 * (remote mounts) served under a namespace. A mounted tool is served as `<namespace>_<name>`
 * (MCP tool names, SEP-986: letters, digits, `_`, `-`, `.`, at most 128 characters; `_` because
 * function-calling hosts that map MCP tools to functions refuse `.`).
 */
import type { AdmittedMcpServer } from '../../mcp-client/index';
import { checkKnownKeys, describeValue } from '../../../adapter-kit';
import { TAG_PATTERN } from '../../../adapter-kit/internal';
import { DeclarationError, MemberKind, ToolDefinition, ToolLike, ToolRegistry, Tools } from '../../../index';
import type { McpServedSets } from '../members/served-sets';
import { scopeListProblem } from '../auth/auth';
import { MCP_ADAPTER } from '../members/config';
import { ServableTool, toEntry } from '../members/served-tools';
import { McpToolEntry } from '../members/wrap';

/** Mounted members are served as `<namespace><MOUNT_SEPARATOR><name>`. */
export const MOUNT_SEPARATOR = '_';

/** A tool name MCP clients accept (SEP-986). */
export const MCP_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

const NAMESPACE = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;

/**
 * Local members served under a namespace: their scopes, tags and pipeline as declared. Tools and
 * prompts are served as `<namespace>_<name>`; resources and templates keep their URIs.
 */
export interface McpLocalMount {
  /** Letters, digits and `-` (at most 64). */
  namespace: string;
  /** The tools (or `McpAdapter.wrap` entries) to mount. */
  tools?: ReadonlyArray<ServableTool>;
  /** `@Resource` and `@ResourceTemplate` classes to mount (served under their own URIs). */
  resources?: ReadonlyArray<ToolLike>;
  /** `@Prompt` classes or methods to mount. */
  prompts?: ReadonlyArray<ToolLike>;
  /** `@Complete` members to mount, for the mounted prompts' and templates' arguments. */
  completions?: ReadonlyArray<ToolLike>;
  /** Or every `mcp` member of every kind of this registry (`new ToolRegistry({ tools: [...] })`). */
  registry?: ToolRegistry;
}

/** A remote MCP server, admitted by its McpSecurityPolicy, proxied under a namespace. */
export interface McpRemoteMount {
  /** Letters, digits and `-` (at most 64): its tools are served as `<namespace>_<name>`. */
  namespace: string;
  /** The server, from `admitMcpServer(alias, config, { security })` (toolwright/mcp-client): nothing is started or reached before its policy admits it. */
  server: AdmittedMcpServer;
  /** Scopes a caller's token must grant to see and call any of its tools (beside the rule). */
  scopes?: readonly string[];
  /** Tags its members carry, for the server's `visible` rule (a remote server declares none). */
  tags?: readonly string[];
  /**
   * The longest one call may take, in milliseconds (default 60,000), its questions' answers included
   * (also across a 2026-07-28 client's input-required rounds); then it is cancelled and answers an error.
   */
  timeoutMs?: number;
  /**
   * How many of its tool calls may wait at once, held open, for a 2026-07-28 client's answer to the
   * remote's question (default 100); one more is cancelled and answers an error.
   */
  maxHeldCalls?: number;
}

/** One entry of an MCP server's `mounts`: local members under a namespace, or an admitted remote MCP server. */
export type McpMount = McpLocalMount | McpRemoteMount;

/** The default time limit of a remote mount's calls. */
export const DEFAULT_REMOTE_TIMEOUT_MS = 60_000;

/** The default number of a remote mount's calls held open for the next round at once. */
export const DEFAULT_MAX_HELD_CALLS = 100;
const MAX_HELD_CALLS = 10_000;

const LOCAL_KEYS = ['namespace', 'tools', 'resources', 'prompts', 'completions', 'registry'];
const LOCAL_LISTS = ['tools', 'resources', 'prompts', 'completions'] as const;
const REMOTE_KEYS = ['namespace', 'server', 'scopes', 'tags', 'timeoutMs', 'maxHeldCalls'];

export function isRemoteMount(mount: McpMount): mount is McpRemoteMount {
  return 'server' in mount;
}

/** The name a mounted member is served as, or a DeclarationError saying why MCP clients would refuse it. */
export function mountedName(namespace: string, name: string, what: string): string {
  const served = `${namespace}${MOUNT_SEPARATOR}${name}`;
  if (!MCP_TOOL_NAME.test(served)) {
    throw new DeclarationError(
      `${what} would be served as '${served}', which MCP clients refuse: tool names are 1 to 128 letters, digits, '_', '-' and '.' (SEP-986). ` +
        'Use a shorter namespace, or rename the tool.',
    );
  }
  return served;
}

/** `mounts` checked: each a local or remote mount with a free, well-formed namespace. */
export function checkMounts(mounts: unknown): McpMount[] {
  if (mounts === undefined) return [];
  if (!Array.isArray(mounts)) {
    throw new DeclarationError(
      `createMcpServer: 'mounts' must be a list such as [{ namespace: 'billing', tools: [...] }]; got ${describeValue(mounts)}.`,
    );
  }
  const namespaces = new Set<string>();
  return mounts.map((mount: unknown, i) => {
    const where = `createMcpServer: mounts[${i}]`;
    if (typeof mount !== 'object' || mount === null || Array.isArray(mount)) {
      throw new DeclarationError(`${where} must be { namespace, tools | registry } or { namespace, server }; got ${describeValue(mount)}.`);
    }
    const m = mount as Record<string, unknown>;
    if (typeof m.namespace !== 'string' || !NAMESPACE.test(m.namespace)) {
      throw new DeclarationError(
        `${where}.namespace must be 1 to 64 letters, digits and '-' (starting with a letter or digit), e.g. 'billing'; got ${describeValue(m.namespace)}.`,
      );
    }
    if (namespaces.has(m.namespace))
      throw new DeclarationError(`${where}: the namespace '${m.namespace}' is mounted twice; give each mount its own.`);
    namespaces.add(m.namespace);
    if ('server' in m) {
      checkKnownKeys(where, m, REMOTE_KEYS);
      if (typeof m.server !== 'object' || m.server === null || typeof (m.server as { alias?: unknown }).alias !== 'string') {
        throw new DeclarationError(
          `${where}.server must be a server admitted by admitMcpServer(alias, config, { security }) (toolwright/mcp-client); got ${describeValue(m.server)}.`,
        );
      }
      const problem = m.scopes === undefined ? undefined : scopeListProblem(m.scopes);
      if (problem) throw new DeclarationError(`${where}.scopes ${problem}; got ${describeValue(m.scopes)}.`);
      if (m.tags !== undefined && (!Array.isArray(m.tags) || m.tags.some((tag) => typeof tag !== 'string' || !TAG_PATTERN.test(tag)))) {
        throw new DeclarationError(
          `${where}.tags must be a list of tags (letters, digits and - _ . : /, starting with a letter or digit, up to 64 characters), e.g. ['billing']; got ${describeValue(m.tags)}.`,
        );
      }
      const ms = m.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS;
      if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 1) {
        throw new DeclarationError(`${where}.timeoutMs must be a whole number of milliseconds of at least 1; got ${describeValue(ms)}.`);
      }
      const held = m.maxHeldCalls ?? DEFAULT_MAX_HELD_CALLS;
      if (typeof held !== 'number' || !Number.isInteger(held) || held < 1 || held > MAX_HELD_CALLS) {
        throw new DeclarationError(`${where}.maxHeldCalls must be a whole number from 1 to ${MAX_HELD_CALLS}; got ${describeValue(held)}.`);
      }
      return mount as McpRemoteMount;
    }
    checkKnownKeys(where, m, LOCAL_KEYS);
    const lists = LOCAL_LISTS.filter((key) => m[key] !== undefined);
    if ((lists.length === 0) === (m.registry === undefined)) {
      throw new DeclarationError(
        `${where} needs its members: tools, resources, prompts or completions: [...], or registry: new ToolRegistry({ tools: [...] }), not ${lists.length === 0 ? 'neither' : 'both'}.`,
      );
    }
    for (const key of lists) {
      if (!Array.isArray(m[key])) throw new DeclarationError(`${where}.${key} must be a list of members; got ${describeValue(m[key])}.`);
    }
    if (m.registry !== undefined && !(m.registry instanceof ToolRegistry)) {
      throw new DeclarationError(`${where}.registry must be a ToolRegistry; got ${describeValue(m.registry)}.`);
    }
    return mount as McpLocalMount;
  });
}

/**
 * The definitions local mounts serve, left out of the server's defaults (every `mcp` member of a
 * kind), so a mounted member is served once, under its namespace.
 */
export function mountedDefinitions(mounts: readonly McpMount[]): Set<ToolDefinition> {
  const found = new Set<ToolDefinition>();
  for (const mount of mounts) {
    if (isRemoteMount(mount)) continue;
    if (mount.registry) {
      mount.registry.registerAdapter(MCP_ADAPTER);
      for (const kind of ['tool', 'resource', 'resource-template', 'prompt', 'completion'] as const) {
        for (const definition of mount.registry.forAdapter(MCP_ADAPTER, { kind })) found.add(definition);
      }
    }
    for (const list of [mount.tools, mount.resources, mount.prompts, mount.completions]) {
      for (const member of list ?? []) found.add(toEntryDefinition(member));
    }
  }
  return found;
}

function toEntryDefinition(member: ServableTool): ToolDefinition {
  return typeof member === 'object' && member !== null && 'definition' in member && 'handler' in member
    ? member.definition
    : Tools.resolve(member as ToolLike);
}

/** A local mount's members, served under its namespace: their own definitions, so their scopes, tags and pipeline. */
export function mountLocal(sets: McpServedSets, mount: McpLocalMount): void {
  const { namespace, registry } = mount;
  registry?.registerAdapter(MCP_ADAPTER);
  const of = (list: ReadonlyArray<ToolLike> | undefined, ...kinds: MemberKind[]): ToolLike[] =>
    registry ? kinds.flatMap((kind) => registry.forAdapter(MCP_ADAPTER, { kind })) : [...(list ?? [])];
  const facts = { namespace };
  const renamed = (definition: ToolDefinition, name: string) =>
    mountedName(namespace, name, `${definition.id}, mounted under '${namespace}',`);
  const tools = (registry ? of(undefined, 'tool') : [...(mount.tools ?? [])]).map((member): McpToolEntry => {
    const entry = toEntry(member);
    return { ...entry, tool: { ...entry.tool, name: renamed(entry.definition, entry.tool.name) } };
  });
  const prompts = of(mount.prompts, 'prompt').map((member) => {
    const entry = sets.prompts.entryOf(member);
    return { ...entry, prompt: { ...entry.prompt, name: renamed(entry.definition, entry.prompt.name) } };
  });
  const resources = of(mount.resources, 'resource', 'resource-template').map((member) => sets.resources.entryOf(member));
  const completions = of(mount.completions, 'completion').map((member) => sets.completions.entryOf(member));
  sets.tools.mount(tools, facts, false);
  sets.resources.mount(resources, facts, false);
  sets.prompts.mount(prompts, facts, false);
  sets.completions.mount(completions, facts, false);
}
