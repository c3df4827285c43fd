import { catalogClass } from '../metadata/catalog';
import { KEYS } from '../metadata/keys';
import { decoratedSite, defineFact, getOwnFact, hasOwnFact, Site, siteName } from '../metadata/site';
import { sanitizeToolName } from '../naming/tool-name';
import { versionSuffixMismatch } from '../naming/version-suffix';
import { checkToolBag } from '../config/tool-bags';
import { describeValue, isPlainObject } from '../util/describe-value';
import { checkKnownKeys } from '../util/known-keys';
import { isTimeoutMs, TIMEOUT_RULE } from '../util/limits';

/** Per-adapter options on a tool: a name for that adapter and the adapter's own settings. */
export interface AdapterToolOptions {
  /** The tool's name for this adapter only; `toolName()` without the adapter stays derived. */
  name?: string;
  [setting: string]: unknown;
}

export interface ToolOptions {
  /** Explicit tool name, only sanitized (`ListCompanies` → `listcompanies`). */
  name?: string;
  description?: string;
  /** A human-readable display name (MCP `title`). */
  title?: string;
  /** Failure headline: `fail('no such loan')` reads "Could not approve the loan: no such loan". */
  error?: string;
  /** Message on success (`Result.message`). */
  success?: string;
  /** Adapters this tool is never a member of; narrows "every adapter" or the listed ones. */
  except?: string | readonly string[];
  /** Per-adapter names and settings; a key here also makes the tool a member of that adapter. */
  adapters?: Readonly<Record<string, AdapterToolOptions>>;
  /** Class tools: the entry method (default `call`). */
  method?: string;
  /**
   * The call's time limit in milliseconds: past it the tool's signal is aborted and the call
   * answers "… took longer than N ms" at once. Wins over every default (`defaultTimeoutMs`).
   */
  timeoutMs?: number;
  /**
   * A person must approve each call before it runs: `'required'`, or a function of the validated
   * input (`(input) => input.amount > 10_000`). Every transport asks in its own way (AI SDK
   * `needsApproval`, MCP elicitation, the Toolbox's `approval_required` records, `invoke({ approve })`);
   * an unapproved call never runs the tool.
   */
  approval?: ToolApproval;
}

/** When a tool's calls need a person's approval: always, or when a function of the validated input says so. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolApproval = 'required' | ((input: any) => boolean);

export type ToolArgument = string | false | ToolOptions;

/** The normalized record of one `@Tool(...)`. */
export interface ToolDeclaration {
  readonly site: Site;
  readonly optOut: boolean;
  /** `'all'`: every registered adapter; otherwise the granted keys (unknown keys never match). */
  readonly grants: 'all' | readonly string[];
  readonly except: readonly string[];
  readonly name?: string;
  readonly description?: string;
  readonly title?: string;
  readonly error?: string;
  readonly success?: string;
  /** Class tools: the entry method. */
  readonly method?: string;
  readonly adapters: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The call's time limit in milliseconds, if declared. */
  readonly timeoutMs?: number;
  /** Whether calls need a person's approval, if declared. */
  readonly approval?: ToolApproval;
}

const OPTION_KEYS = ['name', 'description', 'title', 'error', 'success', 'except', 'adapters', 'method', 'timeoutMs', 'approval'];
const ADAPTER_KEY = /^[A-Za-z][A-Za-z0-9_-]*$/;

export type ToolDecorator = {
  (target: Function): void;
  (target: object, propertyKey: string | symbol, descriptor: PropertyDescriptor): void;
};

/**
 * Declares a tool: on a class (entry method `call`, or `method`) or on a method of a service class.
 *
 * `@Tool()` every registered adapter · `@Tool('mcp', 'openai')` these · `@Tool({ name, adapters:
 * { mcp: { name } } })` · `@Tool({ except: 'openai' })` · `@Tool(false)` opts out of everything.
 */
export function Tool(...args: ToolArgument[]): ToolDecorator {
  const parsed = parseArguments(args);
  return ((target: object, propertyKey?: string | symbol, descriptor?: PropertyDescriptor) => {
    const site = decoratedSite('Tool', target, propertyKey, descriptor);
    const where = siteName(site);
    if (hasOwnFact(KEYS.tool, site)) {
      throw new TypeError(`${where}: @Tool is already declared. Declare it once; a subclass may declare its own.`);
    }
    const declaration = finish(parsed, site, where);
    if (declaration.description !== undefined && hasOwnFact(KEYS.description, site)) {
      throw new TypeError(`${where}: the description is declared twice, in @Tool({ description }) and @Description. Keep one.`);
    }
    defineFact(KEYS.tool, declaration, site);
    if (site.method !== undefined) {
      const methods = getOwnFact<string[]>(KEYS.toolMethods, { target: site.target }) ?? [];
      defineFact(KEYS.toolMethods, [...methods, site.method], { target: site.target });
    }
    const version = getOwnFact<number>(KEYS.version, site);
    if (version !== undefined && declaration.name === undefined) {
      const mismatch = versionSuffixMismatch(site, version);
      if (mismatch) throw new TypeError(mismatch);
    }
    catalogClass(site.target);
  }) as ToolDecorator;
}

interface ParsedArguments {
  optOut: boolean;
  keys: string[];
  options: ToolOptions;
}

