/** Renders a value for an error message: strings quoted, functions by name, the rest compactly. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'function') return value.name ? value.name : 'an anonymous function';
  if (typeof value === 'symbol') return value.toString();
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null || typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[${value.map(describeValue).join(', ')}]`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  const ctor = (value as object).constructor;
  if (ctor && ctor !== Object && typeof ctor === 'function' && ctor.name) return `a ${ctor.name}`;
  try {
    const json = JSON.stringify(value);
    return json.length > 80 ? `${json.slice(0, 77)}...` : json;
  } catch {
    return 'an object';
  }
}

/** "a, b and c" */
export function joinWords(words: readonly string[], last = 'and'): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${last} ${words[words.length - 1]}`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A class (or built-in constructor) as opposed to an arrow-function thunk. */
export function isClass(value: unknown): value is new (...args: never[]) => unknown {
  return typeof value === 'function' && value.prototype !== undefined && value.prototype !== null;
}
