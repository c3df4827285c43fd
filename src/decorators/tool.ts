import { checkDescriptionOnce } from '../metadata/description-rule';
import { KEYS } from '../metadata/keys';
import { declaredAt, defineFact, getOwnFact, hasOwnFact, Site, siteName } from '../metadata/site';
import { checkVersionSuffix } from '../metadata/version-suffix';
import { sanitizeToolName } from '../naming/tool-name';
import { isAdapterKey } from '../extensions/adapter-key';
import { checkToolBag } from '../extensions/tool-bags';
import { describeValue, isPlainObject, joinWords } from '../util/describe-value';
import { checkKnownKeys } from '../errors/known-keys';
import { isTimeoutMs, TIMEOUT_RULE } from '../util/limits';
import type { ToolApproval, ToolDeclaration } from '../metadata/definitions';
import { classOrMethodDecorator, ClassOrMethodDecorator } from './class-or-method';
import { DeclarationError } from '../errors/declaration-errors';

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

export type ToolArgument = string | false | ToolOptions;

const OPTION_KEYS = ['name', 'description', 'title', 'error', 'success', 'except', 'adapters', 'method', 'timeoutMs', 'approval'];

/** What `@Tool(...)` returns: a decorator for a class or a method. */
export type ToolDecorator = ClassOrMethodDecorator;

/**
 * Declares a tool: on a class (entry method `call`, or `method`) or on a method of a service class.
 *
 * `@Tool()` every registered adapter · `@Tool('mcp', 'openai')` these · `@Tool({ name, adapters:
 * { mcp: { name } } })` · `@Tool({ except: 'openai' })` · `@Tool(false)` opts out of everything.
 */
export function Tool(...args: ToolArgument[]): ToolDecorator {
  const parsed = parseArguments(args);
  return classOrMethodDecorator('Tool', (site) => {
    const where = siteName(site);
    if (hasOwnFact(KEYS.tool, site)) {
      throw new DeclarationError(`${where}: @Tool is already declared. Declare it once; a subclass may declare its own.`, declaredAt(site));
    }
    const declaration = finish(parsed, site, where);
    checkDescriptionOnce(site, { toolDescription: declaration.description });
    defineFact(KEYS.tool, declaration, site);
    if (site.method !== undefined) {
      const methods = getOwnFact<string[]>(KEYS.toolMethods, { target: site.target }) ?? [];
      defineFact(KEYS.toolMethods, [...methods, site.method], { target: site.target });
    }
    checkVersionSuffix(site, declaration, getOwnFact<number>(KEYS.version, site));
  });
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
      if (!isAdapterKey(arg)) {
        throw new DeclarationError(
          `@Tool: ${describeValue(arg)} is not an adapter key. Use a key such as 'mcp' or 'openai' ` + '(letters, digits, - and _).',
        );
      }
      if (!keys.includes(arg)) keys.push(arg);
    } else if (isPlainObject(arg)) {
      if (options) throw new DeclarationError('@Tool: pass at most one options object.');
      options = arg as ToolOptions;
    } else {
      throw new DeclarationError(
        `@Tool: unexpected argument ${describeValue(arg)}. Pass adapter keys ('mcp'), one options object, ` + 'or false to opt out.',
      );
    }
  }
  if (optOut && args.length > 1) {
    throw new DeclarationError(
      '@Tool(false) opts out of every adapter and cannot be combined with adapter keys or options. ' +
        'Remove false, or remove the other arguments.',
    );
  }
  return { optOut, keys, options: options ?? {} };
}

function optionalText(site: Site, key: string, value: unknown): string | undefined {
  const where = siteName(site);
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new DeclarationError(
      `${where}: @Tool option '${key}' must be a non-empty string; got ${describeValue(value)}.`,
      declaredAt(site),
    );
  }
  return value;
}