function parseArguments(args: ToolArgument[]): ParsedArguments {
  const keys: string[] = [];
  let options: ToolOptions | undefined;
  let optOut = false;
  for (const arg of args) {
    if (arg === false) {
      optOut = true;
    } else if (typeof arg === 'string') {
      if (!ADAPTER_KEY.test(arg)) {
        throw new TypeError(
          `@Tool: ${describeValue(arg)} is not an adapter key. Use a key such as 'mcp' or 'openai' ` + '(letters, digits, - and _).',
        );
      }
      if (!keys.includes(arg)) keys.push(arg);
    } else if (isPlainObject(arg)) {
      if (options) throw new TypeError('@Tool: pass at most one options object.');
      options = arg as ToolOptions;
    } else {
      throw new TypeError(
        `@Tool: unexpected argument ${describeValue(arg)}. Pass adapter keys ('mcp'), one options object, ` + 'or false to opt out.',
      );
    }
  }
  if (optOut && args.length > 1) {
    throw new TypeError(
      '@Tool(false) opts out of every adapter and cannot be combined with adapter keys or options. ' +
        'Remove false, or remove the other arguments.',
    );
  }
  return { optOut, keys, options: options ?? {} };
}

function optionalText(where: string, key: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(`${where}: @Tool option '${key}' must be a non-empty string; got ${describeValue(value)}.`);
  }
  return value;
}

function toolNameOption(where: string, label: string, value: unknown): string | undefined {
  const name = optionalText(where, label, value);
  if (name !== undefined && sanitizeToolName(name) === '') {
    throw new TypeError(
      `${where}: tool name ${describeValue(name)} has no provider-safe character. Use letters, digits or _ ` + '(e.g. approve_loan).',
    );
  }
  return name;
}

function adapterKeyList(where: string, value: unknown): string[] {
  if (value === undefined) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.some((key) => typeof key !== 'string' || !ADAPTER_KEY.test(key))) {
    throw new TypeError(`${where}: @Tool option 'except' must be an adapter key or a list of them; got ${describeValue(value)}.`);
  }
  return [...new Set(list as string[])];
}

function finish(parsed: ParsedArguments, site: Site, where: string): ToolDeclaration {
  if (parsed.optOut) return { site, optOut: true, grants: [], except: [], adapters: {} };
  const options = parsed.options as Record<string, unknown>;
  checkKnownKeys(where, options, OPTION_KEYS, { noun: '@Tool option', all: true, heading: 'Known options' });
  const adapters: Record<string, Readonly<Record<string, unknown>>> = {};
  if (options.adapters !== undefined) {
    if (!isPlainObject(options.adapters)) {
      throw new TypeError(`${where}: @Tool option 'adapters' must be an object keyed by adapter; got ${describeValue(options.adapters)}.`);
    }
    for (const [key, bag] of Object.entries(options.adapters)) {
      if (!ADAPTER_KEY.test(key)) {
        throw new TypeError(`${where}: ${describeValue(key)} in 'adapters' is not an adapter key.`);
      }
      if (!isPlainObject(bag)) {
        throw new TypeError(
          `${where}: the options for adapter '${key}' must be an object (e.g. { name: 'x' }); got ${describeValue(bag)}.`,
        );
      }
      toolNameOption(where, `adapters.${key}.name`, bag.name);
      checkToolBag(key, bag, where);
      adapters[key] = Object.freeze({ ...bag });
    }
  }
  let method: string | undefined;
  if (site.method !== undefined) {
    if (options.method !== undefined) {
      throw new TypeError(`${where}: the 'method' option is for class tools; this @Tool already decorates a method.`);
    }
  } else {
    method = optionalText(where, 'method', options.method) ?? 'call';
    if (typeof (site.target.prototype as Record<string, unknown>)[method] !== 'function') {
      throw new TypeError(
        `${where}: a class tool needs an entry method '${method}', and the class has none. ` +
          `Add ${method}(input) or name the entry method with @Tool({ method: '...' }).`,
      );
    }
  }
  const granted = [...new Set([...parsed.keys, ...Object.keys(adapters)])];
  return Object.freeze({
    site,
    optOut: false,
    grants: granted.length > 0 ? Object.freeze(granted) : 'all',
    except: Object.freeze(adapterKeyList(where, options.except)),
    name: toolNameOption(where, 'name', options.name),
    description: optionalText(where, 'description', options.description),
    title: optionalText(where, 'title', options.title),
    error: optionalText(where, 'error', options.error),
    success: optionalText(where, 'success', options.success),
    method,
    adapters: Object.freeze(adapters),
    ...timeoutOption(where, options.timeoutMs),
    ...approvalOption(where, options.approval),
  });
}

function approvalOption(where: string, value: unknown): { approval?: ToolApproval } {
  if (value === undefined) return {};
  if (value !== 'required' && typeof value !== 'function') {
    throw new TypeError(
      `${where}: @Tool option 'approval' must be 'required' or a function of the input returning true when a call needs approval ` +
        `(e.g. (input) => input.amount > 10_000); got ${describeValue(value)}.`,
    );
  }
  return { approval: value as ToolApproval };
}

function timeoutOption(where: string, value: unknown): { timeoutMs?: number } {
  if (value === undefined) return {};
  if (!isTimeoutMs(value)) throw new TypeError(`${where}: @Tool option 'timeoutMs' must be ${TIMEOUT_RULE}; got ${describeValue(value)}.`);
  return { timeoutMs: value };
}
