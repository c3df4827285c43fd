import { isAdapterKey } from '../extensions/adapter-key';
import { checkToolBag } from '../extensions/tool-bags';
import { checkClassToolInput } from '../contract/tool-contracts';
import type { MemberKind, ToolDeclaration } from '../metadata/definitions';
import { catalogMark, catalogSince } from '../metadata/catalog';
import { KEYS } from '../metadata/keys';
import { processStore } from '../metadata/process-stores';
import { declaredAt, getFact, getOwnFact } from '../metadata/site';
import { DEFAULT_NAME_SUFFIXES } from '../naming/tool-name';
import { versionSuffixMismatch } from '../metadata/version-suffix';
import { describeValue, joinWords } from '../util/describe-value';
import { checkKnownKeys } from '../errors/known-keys';
import { DefinitionHost, ToolDefinition } from './tool-definition';
import { decoratorOf, noun } from '../decorators/member';
import { checkBaseDir, loadToolRoot, normalizeToolRoot, resolveToolRoot, ToolRoot } from './tool-roots';
import { DeclarationError, ToolConflictError, UnknownAdapterError } from '../errors/declaration-errors';
import type { ConflictingTool } from '../errors/declaration-errors';

/** The options of `new ToolRegistry({ ... })`: which classes it considers and how it derives names. */
export interface RegistryOptions {
  /**
   * Consider only these classes (and the adapters' tool roots) instead of every decorated class.
   * Like TypeGraphQL's `resolvers: [...]`.
   */
  tools?: readonly Function[];
  /**
   * Consider only classes decorated after the registry was created. Tests use this (through
   * `isolatedRegistry()` in `toolwright/testing`) so that one test's classes never reach another's.
   */
  isolated?: boolean;
  /** Class-name suffixes stripped when a name is derived (default `Tool`, `Action`). */
  nameSuffixes?: readonly string[];
}

/** The options of `registry.registerAdapter(key, { ... })`: the adapter's tool roots. */
export interface AdapterRegistration {
  /** Directories whose exported action classes are members without a per-class `@Tool`. */
  toolRoots?: readonly string[];
  /**
   * The directory relative `toolRoots` resolve against (an absolute path, usually `__dirname`);
   * without it, the working directory when the adapter is registered.
   */
  baseDir?: string;
}

/** What `registry.versions(adapter, name)` returns: every version of one tool name, and the latest. */
export interface VersionGroup {
  /** Every version, ascending. */
  readonly all: readonly ToolDefinition[];
  readonly latest: ToolDefinition;
}

/** Anything that accepts a tool accepts a definition or a class tool. */
export type ToolLike = ToolDefinition | Function;

/**
 * Enumerates tools by adapter key and groups them by `(toolName, version)`. `Tools` is the default
 * registry; create your own for an explicit set of tools or for isolated tests.
 */
export class ToolRegistry {
  readonly nameSuffixes: readonly string[];
  private readonly adapterRoots = new Map<string, readonly ToolRoot[]>();
  private readonly explicit: Function[] | undefined;
  private readonly added: Function[] = [];
  private readonly since: number;
  private readonly definitions = new WeakMap<Function, Map<string, ToolDefinition>>();
  private readonly loadedRoots = new Map<string, readonly Function[]>();
  private readonly host: DefinitionHost;

  constructor(options: RegistryOptions = {}) {
    checkKnownKeys('ToolRegistry', options, ['tools', 'isolated', 'nameSuffixes'], { heading: 'Known' });
    if (options.tools !== undefined && (!Array.isArray(options.tools) || options.tools.some((t) => typeof t !== 'function'))) {
      throw new DeclarationError(`ToolRegistry: 'tools' must be a list of classes; got ${describeValue(options.tools)}.`);
    }
    if (
      options.nameSuffixes !== undefined &&
      (!Array.isArray(options.nameSuffixes) || options.nameSuffixes.some((s) => typeof s !== 'string'))
    ) {
      throw new DeclarationError(`ToolRegistry: 'nameSuffixes' must be a list of strings; got ${describeValue(options.nameSuffixes)}.`);
    }
    this.explicit = options.tools ? [...options.tools] : undefined;
    this.since = options.isolated ? catalogMark() : 0;
    this.nameSuffixes = Object.freeze([...(options.nameSuffixes ?? DEFAULT_NAME_SUFFIXES)]);
    this.host = {
      nameSuffixes: this.nameSuffixes,
      isMember: (definition, adapter) => this.isMember(definition, adapter),
      adapters: () => this.adapters(),
      describe: (target, method) => this.describe(target, method),
    };
  }

