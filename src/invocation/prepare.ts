/**
 * Wire preparation and instantiation, compiled once per contract from the field model.
 *
 * prepare: before validation. Coerces wire strings per field (integers, numbers, booleans from the
 * listed words, dates stay ISO-8601 strings), applies defaults, turns Date instances into ISO
 * strings so the JSON Schema validator sees JSON. Never mutates the caller's arguments.
 *
 * instantiate: after validation. Builds the DTO instance the tool receives: nested classes and
 * dates as real instances.
 */
import { contractOf } from '../contract/build-contract';
import type { Contract, FieldModel, TypeNode } from '../contract/field-model';
import { copyJson } from '../util/copy-json';
import { isoString } from '../util/iso-date';

export type Prepare = (value: unknown, nullMeansAbsent: boolean) => unknown;
export type Instantiate = (value: unknown) => unknown;

const SHORT_INTEGER = /^[-+]?\d{1,15}$/;
const NUMBER = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/;
const TRUE_WORDS = new Set(['1', 'true', 't', 'yes', 'y', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'f', 'no', 'n', 'off']);

const identity = (value: unknown) => value;

const DECIMAL_PARTS = /^\s*[-+]?(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?\s*$/;
const TWO_TO_53 = 2n ** 53n;

/**
 * Whether decimal text (`NUMBER`) is an integer of at most 2^53 in magnitude: exactly the integers
 * `Number()` reads without rounding. `'9007199254740992'` and `'9.007199254740992e15'` are;
 * `'9007199254740993'` (past 2^53) and `'1.0000000000000001'` (not an integer, though `Number()`
 * makes it 1) are not.
 */
function isExactIntegerText(text: string): boolean {
  const [, whole, fraction = '', exponent = '0'] = DECIMAL_PARTS.exec(text)!;
  const digits = whole + fraction;
  let first = 0;
  while (first < digits.length && digits[first] === '0') first++;
  if (first === digits.length) return true; // zero, however written
  let end = digits.length;
  while (digits[end - 1] === '0') end--;
  // value = digits[first, end) × 10^scale
  const scale = Number(exponent) - fraction.length + (digits.length - end);
  if (scale < 0) return false; // a fraction is left
  if (end - first + scale > 16) return false; // 2^53 has 16 digits
  return BigInt(digits.slice(first, end)) * 10n ** BigInt(scale) <= TWO_TO_53;
}

/**
 * A decimal number written as text, as `Number()` reads it (`'4.0'`, `'1e3'`, `' 42'`: what a
 * NestJS ValidationPipe's implicit conversion makes of them), when it is exactly an integer of at
 * most 2^53 in magnitude. Other text stays text and is refused: `'9007199254740993'` would silently
 * become another number, and `'1.0000000000000001'` the integer 1.
 */
export function coerceInteger(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  // Up to 15 digits is always below 2^53: the common case skips the exact-integer arithmetic.
  if (SHORT_INTEGER.test(value)) return Number(value);
  return NUMBER.test(value) && isExactIntegerText(value) ? Number(value) : value;
}

/** Decimal text as the number `Number()` reads; other values unchanged. */
export function coerceNumber(value: unknown): unknown {
  return typeof value === 'string' && NUMBER.test(value) ? Number(value) : value;
}

/** `1 true t yes y on` / `0 false f no n off` (any case, trimmed) and the integers 1/0 as booleans; other values unchanged. */
export function coerceBoolean(value: unknown): unknown {
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
    return value;
  }
  if (value === 1) return true;
  if (value === 0) return false;
  return value;
}

/** A valid Date as its ISO-8601 text (what the schema validator sees); other values unchanged. */
export function dateToWire(value: unknown): unknown {
  return value instanceof Date && !Number.isNaN(value.getTime()) ? isoString(value) : value;
}

const prepareCache = new WeakMap<TypeNode, Prepare>();

