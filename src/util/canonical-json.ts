/**
 * JSON with every object's keys in order, so equal values give equal text whatever order their keys
 * were written in; undefined when the value cannot be written as JSON (a cycle, a bigint).
 */
export function canonicalJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, (_key, item: unknown) =>
      typeof item === 'object' && item !== null && !Array.isArray(item)
        ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : item,
    );
  } catch {
    return undefined;
  }
}
