/**
 * Fast checks that answer exactly as class-validator's built-ins whose JSON Schema is only an
 * over-approximation (`@IsEmail`, `@IsUrl`, `@IsUUID`, `@IsISO8601`, `@IsDateString`,
 * `@IsRFC3339`), which class-validator (validator.js) re-checks at call time. validator.js's
 * `isEmail` alone costs microseconds a call (an options merge, byte lengths through `encodeURI`,
 * splits and regular expressions): a fast check reads the common shapes in place, with its options
 * resolved once, and hands anything unusual (non-ASCII text, quoted local parts, IP literals, …)
 * to class-validator's own function. For every value, it answers as class-validator's exported
 * function does with the same options (test/contract/fast-checks.property.test.ts and
 * bench/fast-checks prove it on generated and real-world values).
 */
import * as cv from 'class-validator';
import type { ValidationMetadata } from '../../interop/class-validator';
import { builtInUseOf } from './class-validator-identity';
import { fastIso8601, fastRfc3339 } from './fast-dates';
import { fastEmail } from './fast-email';
import { fastUrl } from './fast-url';

/** A fast check for a constraint's option set, or undefined when the set is not one it handles (class-validator then checks). */
export type FastCheckFor = (constraints: readonly unknown[]) => ((value: unknown) => boolean) | undefined;

const HEX = new Uint8Array(128);
for (let c = 0; c < 128; c++) HEX[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102) ? 1 : 0;

type UuidKind = '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | 'nil' | 'max' | 'loose' | 'all';
const UUID_KINDS = new Set<string>(['1', '2', '3', '4', '5', '6', '7', '8', 'nil', 'max', 'loose', 'all']);

/** `8-4-4-4-12` hex digits: whether every group is hex and every dash is in place. */
function uuidShape(text: string): boolean {
  if (text.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const c = text.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return false;
    } else if (c >= 128 || !HEX[c]) {
      return false;
    }
  }
  return true;
}

/** Whether every hex digit is `digit` (either case). */
function allDigits(text: string, digit: number): boolean {
  for (let i = 0; i < 36; i++) {
    const c = text.charCodeAt(i);
    if (c !== 45 && (c | 32) !== digit) return false;
  }
  return true;
}

/** validator.js `isUUID(text, kind)` on text already of the UUID shape. */
function uuidOfKind(text: string, kind: UuidKind): boolean {
  if (kind === 'loose') return true;
  if (kind === 'nil') return allDigits(text, 48);
  if (kind === 'max') return allDigits(text, 102);
  const version = text.charCodeAt(14) - 48;
  const variant = text.charCodeAt(19) | 32;
  const rfc = variant === 56 || variant === 57 || variant === 97 || variant === 98;
  if (kind === 'all') return (rfc && version >= 1 && version <= 8) || allDigits(text, 48) || allDigits(text, 102);
  return rfc && version === Number(kind);
}

/** The kind validator.js reads from a version argument (`undefined`/`null` is `all`; `4` is `'4'`), or undefined for one this does not handle. */
function uuidKind(version: unknown): UuidKind | undefined {
  if (version === undefined || version === null) return 'all';
  if (typeof version === 'number' && Number.isInteger(version) && version >= 1 && version <= 8) return String(version) as UuidKind;
  return typeof version === 'string' && UUID_KINDS.has(version) ? (version as UuidKind) : undefined;
}

/** class-validator's `isUUID(value, version)`: one version or a list (any of them). */
function fastUuid(version: unknown): ((value: unknown) => boolean) | undefined {
  const list = Array.isArray(version) ? [...(version as unknown[])] : [version];
  if (Array.isArray(version) && !version.every((_, index) => Object.prototype.hasOwnProperty.call(version, index))) return undefined;
  const kinds = list.map(uuidKind);
  if (kinds.includes(undefined)) return undefined;
  const resolved = kinds as UuidKind[];
  if (resolved.length === 1) {
    const [kind] = resolved;
    return (value) => typeof value === 'string' && uuidShape(value) && uuidOfKind(value, kind);
  }
  return (value) => typeof value === 'string' && uuidShape(value) && resolved.some((kind) => uuidOfKind(value, kind));
}

