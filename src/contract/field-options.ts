import { Extensions, FIELD_OPTION_KEYS } from '../extensions/extensions';
import { describeValue, isPlainObject, joinWords } from '../util/describe-value';
import type { FieldOptions } from '../metadata/vocabulary';
import { DeclarationError } from '../errors/declaration-errors';
import type { DeclarationSiteInput } from '../errors/declaration-errors';

const FORMATS = ['email', 'uri', 'uuid', 'date-time', 'date'];
const BOOLEAN_KEYS = ['optional', 'nullable', 'coerce', 'allowEmpty', 'uniqueItems', 'sensitive'] as const;
const NUMBER_KEYS = ['min', 'max'] as const;
const LENGTH_KEYS = ['minLength', 'maxLength', 'minItems', 'maxItems'] as const;

/**
 * Checks `@Field` options (and inline field options) at decoration time. `where` names the field
 * (`ApproveLoanInput.amount`). Only shape and type mistakes are caught here; whether the field's
 * type can be seen at all is decided when the contract is first derived.
 */
export function checkFieldOptions(options: unknown, where: string, allowAmbient = false, site?: DeclarationSiteInput): FieldOptions {
  if (!isPlainObject(options)) {
    throw new DeclarationError(`${where}: field options must be an object; got ${describeValue(options)}.`, site);
  }
  const fail = (message: string): never => {
    throw new DeclarationError(`${where}: ${message}`, site);
  };
  for (const key of Object.keys(options)) {
    const known = (FIELD_OPTION_KEYS as readonly string[]).includes(key) && (key !== 'ambient' || allowAmbient);
    if (!known && !Extensions.isFieldMetadataKey(key)) {
      const keys = FIELD_OPTION_KEYS.filter((k) => k !== 'ambient' || allowAmbient);
      fail(
        `unknown field option '${key}'. Known options: ${keys.join(', ')}` +
          ' (adapters can register more with Extensions.registerFieldMetadataKey).',
      );
    }
  }
  const o = options as Record<string, unknown>;
  if (o.type !== undefined && o.anyOf !== undefined) fail("declare either 'type' or 'anyOf', not both.");
  if (o.type !== undefined && typeof o.type !== 'function' && !(Array.isArray(o.type) && o.type.length === 1)) {
    fail(`'type' must be a class, a thunk such as () => Tag, or [Type]; got ${describeValue(o.type)}.`);
  }
  if (o.anyOf !== undefined && typeof o.anyOf !== 'function') {
    fail(`'anyOf' must be a thunk returning the member types, e.g. () => [Card, Transfer]; got ${describeValue(o.anyOf)}.`);
  }
  if (o.description !== undefined && (typeof o.description !== 'string' || o.description.trim() === '')) {
    fail(`'description' must be a non-empty string; got ${describeValue(o.description)}.`);
  }
  for (const key of BOOLEAN_KEYS) {
    if (o[key] !== undefined && typeof o[key] !== 'boolean') fail(`'${key}' must be true or false; got ${describeValue(o[key])}.`);
  }
  for (const key of NUMBER_KEYS) {
    if (o[key] !== undefined && (typeof o[key] !== 'number' || !Number.isFinite(o[key]))) {
      fail(`'${key}' must be a finite number; got ${describeValue(o[key])}.`);
    }
  }
  for (const key of LENGTH_KEYS) {
    const value = o[key];
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 0)) {
      fail(`'${key}' must be an integer >= 0; got ${describeValue(value)}.`);
    }
  }
  for (const [low, high] of [
    ['min', 'max'],
    ['minLength', 'maxLength'],
    ['minItems', 'maxItems'],
  ] as const) {
    if (typeof o[low] === 'number' && typeof o[high] === 'number' && (o[low] as number) > (o[high] as number)) {
      fail(`'${low}' (${o[low]}) is greater than '${high}' (${o[high]}); no value could satisfy both.`);
    }
  }
  if (o.pattern !== undefined) {
    if (typeof o.pattern === 'string') {
      try {
        new RegExp(o.pattern, 'u');
      } catch (error) {
        fail(`'pattern' is not a valid regular expression: ${(error as Error).message}.`);
      }
    } else if (!(o.pattern instanceof RegExp)) {
      fail(`'pattern' must be a string or a RegExp; got ${describeValue(o.pattern)}.`);
    }
  }
  if (o.format !== undefined && !FORMATS.includes(o.format as string)) {
    fail(
      `'format' must be one of ${joinWords(
        FORMATS.map((f) => `'${f}'`),
        'or',
      )}; got ${describeValue(o.format)}.`,
    );
  }
  if (o.enum !== undefined) checkEnum(o.enum, fail);
  if (o.ambient !== undefined && o.ambient !== true) {
    if (!isPlainObject(o.ambient) || (o.ambient.key !== undefined && (typeof o.ambient.key !== 'string' || o.ambient.key === ''))) {
      fail(`'ambient' must be true or { key: 'name' }; got ${describeValue(o.ambient)}.`);
    }
  }
  return Object.freeze({ ...o }) as FieldOptions;
}

function checkEnum(value: unknown, fail: (message: string) => never): void {
  const isMember = (v: unknown) => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
  if (Array.isArray(value)) {
    if (value.length === 0 || !value.every(isMember)) {
      fail(`'enum' must be a non-empty list of strings, numbers or booleans; got ${describeValue(value)}.`);
    }
    return;
  }
  if (!isPlainObject(value) || Object.keys(value).length === 0 || !Object.values(value).every(isMember)) {
    fail(`'enum' must be a list of values or a TypeScript enum; got ${describeValue(value)}.`);
  }
}
