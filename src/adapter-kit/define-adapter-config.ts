import { Tools, ToolLike } from '../registry/tool-registry';
import type { ToolDefinition } from '../registry/tool-definition';
import type { Result } from '../invocation/result';
import { serializeResult } from './serialize-result';
import { describeValue } from '../util/describe-value';
import { AdapterSettings, registerSettings, SettingSpec, SettingSpecs } from '../extensions/adapter-settings';
import { DeclarationError } from '../errors/declaration-errors';
import { declaredAt } from '../metadata/site';

export const REJECT_OPAQUE = 'rejectOpaqueExposedValues';

type Values<S extends SettingSpecs> = { [K in keyof S]: S[K]['default'] };

/** An adapter's settings: adapter-wide values, and per-tool values resolved for each tool. */
export interface AdapterConfig<S extends SettingSpecs> {
  readonly namespace: string;
  /** The adapter-wide value. */
  get<K extends keyof S & string>(name: K): Values<S>[K];
  /** Sets the adapter-wide value, validated. */
  set<K extends keyof S & string>(name: K, value: Values<S>[K]): void;
  /** Back to the default: one setting, or all. An unknown name is an error and resets nothing. */
  reset(name?: keyof S & string): void;
  /**
   * The value for one tool: its own `@Tool({ adapters: { <namespace>: { name: value } } })`, then
   * its superclasses', then the adapter-wide value.
   */
  resolveOverrideFor<K extends keyof S & string>(tool: ToolLike, name: K): Values<S>[K];
  /**
   * The exposed values of a successful Result, JSON-safe, refusing opaque values when the tool's
   * `rejectOpaqueExposedValues` says so. Needs `declareRejectOpaqueExposedValues` among the settings.
   */
  serializeExposed(result: Result): unknown;
}

/**
 * Declares an adapter's settings under its namespace (`mcp`, `http`, …): each with a `default`, an
 * optional `oneOf`, an optional `validate`, and `overridable: true` to allow per-tool values.
 */
export function defineAdapterConfig<S extends SettingSpecs>(namespace: string, settings: S): AdapterConfig<S> {
  const store: AdapterSettings<S> = registerSettings(namespace, settings);
  // A tool's own values are final once its classes are defined (its bags are read once): each is
  // looked up and checked once per tool; the adapter-wide value is read live, as `set` may change it.
  const own = new WeakMap<ToolDefinition, Map<string, { value: unknown } | null>>();
  const ownValue = (definition: ToolDefinition, name: string): { value: unknown } | null => {
    let values = own.get(definition);
    if (!values) own.set(definition, (values = new Map()));
    let found = values.get(name);
    if (found === undefined) {
      found = null;
      for (const bag of definition.adapterBags(namespace)) {
        if (Object.prototype.hasOwnProperty.call(bag, name)) {
          try {
            found = { value: store.check(name, bag[name], 'resolve') };
          } catch (error) {
            throw new DeclarationError(`${definition.id}: ${(error as Error).message}`, declaredAt(definition.site));
          }
          break;
        }
      }
      values.set(name, found);
    }
    return found;
  };
  const resolveOverrideFor: AdapterConfig<S>['resolveOverrideFor'] = (tool, name) => {
    if (!store.isOverridable(name)) {
      store.check(name, store.get(name), 'resolve'); // an unknown name fails here, naming the known ones
      throw new DeclarationError(`${name} is not a per-tool setting of adapter '${namespace}'; read it with get('${name}').`);
    }
    const found = ownValue(Tools.resolve(tool), name);
    return (found ? found.value : store.get(name)) as Values<S>[typeof name];
  };
  return {
    namespace,
    get: (name) => store.get(name),
    set: (name, value) => store.set(name, value),
    reset: (name) => store.reset(name),
    resolveOverrideFor,
    serializeExposed(result) {
      if (!store.has(REJECT_OPAQUE)) {
        throw new DeclarationError(
          `serializeExposed: adapter '${namespace}' has no ${REJECT_OPAQUE} setting. Add ...declareRejectOpaqueExposedValues({ default }) to its settings.`,
        );
      }
      const rejectOpaque = resolveOverrideFor(result.tool, REJECT_OPAQUE as keyof S & string) === true;
      return serializeResult(result, rejectOpaque);
    },
  };
}

/**
 * The shared `rejectOpaqueExposedValues` setting, overridable per tool. Core never picks its
 * default: a published HTTP contract should refuse opaque values (true), while a model is usually
 * better served by an ugly honest string than a failed call (false).
 */
export function declareRejectOpaqueExposedValues(options: { default: boolean }): { [REJECT_OPAQUE]: SettingSpec<boolean> } {
  if (typeof options !== 'object' || options === null || typeof options.default !== 'boolean') {
    throw new DeclarationError(
      `declareRejectOpaqueExposedValues needs an explicit { default: true | false }; got ${describeValue(options)}. ` +
        'Core does not choose: it is a question of the transport.',
    );
  }
  return { [REJECT_OPAQUE]: { default: options.default, oneOf: [true, false], overridable: true } };
}
