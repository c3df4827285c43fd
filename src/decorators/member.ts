/**
 * What every member decorator shares (`@Tool`, `@Resource`, `@ResourceTemplate`, `@Prompt`,
 * `@Complete`): adapter keys, one options object or `false`, names, descriptions, per-adapter bags,
 * tags, the time limit, the entry method. One declaration record per site, under one key, so the
 * registry, the invoker and every adapter read a prompt as they read a tool.
 */
import { checkDescriptionOnce } from '../metadata/description-rule';
import { KEYS } from '../metadata/keys';
import { declaredAt, defineFact, getOwnFact, hasOwnFact, Site, siteName } from '../metadata/site';
import { checkVersionSuffix } from '../metadata/version-suffix';
import { sanitizeToolName } from '../naming/tool-name';
import { isAdapterKey } from '../extensions/adapter-key';
import { checkToolBag } from '../extensions/tool-bags';
import { describeValue, isPlainObject } from '../util/describe-value';
import { checkKnownKeys } from '../errors/known-keys';
import { isTimeoutMs, TIMEOUT_RULE } from '../util/limits';
import type { MemberFacts, ToolApproval, ToolDeclaration } from '../metadata/definitions';
import { classOrMethodDecorator, ClassOrMethodDecorator } from './class-or-method';
import { DeclarationError } from '../errors/declaration-errors';

/** Per-adapter options on a member: a name for that adapter and the adapter's own settings. */
export interface AdapterToolOptions {
  /** The member's name for this adapter only; `toolName()` without the adapter stays derived. */
  name?: string;
  [setting: string]: unknown;
}

/** The options every member decorator takes. */
export interface MemberOptions {
  /** Explicit name, only sanitized (`ListCompanies` → `listcompanies`). */
  name?: string;
  description?: string;
  /** A human-readable display name (MCP `title`). */
  title?: string;
  /** Adapters this member is never a member of; narrows "every adapter" or the listed ones. */
  except?: string | readonly string[];
  /** Per-adapter names and settings; a key here also makes the member a member of that adapter. */
  adapters?: Readonly<Record<string, AdapterToolOptions>>;
  /** Class members: the entry method (default `call`). */
  method?: string;
  /**
   * The call's time limit in milliseconds: past it the signal is aborted and the call answers
   * "… took longer than N ms" at once. Wins over every default (`defaultTimeoutMs`).
   */
  timeoutMs?: number;
  /**
   * Labels a server's `visible` rule reads to decide who sees and may call the member
   * (`['billing', 'beta']`): letters, digits and `- _ . : /`, up to 64 characters each.
   */
  tags?: readonly string[];
}

/** What a member decorator returns: a decorator for a class or a method. */
export type MemberDecorator = ClassOrMethodDecorator;

/** The arguments of a member decorator as written: adapter keys, one options object, or `false`. */
export type MemberArgument<Options> = string | false | Options;

export interface ParsedArguments {
  optOut: boolean;
  keys: string[];
  options: Record<string, unknown>;
}

export const MEMBER_OPTION_KEYS = ['name', 'description', 'title', 'except', 'adapters', 'method', 'timeoutMs', 'tags'];

/** A tag: letters, digits and - _ . : /, starting with a letter or digit, up to 64 characters. */
export const TAG = /^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,63}$/;

/** What a decorator takes before its options, for the examples in messages. */
const LEADING: Readonly<Record<string, string>> = { Resource: 'uri, ', ResourceTemplate: 'uriTemplate, ', Complete: "'argument', " };

/**
 * Builds a member decorator: checks its arguments now, and on the class or method records one
 * declaration with `facts` (the kind's own record, from the options) beside the shared fields.
 */