  /**
   * Registers an adapter key. Idempotent: registering again without roots keeps the roots given
   * before. Roots are checked now (and again when read) by the broad-path guard.
   */
  registerAdapter(key: string, registration: AdapterRegistration = {}): this {
    if (!isAdapterKey(key)) {
      throw new DeclarationError(`registerAdapter: ${describeValue(key)} is not an adapter key such as 'mcp'.`);
    }
    checkKnownKeys(`registerAdapter('${key}')`, registration, ['toolRoots', 'baseDir']);
    const baseDir = checkBaseDir(registration.baseDir, key);
    if (registration.toolRoots !== undefined) {
      if (!Array.isArray(registration.toolRoots)) {
        throw new DeclarationError(
          `registerAdapter('${key}'): toolRoots must be a list of directories; got ${describeValue(registration.toolRoots)}.`,
        );
      }
      const roots = registration.toolRoots.map((root) => resolveToolRoot(root, key, baseDir));
      this.adapterRoots.set(key, Object.freeze(roots));
    } else if (!this.adapterRoots.has(key)) {
      this.adapterRoots.set(key, Object.freeze([]));
    }
    return this;
  }

  /** Registered adapter keys, in registration order. */
  adapters(): string[] {
    return [...this.adapterRoots.keys()];
  }

  /** Adds classes for this registry to consider (a subclass that carries no decorator of its own). */
  add(...targets: Function[]): this {
    for (const target of targets) {
      if (typeof target !== 'function') throw new DeclarationError(`ToolRegistry.add expects classes; got ${describeValue(target)}.`);
      if (!this.added.includes(target)) this.added.push(target);
    }
    return this;
  }

  /** The definition of a class tool, or of a method tool when `method` is given. */
  describe(target: Function, method?: string): ToolDefinition {
    if (typeof target !== 'function' || !target.prototype) {
      throw new DeclarationError(`describeTool expects a tool class; got ${describeValue(target)}.`);
    }
    const methods = this.toolMethods(target);
    if (method !== undefined) {
      if (!methods.includes(method)) {
        throw new DeclarationError(
          `${target.name}.${method} is not a method tool. Decorate it with @Tool()` +
            (methods.length > 0 ? `; the method tools of ${target.name} are ${joinWords(methods)}.` : '.'),
          { class: target, member: method },
        );
      }
      return this.definition(target, method, 'method');
    }
    const declaration = getFact<ToolDeclaration>(KEYS.tool, { target });
    const entry = declaration?.method ?? 'call';
    if (typeof (target.prototype as Record<string, unknown>)[entry] !== 'function') {
      const hint = methods.length > 0 ? ` It has method tools: describeTool(${target.name}, '${methods[0]}').` : '';
      throw new DeclarationError(`${target.name} is not a class tool: it has no entry method '${entry}'.${hint}`, { class: target });
    }
    return this.definition(target, entry, 'class');
  }

  /** Accepts a definition or a class tool. */
  resolve(tool: ToolLike): ToolDefinition {
    if (tool instanceof ToolDefinition) return tool;
    // A class tool described before: one map lookup instead of reading its metadata again.
    const known = typeof tool === 'function' ? this.classTools.get(tool) : undefined;
    if (known) return known;
    const definition = this.describe(tool);
    this.classTools.set(tool, definition);
    return definition;
  }

  private readonly classTools = new WeakMap<Function, ToolDefinition>();

