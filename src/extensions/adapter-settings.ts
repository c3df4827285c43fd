import { processStore } from '../metadata/process-stores';
import { PACKAGE_DIR } from '../util/package-info';
import { describeValue, joinWords } from '../util/describe-value';
import { isAdapterKey } from './adapter-key';
import { DeclarationError, SetupError } from '../errors/declaration-errors';

/** One adapter setting: a default, an optional fixed set, an optional validator. */
export interface SettingSpec<T = unknown> {
  readonly default: T;
  /** The only values allowed. */
  readonly oneOf?: readonly T[];
  /** Returns true, or a string saying what is wrong (false gives a generic message). */
  validate?(value: T): boolean | string;
  /** May a tool set its own value with `@Tool({ adapters: { key: { setting } } })`? */
  readonly overridable?: boolean;
}

/** An adapter's settings by name, each with its default and rules: what `defineAdapterConfig(namespace, settings)` takes. */
export type SettingSpecs = Readonly<Record<string, SettingSpec>>;

type Values<S extends SettingSpecs> = { [K in keyof S]: S[K]['default'] };

/** Keys of a per-tool adapter bag that are not settings. */
export const RESERVED_BAG_KEYS: readonly string[] = ['name'];

interface Declared {
  readonly settings: AdapterSettings<SettingSpecs>;
  /** The copy of toolwright whose defineAdapterConfig declared it (THIS_COPY of that copy). */
  readonly copy: { readonly path: string };
}

/** This copy of the module, told apart from another copy of toolwright loaded in the process. */
const THIS_COPY = Object.freeze({ path: PACKAGE_DIR });

// Shared by every copy of toolwright in the process (see metadata/process-stores).
const namespaces = processStore('adapterSettings', () => new Map<string, Declared>());

export function adapterSettingsFor(namespace: string): AdapterSettings<SettingSpecs> | undefined {
  return namespaces.get(namespace)?.settings;
}

/**
 * The same adapter loaded through a second copy of toolwright declares its namespace again: it
 * shares the settings the first declared when it declares the same setting names.
 */
function declaredByAnotherCopy(namespace: string, declared: Declared, specs: SettingSpecs): AdapterSettings<SettingSpecs> {
  const mine = Object.keys(specs).sort();
  const theirs = declared.settings.names().sort();
  if (mine.join() !== theirs.join()) {
    throw new SetupError(
      `defineAdapterConfig: the namespace '${namespace}' is already declared by another copy of toolwright (${declared.copy.path}) ` +
        `with the settings ${joinWords(theirs.map((n) => `'${n}'`)) || 'none'}; this copy (${PACKAGE_DIR}) declares ` +
        `${joinWords(mine.map((n) => `'${n}'`)) || 'none'}. Install one version of the adapter and of toolwright (npm ls toolwright).`,
    );
  }
  return declared.settings;
}

/** The settings half of an adapter config; `defineAdapterConfig` adds the per-tool half. */
export class AdapterSettings<S extends SettingSpecs> {
  private readonly values = new Map<string, unknown>();

  constructor(
    readonly namespace: string,
    private readonly specs: S,
  ) {}

  /** The adapter-wide value. */
  get<K extends keyof S & string>(name: K): Values<S>[K] {
    this.spec(name, 'get');
    return (this.values.has(name) ? this.values.get(name) : this.specs[name].default) as Values<S>[K];
  }

  /** Sets the adapter-wide value, validated. */
  set<K extends keyof S & string>(name: K, value: Values<S>[K]): void {
    this.values.set(name, this.check(name, value, 'set'));
  }

  /** Back to the default: one setting, or all of them. An unknown name resets nothing. */
  reset(name?: keyof S & string): void {
    if (name === undefined) {
      this.values.clear();
      return;
    }
    this.spec(name, 'reset');
    this.values.delete(name);
  }

  names(): string[] {
    return Object.keys(this.specs);
  }

  isOverridable(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.specs, name) && this.specs[name].overridable === true;
  }

  has(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.specs, name);
  }

  /** Validates a value for a setting; returns it or throws a message with the values named. */
  check(name: string, value: unknown, action = 'set'): unknown {
    const spec = this.spec(name, action);
    if (spec.oneOf && !spec.oneOf.some((allowed) => Object.is(allowed, value))) {
      throw new DeclarationError(
        `${name} must be one of ${spec.oneOf.map(describeValue).join(', ')}; got ${describeValue(value)} (adapter '${this.namespace}').`,
      );
    }
    if (spec.validate) {
      const verdict = spec.validate(value);
      if (verdict !== true) {
        const reason = typeof verdict === 'string' ? verdict : 'is not valid';
        throw new DeclarationError(`${name} ${reason}; got ${describeValue(value)} (adapter '${this.namespace}').`);
      }
    }
    return value;
  }

  private spec(name: string, action: string): SettingSpec {
    if (!this.has(name)) {
      throw new DeclarationError(
        `Cannot ${action} unknown setting '${name}' of adapter '${this.namespace}'. ` +
          `Known settings: ${joinWords(this.names().map((n) => `'${n}'`)) || 'none'}.`,
      );
    }
    return this.specs[name];
  }
}

export function registerSettings<S extends SettingSpecs>(namespace: string, specs: S): AdapterSettings<S> {
  if (!isAdapterKey(namespace)) {
    throw new DeclarationError(`defineAdapterConfig: ${describeValue(namespace)} is not an adapter key such as 'mcp'.`);
  }
  const declared = namespaces.get(namespace);
  if (declared !== undefined && declared.copy !== THIS_COPY) return declaredByAnotherCopy(namespace, declared, specs) as AdapterSettings<S>;
  if (declared !== undefined) {
    throw new DeclarationError(
      `defineAdapterConfig: the namespace '${namespace}' is already declared. Each adapter declares its ` +
        'namespace once; share the config object it returned.',
    );
  }
  for (const [name, spec] of Object.entries(specs)) {
    if (RESERVED_BAG_KEYS.includes(name)) {
      throw new DeclarationError(`defineAdapterConfig('${namespace}'): '${name}' is reserved for the per-adapter tool name.`);
    }
    if (typeof spec !== 'object' || spec === null || !('default' in spec)) {
      throw new DeclarationError(
        `defineAdapterConfig('${namespace}'): setting '${name}' needs a spec with a default, e.g. { default: false }.`,
      );
    }
    if (spec.oneOf !== undefined && (!Array.isArray(spec.oneOf) || spec.oneOf.length === 0)) {
      throw new DeclarationError(`defineAdapterConfig('${namespace}'): oneOf for '${name}' must be a non-empty array.`);
    }
  }
  const settings = new AdapterSettings(namespace, specs);
  // The default must satisfy the setting's own rules, or every tool would inherit a broken value.
  for (const name of settings.names()) settings.check(name, specs[name].default, 'declare');
  namespaces.set(namespace, { settings: settings as unknown as AdapterSettings<SettingSpecs>, copy: THIS_COPY });
  return settings;
}
