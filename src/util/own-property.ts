/**
 * Writing a key of untrusted data onto a fresh object. `copy[key] = value` on a `{}` does not create
 * an own `__proto__` key: it replaces the copy's prototype (so `copy.isAdmin` answers through the
 * chain) and the key vanishes from Object.keys and JSON.stringify. Every copy of a value whose keys
 * came from outside goes through `setOwn`, so such a key stays what it was: an own data property.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // `__proto__` is the one accessor on Object.prototype: every other key assigns an own property.
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}