  /**
   * The members of an adapter: the latest version of each tool, sorted by name; with
   * `allVersions`, every version, sorted by name then ascending version. `kind` enumerates another
   * kind of member instead of tools: `'resource'`, `'resource-template'`, `'prompt'`, `'completion'`
   * (each kind has names of its own).
   */
  forAdapter(key: string, options: ForAdapterOptions = {}): ToolDefinition[] {
    checkKnownKeys('forAdapter', options, ['allVersions', 'kind']);
    const kind = options.kind ?? 'tool';
    if (!MEMBER_KINDS.includes(kind)) {
      throw new DeclarationError(
        `forAdapter: kind must be one of ${joinWords(MEMBER_KINDS.map((k) => `'${k}'`))}; got ${describeValue(kind)}.`,
      );
    }
    const groups = this.groups(
      key,
      this.members(key, (definition) => definition.member === kind),
    );
    const sorted = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return sorted.flatMap(([, group]) => (options.allVersions ? group.all : [group.latest]));
  }

  /** One tool's version group for an adapter, or undefined when no member has that name. */
  versions(key: string, name: string, kind: MemberKind = 'tool'): VersionGroup | undefined {
    const pattern = new RegExp(`^${name.replace(/[^a-z0-9_]/g, '')}(_v\\d+)?$`);
    // Checks only the members it matched (and would-be versions of them), so an unrelated
    // malformed tool does not derail the lookup.
    const matched = this.members(key, (definition) => definition.member === kind && pattern.test(definition.toolName(key)));
    return this.groups(key, matched).get(name);
  }

  /** Is the definition a member of the adapter? `(root grant ∪ declaration grant) − except`. */
  isMember(definition: ToolDefinition, adapter: string): boolean {
    if (!this.adapterRoots.has(adapter)) return false;
    const declaration = definition.declaration;
    if (declaration?.optOut) return false;
    if (declaration?.except.includes(adapter)) return false;
    const declared = declaration !== undefined && (declaration.grants === 'all' || declaration.grants.includes(adapter));
    return declared || (definition.kind === 'class' && this.rootGrant(definition.target, adapter));
  }

  private definition(target: Function, method: string, kind: 'class' | 'method'): ToolDefinition {
    let byMethod = this.definitions.get(target);
    if (!byMethod) this.definitions.set(target, (byMethod = new Map()));
    const cacheKey = `${kind}:${method}`;
    let definition = byMethod.get(cacheKey);
    if (!definition) byMethod.set(cacheKey, (definition = new ToolDefinition(this.host, target, method, kind)));
    return definition;
  }

  private toolMethods(target: Function): string[] {
    return getOwnFact<string[]>(KEYS.toolMethods, { target }) ?? [];
  }

  private rootGrant(target: Function, adapter: string): boolean {
    return (this.adapterRoots.get(adapter) ?? []).some((root) => this.rootClasses(root, adapter).includes(target));
  }

  private rootClasses(root: ToolRoot, adapter: string): readonly Function[] {
    normalizeToolRoot(root.root, adapter);
    let classes = this.loadedRoots.get(root.absolute);
    if (!classes) this.loadedRoots.set(root.absolute, (classes = loadToolRoot(root, adapter).classes));
    return classes;
  }

  /** Every class this registry considers, in declaration order. */
  private candidates(key: string): Function[] {
    const fromRoots = (this.adapterRoots.get(key) ?? []).flatMap((root) => this.rootClasses(root, key));
    const base = this.explicit ?? catalogSince(this.since);
    return [...new Set([...base, ...this.added, ...fromRoots])];
  }

  private definitionsOf(target: Function): ToolDefinition[] {
    const found: ToolDefinition[] = [];
    // Inline tools (defineTool) are held by their caller and never enumerated.
    if (getOwnFact<boolean>(KEYS.inline, { target })) return found;
    const declaration = getFact<ToolDeclaration>(KEYS.tool, { target });
    const entry = declaration?.method ?? 'call';
    if (typeof (target.prototype as Record<string, unknown> | undefined)?.[entry] === 'function') {
      found.push(this.definition(target, entry, 'class'));
    }
    for (const method of this.toolMethods(target)) found.push(this.definition(target, method, 'method'));
    return found;
  }

  private members(key: string, filter?: (definition: ToolDefinition) => boolean): ToolDefinition[] {
    if (!this.adapterRoots.has(key)) {
      const known = this.adapters();
      throw new UnknownAdapterError(
        `Unknown adapter '${key}'. Registered adapters: ${known.length ? joinWords(known.map((k) => `'${k}'`)) : 'none'}. ` +
          `Register it with registerAdapter('${key}'), or import its entry point (e.g. toolwright/mcp), before enumerating.`,
        key,
        known,
      );
    }
    const members = this.candidates(key)
      .flatMap((target) => this.definitionsOf(target))
      .filter((definition) => this.isMember(definition, key))
      .filter((definition) => !filter || filter(definition));
    for (const definition of members) this.checkMember(definition, key);
    return members;
  }

