/**
 * Freezes a value and everything reachable through its own properties, in place, and returns it.
 * For values that must not change after someone looked at them (the input an approver was shown).
 * Typed arrays cannot be frozen and are left as they are; cycles are fine.
 */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null || seen.has(item) || ArrayBuffer.isView(item)) continue;
    seen.add(item);
    Object.freeze(item);
    for (const key of Reflect.ownKeys(item)) {
      const descriptor = Object.getOwnPropertyDescriptor(item, key);
      if (descriptor && 'value' in descriptor) stack.push(descriptor.value);
    }
  }
  return value;
}
