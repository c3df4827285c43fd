/**
 * RFC 6570 expansion (section 3.2, appendix A): each expression's defined variables, percent-encoded
 * (outside the unreserved characters; `+` and `#` also keep reserved characters and existing
 * `%XX` triplets), joined by the operator's separators.
 */
import type { Expression, TemplatePart } from './uri-template-parse';

/** A scalar, as expansion writes it. */
export type UriTemplateScalar = string | number | boolean;
/** A variable's value: a scalar, a list, or (expansion only) a map of names to scalars; undefined or null is left out. */
export type UriTemplateValue =
  UriTemplateScalar | readonly UriTemplateScalar[] | Readonly<Record<string, UriTemplateScalar>> | null | undefined;

const UTF8 = new TextEncoder();
/** Per ASCII code: 1 unreserved, 2 reserved (gen-delims and sub-delims), 4 a hex digit. */
const KIND = new Uint8Array(128);
const mark = (chars: string, kind: number) => {
  for (const char of chars) KIND[char.charCodeAt(0)] |= kind;
};
mark('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~', 1);
mark(":/?#[]@!$&'()*+,;=", 2);
mark('0123456789ABCDEFabcdef', 4);
const is = (text: string, i: number, kind: number): boolean => {
  const code = text.charCodeAt(i);
  return code < 128 && (KIND[code] & kind) !== 0;
};

const isUnreserved = (text: string, i: number): boolean => is(text, i, 1);
const isReserved = (text: string, i: number): boolean => is(text, i, 2);
const isTriplet = (text: string, i: number): boolean => text[i] === '%' && is(text, i + 1, 4) && is(text, i + 2, 4);

function encodeChar(char: string): string {
  // A lone surrogate has no UTF-8 form: TextEncoder writes it as U+FFFD.
  return [...UTF8.encode(char)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/** A value encoded for one operator: unreserved characters kept; with `reserved`, reserved ones and `%XX` triplets too. */
export function encodeValue(value: string, reserved: boolean): string {
  let out = '';
  for (let i = 0; i < value.length;) {
    const char = String.fromCodePoint(value.codePointAt(i)!);
    if (isUnreserved(value, i) || (reserved && isReserved(value, i))) out += char;
    else if (reserved && isTriplet(value, i)) out += value.slice(i, i + 3);
    else out += encodeChar(char);
    i += reserved && isTriplet(value, i) ? 3 : char.length;
  }
  return out;
}

/**
 * A matched value percent-decoded, or undefined when it holds a character its operator's expansion
 * never writes (simple: only unreserved and `%XX`; `reserved`: reserved characters too; non-ASCII
 * characters, as IRIs write them, either way) or a `%XX` that is broken or not UTF-8.
 */
export function decodeValue(text: string, reserved: boolean): string | undefined {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '%') {
      if (!isTriplet(text, i)) return undefined;
      i += 2;
    } else if (!isUnreserved(text, i) && !(reserved && isReserved(text, i)) && text.charCodeAt(i) < 0x80) return undefined;
  }
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined; // %XX that is not UTF-8
  }
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
    if (prefix !== undefined)
      throw new TypeError(`'${expression.text}': '${name}' has a prefix (:${prefix}), so its value must be a string, number or boolean.`);
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