  /** Enumeration-time checks of one member's declaration. */
  private checkMember(definition: ToolDefinition, key: string): void {
    if (definition.kind === 'class' && definition.member === 'tool') checkClassToolInput(definition.site, definition.method);
    checkMemberContract(definition);
    for (const bag of definition.adapterBags(key)) checkToolBag(key, bag, definition.id);
    if (definition.hasExplicitName(key)) return;
    const { suffixVersion } = definition.derivedName();
    if (suffixVersion === undefined) return;
    const own = definition.ownVersion;
    if (own !== undefined) {
      const mismatch = versionSuffixMismatch(definition.site, own, this.nameSuffixes);
      if (mismatch) throw new DeclarationError(mismatch, declaredAt(definition.site));
    } else if (definition.declaresVersion) {
      throw new DeclarationError(
        `${definition.id}: its name ends in V${suffixVersion} but it declares no @ToolVersion of its own ` +
          `(it inherits version ${definition.version}). Add @ToolVersion(${suffixVersion}) to ${definition.id}.`,
        declaredAt(definition.site),
      );
    }
  }

  private groups(key: string, members: ToolDefinition[]): Map<string, VersionGroup> {
    const byName = new Map<string, ToolDefinition[]>();
    for (const definition of members) {
      const name = definition.toolName(key);
      byName.set(name, [...(byName.get(name) ?? []), definition]);
    }
    const groups = new Map<string, VersionGroup>();
    for (const [name, list] of byName) {
      const all = [...list].sort((a, b) => a.version - b.version);
      for (let i = 1; i < all.length; i++) {
        if (all[i].version === all[i - 1].version) {
          const [a, b] = [all[i - 1], all[i]].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)).map(conflicting);
          const [first, second] = [a.id, b.id];
          const member = all[i].member;
          const decorator = decoratorOf(all[i].declaration);
          const fix =
            member === 'completion'
              ? `Rename one (a completion's name is its class or method name), or name it for the adapter: @Complete(…, { adapters: { ${key}: { name } } })`
              : `Give one an explicit name (@${decorator}(${member === 'resource' || member === 'resource-template' ? '…, ' : ''}{ name })) or a distinct @ToolVersion`;
          throw new ToolConflictError(
            `${member === 'tool' ? 'Tools' : `${noun(decorator)[0].toUpperCase()}${noun(decorator).slice(1)}s`} ${first} and ${second} are both '${name}' version ${all[i].version} for adapter '${key}'. ${fix}.`,
            name,
            all[i].version,
            key,
            [a, b],
          );
        }
      }
      groups.set(name, Object.freeze({ all: Object.freeze(all), latest: all[all.length - 1] }));
    }
    this.checkOrphans(byName);
    return groups;
  }

  /** A tool named `x_v3` with no declared version beside a versioned group `x` is an orphan. */
  private checkOrphans(byName: Map<string, ToolDefinition[]>): void {
    for (const [name, list] of byName) {
      const match = /^(.+)_v(\d+)$/.exec(name);
      if (!match) continue;
      const group = byName.get(match[1]);
      if (!group || !group.some((member) => member.declaresVersion)) continue;
      const orphan = list.find((definition) => !definition.declaresVersion);
      if (orphan) {
        throw new DeclarationError(
          `${orphan.id} ('${name}') looks like version ${match[2]} of ${match[1]} but declares no @ToolVersion. ` +
            `Add @ToolVersion(${match[2]}) so it joins the group, or give it an explicit name.`,
          declaredAt(orphan.site),
        );
      }
    }
  }
}

/** The options of `registry.forAdapter(key, { ... })`: every version or only the latest, and which kind of member. */
export interface ForAdapterOptions {
  /** Every version, not only the latest of each name. */
  allVersions?: boolean;
  /** The kind of member to enumerate (default `'tool'`). */
  kind?: MemberKind;
}