export function memberDecorator(
  decorator: string,
  args: readonly unknown[],
  optionKeys: readonly string[],
  facts?: (options: Record<string, unknown>, site: Site) => MemberFacts,
  extra?: (options: Record<string, unknown>, site: Site) => Partial<ToolDeclaration>,
): MemberDecorator {
  const parsed = parseMemberArguments(decorator, args);
  return classOrMethodDecorator(decorator, (site) => {
    const where = siteName(site);
    if (hasOwnFact(KEYS.tool, site)) {
      const existing = getOwnFact<ToolDeclaration>(KEYS.tool, site);
      const was = decoratorOf(existing);
      throw new DeclarationError(
        was === decorator
          ? `${where}: @${decorator} is already declared. Declare it once; a subclass may declare its own.`
          : `${where}: it is already declared with @${was}, and a class or method is one member. ` +
              `Move the @${decorator} to a method of its own (or another class).`,
        declaredAt(site),
      );
    }
    const declaration = finish(decorator, parsed, site, where, optionKeys, facts, extra);
    checkDescriptionOnce(site, { toolDescription: declaration.description });
    defineFact(KEYS.tool, declaration, site);
    if (site.method !== undefined) {
      const methods = getOwnFact<string[]>(KEYS.toolMethods, { target: site.target }) ?? [];
      defineFact(KEYS.toolMethods, [...methods, site.method], { target: site.target });
    }
    checkVersionSuffix(site, declaration, getOwnFact<number>(KEYS.version, site));
  });
}

/** What a decorator declares, in messages: `tool`, `resource template`, … */
export function noun(decorator: string): string {
  return decorator === 'Complete' ? 'completion' : decorator.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** The decorator a declaration came from, for messages. */
export function decoratorOf(declaration: ToolDeclaration | undefined): string {
  switch (declaration?.member?.kind) {
    case 'resource':
      return 'Resource';
    case 'resource-template':
      return 'ResourceTemplate';
    case 'prompt':
      return 'Prompt';
    case 'completion':
      return 'Complete';
    default:
      return 'Tool';
  }
}

export function parseMemberArguments(decorator: string, args: readonly unknown[]): ParsedArguments {
  const keys: string[] = [];
  let options: Record<string, unknown> | undefined;
  let optOut = false;
  for (const arg of args) {
    if (arg === false) {
      optOut = true;
    } else if (typeof arg === 'string') {
      if (!isAdapterKey(arg)) {
        throw new DeclarationError(
          `@${decorator}: ${describeValue(arg)} is not an adapter key. Use a key such as 'mcp' or 'openai' ` +
            '(letters, digits, - and _).',
        );
      }
      if (!keys.includes(arg)) keys.push(arg);
    } else if (isPlainObject(arg)) {
      if (options) throw new DeclarationError(`@${decorator}: pass at most one options object.`);
      options = arg;
    } else {
      throw new DeclarationError(
        `@${decorator}: unexpected argument ${describeValue(arg)}. Pass adapter keys ('mcp'), one options object, ` +
          'or false to opt out.',
      );
    }
  }
  if (optOut && args.length > 1) {
    throw new DeclarationError(
      `@${decorator}(false) opts out of every adapter and cannot be combined with adapter keys or options. ` +
        'Remove false, or remove the other arguments.',
    );
  }
  return { optOut, keys, options: options ?? {} };
}

export function optionalText(decorator: string, site: Site, key: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new DeclarationError(
      `${siteName(site)}: @${decorator} option '${key}' must be a non-empty string; got ${describeValue(value)}.`,
      declaredAt(site),
    );
  }
  return value;
}

function nameOption(decorator: string, site: Site, label: string, value: unknown): string | undefined {
  const name = optionalText(decorator, site, label, value);
  if (name !== undefined && sanitizeToolName(name) === '') {
    throw new DeclarationError(
      `${siteName(site)}: ${noun(decorator)} name ${describeValue(name)} has no provider-safe character. Use letters, digits or _ ` +
        '(e.g. approve_loan).',
      declaredAt(site),
    );
  }
  return name;
}

function adapterKeyList(decorator: string, site: Site, value: unknown): string[] {
  if (value === undefined) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.some((key) => !isAdapterKey(key))) {
    throw new DeclarationError(
      `${siteName(site)}: @${decorator} option 'except' must be an adapter key or a list of them; got ${describeValue(value)}.`,
    );
  }
  return [...new Set(list as string[])];
}

function tagList(decorator: string, site: Site, value: unknown): readonly string[] {
  if (value === undefined) return Object.freeze([]);
  const bad = !Array.isArray(value) ? value : value.find((tag) => typeof tag !== 'string' || !TAG.test(tag));
  if (!Array.isArray(value) || bad !== undefined) {
    throw new DeclarationError(
      `${siteName(site)}: @${decorator} option 'tags' must be a list of tags (letters, digits and - _ . : /, starting with a letter ` +
        `or digit, up to 64 characters), e.g. ['billing', 'beta']; ` +
        (Array.isArray(value) ? `${describeValue(bad)} is not one.` : `got ${describeValue(value)}.`),
      declaredAt(site),
    );
  }
  return Object.freeze([...new Set(value as string[])]);
}

