/**
 * RFC 6570 expansion (section 3.2, appendix A): each expression's defined variables, percent-encoded
 * (outside the unreserved characters; `+` and `#` also keep reserved characters and existing
 * `%XX` triplets), joined by the operator's separators.
 */
import type { Expression, TemplatePart } from './uri-template-parse';

/** A scalar, as expansion writes it. */
export type UriTemplateScalar = string | number | boolean;
/** A variable's value: a scalar, a list, or (expansion only) a map of names to scalars; undefined or null is left out. */
export type UriTemplateValue = UriTemplateScalar | readonly UriTemplateScalar[] | Readonly<Record<string, UriTemplateScalar>> | null | undefined;

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;
const HEX = /[0-9A-Fa-f]/;
const UTF8 = new TextEncoder();

/** Whether `c` (one UTF-16 unit) is unreserved. */
export const isUnreserved = (c: string): boolean => UNRESERVED.test(c);
/** Whether `c` (one UTF-16 unit) is reserved (gen-delims and sub-delims). */
export const isReserved = (c: string): boolean => RESERVED.test(c);
/** Whether `text` has a `%XX` triplet at `i`. */
export const isTriplet = (text: string, i: number): boolean => text[i] === '%' && HEX.test(text[i + 1] ?? '') && HEX.test(text[i + 2] ?? '');

function encodeChar(char: string): string {
  // A lone surrogate has no UTF-8 form: TextEncoder writes it as U+FFFD.
  return [...UTF8.encode(char)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/** A value encoded for one operator: unreserved characters kept; with `reserved`, reserved ones and `%XX` triplets too. */
export function encodeValue(value: string, reserved: boolean): string {
  let out = '';
  for (let i = 0; i < value.length; ) {
    const code = value.codePointAt(i)!;
    const char = String.fromCodePoint(code);
    if (isUnreserved(char) || (reserved && isReserved(char))) out += char;
    else if (reserved && isTriplet(value, i)) out += value.slice(i, i + 3);
    else out += encodeChar(char);
    i += reserved && isTriplet(value, i) ? 3 : char.length;
  }
  return out;
}

/** The first `length` characters (code points) of a value. */
export function prefixOf(value: string, length: number): string {
  let i = 0;
  for (let count = 0; count < length && i < value.length; count++) i += value.codePointAt(i)! > 0xffff ? 2 : 1;
  return value.slice(0, i);
}

const isScalar = (value: unknown): value is UriTemplateScalar =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

function expandExpression(expression: Expression, values: Readonly<Record<string, UriTemplateValue>>): string {
  const { first, sep, named, ifemp, reserved } = expression;
  const encode = (value: UriTemplateScalar) => encodeValue(String(value), reserved);
  const pair = (name: string, value: UriTemplateScalar) => (String(value) === '' ? name + ifemp : `${name}=${encode(value)}`);
  const out: string[] = [];
  for (const { name, explode, prefix } of expression.vars) {
    const value = Object.prototype.hasOwnProperty.call(values, name) ? values[name] : undefined;
    if (value === undefined || value === null) continue;
    if (isScalar(value)) {
      const text = prefix !== undefined ? prefixOf(String(value), prefix) : String(value);
      out.push(named ? pair(name, text) : encode(text));
      continue;
    }
    if (prefix !== undefined) throw new TypeError(`'${expression.text}': '${name}' has a prefix (:${prefix}), so its value must be a string, number or boolean.`);
    const entries: [string | undefined, UriTemplateScalar][] = Array.isArray(value)
      ? (value as readonly UriTemplateScalar[]).map((item) => [undefined, item])
      : Object.entries(value as Record<string, UriTemplateScalar>);
    if (entries.length === 0) continue;
    if (entries.some(([, item]) => !isScalar(item))) {
      throw new TypeError(`'${expression.text}': '${name}' must hold strings, numbers or booleans.`);
    }
    if (!explode) {
      const joined = entries.flatMap(([key, item]) => (key === undefined ? [encode(item)] : [encode(key), encode(item)])).join(',');
      out.push(named ? `${name}=${joined}` : joined);
    } else if (named) {
      out.push(entries.map(([key, item]) => (key === undefined ? pair(name, item) : pair(encode(key), item))).join(sep));
    } else {
      out.push(entries.map(([key, item]) => (key === undefined ? encode(item) : `${encode(key)}=${encode(item)}`)).join(sep));
    }
  }
  return out.length === 0 ? '' : first + out.join(sep);
}

/** The URI a template's parts make with these values. */
export function expandParts(parts: readonly TemplatePart[], values: Readonly<Record<string, UriTemplateValue>>): string {
  return parts.map((part) => (typeof part === 'string' ? part : expandExpression(part, values))).join('');
}
