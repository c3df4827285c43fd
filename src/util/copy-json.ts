import { setOwn } from './own-property';

/** A deep copy of a JSON value (plain objects, arrays, primitives): faster than structuredClone. */
export function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (let i = 0; i < value.length; i++) items.push(copyJson(value[i]));
    return items as T;
  }
  const copy: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) setOwn(copy, keys[i], copyJson((value as Record<string, unknown>)[keys[i]]));
  return copy as T;
}