const MEMBER_KINDS: readonly MemberKind[] = ['tool', 'resource', 'resource-template', 'prompt', 'completion'];
const SCALAR_KINDS = new Set(['string', 'number', 'integer', 'boolean', 'enum', 'date']);

/**
 * What a member kind asks of its input contract, checked at enumeration: a fixed resource takes no
 * arguments; a template's fields are exactly its variables; a prompt's arguments are scalars (clients
 * send them as text); a completion's prompt or template exists and has the argument.
 */
export function checkMemberContract(definition: ToolDefinition): void {
  const member = definition.member;
  if (member === 'tool') return;
  if (member === 'completion') {
    void definition.inputContract; // refuses an @Expects: a completion's input is the request
    void definition.completes;
    return;
  }
  const fields = definition.inputContract.fields.filter((field) => !field.ambient);
  const at = declaredAt(definition.site);
  if (member === 'resource') {
    if (fields.length > 0) {
      throw new DeclarationError(
        `${definition.id}: a resource at a fixed URI takes no arguments, and its input contract has ${joinWords(fields.map((f) => `'${f.name}'`))}. ` +
          'Make it a @ResourceTemplate with those fields as {variables}, or remove them (ambient fields are fine).',
        at,
      );
    }
    return;
  }
  if (member === 'resource-template') {
    const facts = definition.resource!;
    const variables = facts.variables.map((v) => v.name);
    const missing = variables.filter((name) => !fields.some((field) => field.name === name));
    const extra = fields.filter((field) => !variables.includes(field.name)).map((field) => field.name);
    if (missing.length > 0 || extra.length > 0) {
      throw new DeclarationError(
        `${definition.id}: the fields of its input contract must be exactly the variables of '${facts.uri}'. ` +
          [
            missing.length > 0 ? `Add field${missing.length > 1 ? 's' : ''} ${joinWords(missing.map((n) => `'${n}'`))}.` : '',
            extra.length > 0
              ? `${joinWords(extra.map((n) => `'${n}'`))} ${extra.length > 1 ? 'are' : 'is'} not in the template: add {${extra[0]}} to it, make ${extra.length > 1 ? 'them' : 'it'} @AmbientContext, or remove ${extra.length > 1 ? 'them' : 'it'}.`
              : '',
          ]
            .filter(Boolean)
            .join(' '),
        at,
      );
    }
    for (const variable of facts.variables) {
      const field = fields.find((f) => f.name === variable.name)!;
      const list = field.type.kind === 'array';
      const scalarItems = list ? SCALAR_KINDS.has(field.type.items!.kind) : SCALAR_KINDS.has(field.type.kind);
      if (list !== variable.explode || !scalarItems) {
        throw new DeclarationError(
          `${definition.id}: template variable '${variable.name}' ${variable.explode ? 'is exploded ({' + variable.name + '*}), a list of values' : 'is one value'}, ` +
            `so field '${variable.name}' must be ${variable.explode ? 'an array of strings, numbers or booleans' : 'a string, number, boolean or enum'}` +
            (list && !variable.explode ? `; for a list of values, explode the variable: {${variable.name}*}.` : '.'),
          at,
        );
      }
    }
    return;
  }
  const nonScalar = fields.find((field) => !SCALAR_KINDS.has(field.type.kind));
  if (nonScalar) {
    throw new DeclarationError(
      `${definition.id}: prompt argument '${nonScalar.name}' is a${nonScalar.type.kind === 'array' || nonScalar.type.kind === 'object' ? 'n' : ''} ${nonScalar.type.kind}; ` +
        'clients send prompt arguments as text, so each must be a string, number, boolean or enum. Flatten it into scalar arguments.',
      at,
    );
  }
}

/** One side of a conflict, as {@link ToolConflictError} carries it. */
function conflicting(definition: ToolDefinition): ConflictingTool {
  return Object.freeze({
    id: definition.id,
    target: definition.target,
    method: definition.kind === 'method' ? definition.method : undefined,
  });
}

/** The default registry: one for the process, shared by every copy of toolwright (see metadata/process-stores). */
export const Tools: ToolRegistry = processStore('defaultRegistry', () => new ToolRegistry());
