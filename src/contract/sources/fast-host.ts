/**
 * What the fast checks (./fast-checks.ts) share: validator.js's `isFQDN` on ASCII text, read in
 * place (no split, no regex, no allocation), and the reading of an options object into the few
 * settings a fast check handles.
 */

/** validator.js `isFQDN` options a fast check passes on (`allow_numeric_tld` and `allow_wildcard` are false). */
export interface HostRules {
  readonly requireTld: boolean;
  readonly allowUnderscores: boolean;
  readonly ignoreMaxLength: boolean;
  readonly allowTrailingDot: boolean;
}

const LETTER = 1;
const DIGIT = 2;
const LABEL = 4;
/** Per ASCII code: a letter, a digit, a character of a host label (letters, digits, `-`, `_`). */
const HOST_CHARS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  const digit = c >= 48 && c <= 57;
  HOST_CHARS[c] = (letter ? LETTER : 0) | (digit ? DIGIT : 0) | (letter || digit || c === 45 || c === 95 ? LABEL : 0);
}

/** Whether the code is an ASCII letter or digit. */
export function isAlnum(c: number): boolean {
  return c < 128 && (HOST_CHARS[c] & (LETTER | DIGIT)) !== 0;
}

/** Whether the code is an ASCII letter. */
export function isLetter(c: number): boolean {
  return c < 128 && (HOST_CHARS[c] & LETTER) !== 0;
}

/** `[a-z]{2,}` or `xn[a-z0-9-]{2,}`, case-insensitively: the top-level domain `require_tld` asks for. */
function tldAllowed(text: string, start: number, end: number): boolean {
  if (end - start < 2) return false;
  let letters = true;
  for (let i = start; i < end && letters; i++) letters = isLetter(text.charCodeAt(i));
  if (letters) return true;
  if ((text.charCodeAt(start) | 32) !== 120 || (text.charCodeAt(start + 1) | 32) !== 110 || end - start < 4) return false;
  for (let i = start + 2; i < end; i++) {
    const c = text.charCodeAt(i);
    if (!isAlnum(c) && c !== 45) return false;
  }
  return true;
}

/**
 * validator.js `isFQDN(text.slice(start, end), rules)` for ASCII text (the caller has checked):
 * labels of letters, digits, `-` (not first or last) and `_` (when allowed), at most 63 long (unless
 * `ignoreMaxLength`), a top-level domain when required, never an all-digit one.
 */
export function isAsciiFqdn(text: string, start: number, end: number, rules: HostRules): boolean {
  if (rules.allowTrailingDot && end > start && text.charCodeAt(end - 1) === 46) end--;
  let tldStart = start;
  for (let i = end - 1; i >= start; i--) {
    if (text.charCodeAt(i) === 46) {
      tldStart = i + 1;
      break;
    }
  }
  if (rules.requireTld && (tldStart === start || !tldAllowed(text, tldStart, end))) return false;
  let allDigits = end > tldStart;
  for (let i = tldStart; i < end && allDigits; i++) allDigits = (HOST_CHARS[text.charCodeAt(i)] & DIGIT) !== 0;
  if (allDigits) return false;
  let labelStart = start;
  for (let i = start; i <= end; i++) {
    const c = i === end ? 46 : text.charCodeAt(i);
    if (c !== 46) {
      if (!(HOST_CHARS[c] & LABEL) || (c === 95 && !rules.allowUnderscores)) return false;
      continue;
    }
    const length = i - labelStart;
    if (length === 0 || (length > 63 && !rules.ignoreMaxLength)) return false;
    if (text.charCodeAt(labelStart) === 45 || text.charCodeAt(i - 1) === 45) return false;
    labelStart = i + 1;
  }
  return true;
}

/** An options object's own settings, or undefined when it is not one a fast check reads (not a plain object, a getter, an unknown key). */
export function plainOptions(options: unknown, known: readonly string[]): Readonly<Record<string, unknown>> | undefined {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) return undefined;
  const proto = Object.getPrototypeOf(options);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const settings: Record<string, unknown> = {};
  for (const key of Reflect.ownKeys(options)) {
    const descriptor = Object.getOwnPropertyDescriptor(options, key)!;
    if (typeof key !== 'string' || !known.includes(key) || !('value' in descriptor)) return undefined;
    settings[key] = descriptor.value;
  }
  return settings;
}

/** A boolean setting: its value, the default when absent, or undefined when it is not a boolean. */
export function flag(settings: Readonly<Record<string, unknown>>, key: string, fallback: boolean): boolean | undefined {
  const value = settings[key];
  if (value === undefined) return fallback;
  return typeof value === 'boolean' ? value : undefined;
}