/** Per class-validator built-in name: the fast check for a constraint's option set. */
export const FAST_CHECKS: Readonly<Record<string, FastCheckFor>> = Object.freeze({
  [cv.IS_EMAIL]: (c: readonly unknown[]) => fastEmail(c[0]),
  [cv.IS_URL]: (c: readonly unknown[]) => fastUrl(c[0]),
  [cv.IS_UUID]: (c: readonly unknown[]) => fastUuid(c[0]),
  [cv.IS_ISO8601]: (c: readonly unknown[]) => fastIso8601(c[0]),
  [cv.IS_DATE_STRING]: (c: readonly unknown[]) => fastIso8601(c[0]),
  [cv.IS_RFC_3339]: () => fastRfc3339,
});

const DATES = [
  '2024-01-01',
  '2024-02-29',
  '2023-02-29',
  '2024-01-01T10:00:00Z',
  '2024-01-01 10:00:00.5+05:30',
  '2024-01-01T10:00:60z',
  '2024-W01-1',
  '2024-13-01',
  '0400-02-29',
  'x',
  '',
];
/**
 * Values a constraint registered under a built-in's name must answer as the fast check does before
 * the fast check stands in for it: a custom constraint that took the name (a stricter `isEmail`
 * for one company's domain) and passed the identity probes (./class-validator-identity.ts) keeps
 * its own verdict unless it agrees here too.
 */
const GUARD_PROBES: Readonly<Record<string, readonly unknown[]>> = {
  [cv.IS_EMAIL]: [
    'ada@example.com',
    'a.b+tag@gmail.com',
    'x_1@mail.example.co.uk',
    'info@company.io',
    'USER@EXAMPLE.ORG',
    'a@b.de',
    'admin@localhost',
    'a@127.0.0.1',
    '"a b"@example.com',
    'Ada <ada@example.com>',
    'a_b@ex_ample.com',
    'a..b@example.com',
    'josé@example.es',
    'a@example.c0',
    'abc',
    '',
  ],
  [cv.IS_URL]: [
    'http://example.com/',
    'https://www.google.com/search?q=x#y',
    'ftp://files.example.org/a.txt',
    'https://api.company.io:8443/v1',
    'example.com',
    'HTTPS://EXAMPLE.COM',
    'http://localhost:3000',
    'http://127.0.0.1/',
    'http://user:pw@example.com',
    'https://exa_mple.com',
    '//example.com',
    'javascript:alert(1)',
    'https://example.com:99999',
    'abc',
    '',
  ],
  [cv.IS_UUID]: [
    '123e4567-e89b-12d3-a456-426614174000',
    'f47ac10b-58cc-4372-a567-0e02b2c3d479',
    'F47AC10B-58CC-4372-A567-0E02B2C3D479',
    '017f22e2-79b0-7cc3-98c4-dc0c0c07398f',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    '123e4567-e89b-02d3-a456-426614174000',
    '123e4567-e89b-42d3-c456-426614174000',
    'urn:uuid:123e4567-e89b-12d3-a456-426614174000',
    '',
  ],
  [cv.IS_ISO8601]: DATES,
  [cv.IS_DATE_STRING]: DATES,
  [cv.IS_RFC_3339]: DATES,
};

interface ConstraintInstance {
  validate(value: unknown, args: unknown): unknown;
}

/**
 * The fast check that stands in for a residual constraint on the compiled path: for a use of a
 * class-validator built-in the table covers, with an option set it handles, that answers as the
 * fast check does on the guard probes. Undefined for any other: class-validator checks it.
 */
export function fastCheckOf(metadata: ValidationMetadata): ((value: unknown) => boolean) | undefined {
  const name = metadata.name;
  if (!name || !Object.prototype.hasOwnProperty.call(FAST_CHECKS, name) || !metadata.constraintCls) return undefined;
  const use = builtInUseOf(metadata);
  // A use whose closure holds more than its constraints show answers as no reference check does.
  if (!use || use.effects.builtIn === undefined) return undefined;
  const constraints: readonly unknown[] = metadata.constraints ?? [];
  const fast = FAST_CHECKS[name](constraints);
  if (!fast) return undefined;
  const instance = cv.getFromContainer(metadata.constraintCls) as ConstraintInstance;
  try {
    for (const value of GUARD_PROBES[name]) {
      const answer = instance.validate(value, { value, constraints, targetName: '', object: {}, property: metadata.propertyName });
      if (answer !== fast(value)) return undefined;
    }
  } catch {
    return undefined;
  }
  return fast;
}
