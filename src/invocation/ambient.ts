import { AsyncLocalStorage } from 'node:async_hooks';
import { describeValue } from '../util/describe-value';

/** Trusted server context: a Map, or any object keyed by the ambient keys tools declare. */
export type AmbientSource = ReadonlyMap<string, unknown> | Readonly<Record<string, unknown>>;

const scope = new AsyncLocalStorage<AmbientSource>();

function checkSource(source: unknown, where: string): AmbientSource {
  if (typeof source !== 'object' || source === null) {
    throw new TypeError(`${where}: the ambient context must be a Map or an object keyed by ambient key; got ${describeValue(source)}.`);
  }
  return source as AmbientSource;
}

/**
 * Runs `fn` with `context` as the ambient context of every tool call inside it (across awaits),
 * unless a call passes its own `ambientContext`, which replaces the scope entirely.
 */
export function withAmbientContext<T>(context: AmbientSource, fn: () => T): T {
  return scope.run(checkSource(context, 'withAmbientContext'), fn);
}

/** The ambient context for a call: the explicit one, else the current scope, else none. */
export function currentAmbient(explicit: AmbientSource | undefined): AmbientSource | undefined {
  if (explicit !== undefined) return checkSource(explicit, 'invoke');
  return scope.getStore();
}

/** Reads one declared key: `get` for a Map, an own property for an object (never the prototype chain). */
export function readAmbient(source: AmbientSource | undefined, key: string): unknown {
  if (source === undefined) return undefined;
  if (source instanceof Map) return source.get(key);
  return Object.prototype.hasOwnProperty.call(source, key) ? (source as Record<string, unknown>)[key] : undefined;
}
