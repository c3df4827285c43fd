import { shorten } from './limits';

/** Longer strings and lists are shortened in a description: a message stays one short line. */
const DESCRIBED_TEXT = 200;
const DESCRIBED_ITEMS = 10;
const DESCRIBED_DEPTH = 3;

/**
 * Renders a value for an error message: strings quoted, functions by name, the rest compactly.
 * Bounded (long strings, long or deep lists are shortened) and never throws, whatever the value
 * (a Proxy whose traps throw, getters that throw).
 */
export function describeValue(value: unknown): string {
  try {
    return describe(value, 0);
  } catch {
    return 'a value that cannot be described';
  }
}

function describe(value: unknown, depth: number): string {
  if (typeof value === 'string') return `'${shortText(value)}'`;
  if (typeof value === 'function') return typeof value.name === 'string' && value.name ? shortText(value.name) : 'an anonymous function';
  if (typeof value === 'symbol') return shortText(value.toString());
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null || typeof value !== 'object') return String(value);
  if (Array.isArray(value)) {
    if (depth >= DESCRIBED_DEPTH) return '[…]';
    const items = value.slice(0, DESCRIBED_ITEMS).map((item) => describe(item, depth + 1));
    if (value.length > DESCRIBED_ITEMS) items.push(`… ${value.length - DESCRIBED_ITEMS} more`);
    return `[${items.join(', ')}]`;
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  const ctor = (value as object).constructor;
  if (ctor && ctor !== Object && typeof ctor === 'function' && ctor.name) return `a ${shortText(ctor.name)}`;
  try {
    const json = JSON.stringify(value);
    return json.length > 80 ? `${json.slice(0, 77)}...` : json;
  } catch {
    return 'an object';
  }
}

function shortText(text: string): string {
  return shorten(text, DESCRIBED_TEXT);
}

/** "a, b and c" */
export function joinWords(words: readonly string[], last = 'and'): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${last} ${words[words.length - 1]}`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return true;
  // A plain object from another realm (a vm context, or structuredClone under a test runner's
  // sandbox, as the AI SDK clones its messages): its prototype is that realm's Object.prototype.
  return (
    Object.getPrototypeOf(proto) === null && Object.prototype.toString.call(value) === '[object Object]' && isRealmObjectPrototype(proto)
  );
}

function isRealmObjectPrototype(proto: object): boolean {
  const constructor = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value as unknown;
  return typeof constructor === 'function' && constructor.name === 'Object' && constructor.prototype === proto;
}

/** A class (or built-in constructor) as opposed to an arrow-function thunk. */
export function isClass(value: unknown): value is new (...args: never[]) => unknown {
  return typeof value === 'function' && value.prototype !== undefined && value.prototype !== null;
}