function finish(
  decorator: string,
  parsed: ParsedArguments,
  site: Site,
  where: string,
  optionKeys: readonly string[],
  facts: ((options: Record<string, unknown>, site: Site) => MemberFacts) | undefined,
  extra: ((options: Record<string, unknown>, site: Site) => Partial<ToolDeclaration>) | undefined,
): ToolDeclaration {
  const options = parsed.options;
  const member = facts?.(options, site);
  if (parsed.optOut) return { site, optOut: true, grants: [], except: [], adapters: {}, tags: Object.freeze([]), member };
  checkKnownKeys(where, options, optionKeys, { noun: `@${decorator} option`, all: true, heading: 'Known options', site: declaredAt(site) });
  const adapters: Record<string, Readonly<Record<string, unknown>>> = {};
  if (options.adapters !== undefined) {
    if (!isPlainObject(options.adapters)) {
      throw new DeclarationError(
        `${where}: @${decorator} option 'adapters' must be an object keyed by adapter; got ${describeValue(options.adapters)}.`,
        declaredAt(site),
      );
    }
    for (const [key, bag] of Object.entries(options.adapters)) {
      if (!isAdapterKey(key)) {
        throw new DeclarationError(`${where}: ${describeValue(key)} in 'adapters' is not an adapter key.`);
      }
      if (!isPlainObject(bag)) {
        throw new DeclarationError(
          `${where}: the options for adapter '${key}' must be an object (e.g. { name: 'x' }); got ${describeValue(bag)}.`,
          declaredAt(site),
        );
      }
      nameOption(decorator, site, `adapters.${key}.name`, bag.name);
      checkToolBag(key, bag, where, declaredAt(site));
      adapters[key] = Object.freeze({ ...bag });
    }
  }
  let method: string | undefined;
  if (site.method !== undefined) {
    if (options.method !== undefined) {
      throw new DeclarationError(
        `${where}: the 'method' option is for class ${noun(decorator)}s; this @${decorator} already decorates a method.`,
        declaredAt(site),
      );
    }
  } else {
    method = optionalText(decorator, site, 'method', options.method) ?? 'call';
    if (typeof (site.target.prototype as Record<string, unknown>)[method] !== 'function') {
      throw new DeclarationError(
        `${where}: a class ${noun(decorator)} needs an entry method '${method}', and the class has none. ` +
          `Add ${method}(input) or name the entry method with @${decorator}(${LEADING[decorator] ?? ''}{ method: '...' }).`,
        declaredAt(site),
      );
    }
  }
  const granted = [...new Set([...parsed.keys, ...Object.keys(adapters)])];
  return Object.freeze({
    site,
    optOut: false,
    grants: granted.length > 0 ? Object.freeze(granted) : 'all',
    except: Object.freeze(adapterKeyList(decorator, site, options.except)),
    name: nameOption(decorator, site, 'name', options.name),
    description: optionalText(decorator, site, 'description', options.description),
    title: optionalText(decorator, site, 'title', options.title),
    method,
    adapters: Object.freeze(adapters),
    tags: tagList(decorator, site, options.tags),
    ...(member ? { member } : {}),
    ...timeoutOption(decorator, site, options.timeoutMs),
    ...extra?.(options, site),
  });
}

export function approvalOption(site: Site, value: unknown): { approval?: ToolApproval } {
  if (value === undefined) return {};
  if (value !== 'required' && typeof value !== 'function') {
    throw new DeclarationError(
      `${siteName(site)}: @Tool option 'approval' must be 'required' or a function of the input returning true when a call needs approval ` +
        `(e.g. (input) => input.amount > 10_000); got ${describeValue(value)}.`,
      declaredAt(site),
    );
  }
  return { approval: value as ToolApproval };
}

function timeoutOption(decorator: string, site: Site, value: unknown): { timeoutMs?: number } {
  if (value === undefined) return {};
  if (!isTimeoutMs(value))
    throw new DeclarationError(
      `${siteName(site)}: @${decorator} option 'timeoutMs' must be ${TIMEOUT_RULE}; got ${describeValue(value)}.`,
      declaredAt(site),
    );
  return { timeoutMs: value };
}