/** The preparation of one value of a node's type. */
export function nodePreparer(node: TypeNode, coerce: boolean): Prepare {
  const cacheKey = node;
  if (coerce) {
    const cached = prepareCache.get(cacheKey);
    if (cached) return cached;
  }
  let prepare: Prepare;
  switch (node.kind) {
    case 'integer':
      prepare = coerce ? coerceInteger : identity;
      break;
    case 'number':
      prepare = coerce ? coerceNumber : identity;
      break;
    case 'boolean':
      prepare = coerce ? coerceBoolean : identity;
      break;
    case 'enum': {
      const numeric = (node.enum ?? []).length > 0 && (node.enum ?? []).every((v) => typeof v === 'number');
      prepare = coerce && numeric ? coerceNumber : identity;
      break;
    }
    case 'date':
      prepare = dateToWire;
      break;
    case 'array': {
      const item = nodePreparer(node.items!, coerce);
      prepare = (value, nullMeansAbsent) => (Array.isArray(value) ? value.map((v) => item(v, nullMeansAbsent)) : value);
      break;
    }
    case 'object': {
      const target = node.target!;
      let fields: FieldPreparer[] | undefined;
      prepare = (value, nullMeansAbsent) => {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
        fields ??= contractOf(target).fields.map(fieldPreparer);
        // Keep every key: an undeclared nested key is for the validator to refuse (closed objects).
        const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
        for (const field of fields) field(value as Record<string, unknown>, out, nullMeansAbsent);
        return out;
      };
      break;
    }
    default:
      prepare = identity;
  }
  if (coerce) prepareCache.set(cacheKey, prepare);
  return prepare;
}

export type FieldPreparer = (source: Record<string, unknown>, out: Record<string, unknown>, nullMeansAbsent: boolean) => void;

/** Prepares one field from `source` into `out`: null-as-absent, defaults, coercion. */
export function fieldPreparer(field: FieldModel): FieldPreparer {
  const name = field.name;
  const prepare = nodePreparer(field.type, field.coerce);
  const fallback = field.default;
  const nullable = field.nullable;
  return (source, out, nullMeansAbsent) => {
    let value = source[name];
    if (value === null && nullMeansAbsent && !nullable) value = undefined;
    if (value === undefined) {
      if (fallback === undefined) {
        if (name in out) delete out[name];
        return;
      }
      value = fallback.kind === 'literal' ? copyDefault(fallback.value) : fallback.factory();
      if (value === undefined) return;
    }
    out[name] = prepare(value, nullMeansAbsent);
  };
}

function copyDefault(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : copyJson(value);
}

const instantiateCache = new WeakMap<TypeNode, Instantiate>();

/** Builds the value the tool receives for a validated JSON value of a node's type. */
export function nodeInstantiator(node: TypeNode): Instantiate {
  const cached = instantiateCache.get(node);
  if (cached) return cached;
  let instantiate: Instantiate;
  switch (node.kind) {
    case 'date':
      instantiate = (value) => (typeof value === 'string' ? new Date(value) : value);
      break;
    case 'array': {
      const item = nodeInstantiator(node.items!);
      instantiate = item === identity ? identity : (value) => (Array.isArray(value) ? value.map(item) : value);
      break;
    }
    case 'object': {
      const target = node.target!;
      let build: Instantiate | undefined;
      instantiate = (value) => {
        build ??= contractInstantiator(contractOf(target));
        return value === null || typeof value !== 'object' ? value : build(value);
      };
      break;
    }
    default:
      instantiate = identity;
  }
  instantiateCache.set(node, instantiate);
  return instantiate;
}

/** A new instance of the contract's class with the validated fields assigned (ambient ones excluded). */
export function contractInstantiator(contract: Contract): (value: unknown) => object {
  const target = contract.target as new () => object;
  const construct = target.length === 0 ? () => new target() : () => Object.create(target.prototype) as object;
  const fields = contract.inputFields.map((field) => [field.name, nodeInstantiator(field.type)] as const);
  return (value) => {
    const instance = construct() as Record<string, unknown>;
    const source = value as Record<string, unknown>;
    for (const [name, instantiate] of fields) {
      const fieldValue = source[name];
      if (fieldValue !== undefined) instance[name] = instantiate === identity ? fieldValue : instantiate(fieldValue);
    }
    return instance;
  };
}