function toolNameOption(site: Site, label: string, value: unknown): string | undefined {
  const where = siteName(site);
  const name = optionalText(site, label, value);
  if (name !== undefined && sanitizeToolName(name) === '') {
    throw new DeclarationError(
      `${where}: tool name ${describeValue(name)} has no provider-safe character. Use letters, digits or _ ` + '(e.g. approve_loan).',
      declaredAt(site),
    );
  }
  return name;
}

function adapterKeyList(site: Site, value: unknown): string[] {
  const where = siteName(site);
  if (value === undefined) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.some((key) => !isAdapterKey(key))) {
    throw new DeclarationError(`${where}: @Tool option 'except' must be an adapter key or a list of them; got ${describeValue(value)}.`);
  }
  return [...new Set(list as string[])];
}

function finish(parsed: ParsedArguments, site: Site, where: string): ToolDeclaration {
  if (parsed.optOut) return { site, optOut: true, grants: [], except: [], adapters: {} };
  const options = parsed.options as Record<string, unknown>;
  checkKnownKeys(where, options, OPTION_KEYS, { noun: '@Tool option', all: true, heading: 'Known options', site: declaredAt(site) });
  const adapters: Record<string, Readonly<Record<string, unknown>>> = {};
  if (options.adapters !== undefined) {
    if (!isPlainObject(options.adapters)) {
      throw new DeclarationError(
        `${where}: @Tool option 'adapters' must be an object keyed by adapter; got ${describeValue(options.adapters)}.`,
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
      toolNameOption(site, `adapters.${key}.name`, bag.name);
      checkToolBag(key, bag, where, declaredAt(site));
      adapters[key] = Object.freeze({ ...bag });
    }
  }
  let method: string | undefined;
  if (site.method !== undefined) {
    if (options.method !== undefined) {
      throw new DeclarationError(
        `${where}: the 'method' option is for class tools; this @Tool already decorates a method.`,
        declaredAt(site),
      );
    }
  } else {
    method = optionalText(site, 'method', options.method) ?? 'call';
    if (typeof (site.target.prototype as Record<string, unknown>)[method] !== 'function') {
      throw new DeclarationError(
        `${where}: a class tool needs an entry method '${method}', and the class has none. ` +
          `Add ${method}(input) or name the entry method with @Tool({ method: '...' }).`,
        declaredAt(site),
      );
    }
  }
  const granted = [...new Set([...parsed.keys, ...Object.keys(adapters)])];
  return Object.freeze({
    site,
    optOut: false,
    grants: granted.length > 0 ? Object.freeze(granted) : 'all',
    except: Object.freeze(adapterKeyList(site, options.except)),
    name: toolNameOption(site, 'name', options.name),
    description: optionalText(site, 'description', options.description),
    title: optionalText(site, 'title', options.title),
    error: optionalText(site, 'error', options.error),
    success: optionalText(site, 'success', options.success),
    method,
    adapters: Object.freeze(adapters),
    ...timeoutOption(site, options.timeoutMs),
    ...approvalOption(site, options.approval),
  });
}

function approvalOption(site: Site, value: unknown): { approval?: ToolApproval } {
  const where = siteName(site);
  if (value === undefined) return {};
  if (value !== 'required' && typeof value !== 'function') {
    throw new DeclarationError(
      `${where}: @Tool option 'approval' must be 'required' or a function of the input returning true when a call needs approval ` +
        `(e.g. (input) => input.amount > 10_000); got ${describeValue(value)}.`,
      declaredAt(site),
    );
  }
  return { approval: value as ToolApproval };
}

function timeoutOption(site: Site, value: unknown): { timeoutMs?: number } {
  const where = siteName(site);
  if (value === undefined) return {};
  if (!isTimeoutMs(value))
    throw new DeclarationError(
      `${where}: @Tool option 'timeoutMs' must be ${TIMEOUT_RULE}; got ${describeValue(value)}.`,
      declaredAt(site),
    );
  return { timeoutMs: value };
}
