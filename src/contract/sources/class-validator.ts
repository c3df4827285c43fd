/**
 * Reads class-validator's metadata: which constraints a class declares on its own properties, and
 * what each means for the field model. Constraints with a JSON Schema form become schema keywords
 * (with class-validator's own messages); the rest stay for runtime validation.
 */
import * as classValidator from 'class-validator';
import { getFromContainer, ValidationTypes } from 'class-validator';
import { isOptionalMetadata, ValidationMetadata } from '../../interop/class-validator';
import type { MessageFn } from '../field-model';
import type { FieldFormat } from '../../metadata/vocabulary';
import { shorten } from '../../util/limits';

export type { ValidationMetadata };

function constraintToString(constraint: unknown): string {
  if (Array.isArray(constraint)) return constraint.join(', ');
  if (typeof constraint === 'symbol') return constraint.description ?? '';
  return `${constraint}`;
}

const TOKENS = /\$(constraint(\d+)|value|property|target)/g;

/** class-validator's message for a constraint, with its special tokens replaced (in one pass). */
export function classValidatorMessage(metadata: ValidationMetadata, owner: Function): MessageFn {
  const constraints: unknown[] = metadata.constraints ?? [];
  return (property, value) => {
    const args = { value, constraints, targetName: owner.name, object: {}, property };
    let template: unknown = metadata.message;
    if (typeof template === 'function') template = (template as (a: typeof args) => string)(args);
    if (typeof template !== 'string' || template === '') {
      const constraint = metadata.constraintCls
        ? (getFromContainer(metadata.constraintCls) as { defaultMessage?: (a: typeof args) => string })
        : undefined;
      template = constraint?.defaultMessage?.(args) || `$property failed the ${metadata.name ?? metadata.type} check`;
    }
    const showValue = value !== undefined && value !== null && ['string', 'boolean', 'number'].includes(typeof value);
    return (template as string).replace(TOKENS, (token: string, name: string, index?: string) => {
      if (index !== undefined) return Number(index) - 1 < constraints.length ? constraintToString(constraints[Number(index) - 1]) : token;
      if (name === 'value') return showValue ? shorten(String(value)) : token; // a caller's value: quoted, bounded
      if (name === 'property') return property;
      return owner.name;
    });
  };
}

/** What one class-validator decorator means for the field model. */
export type Effect =
  | {
      readonly kind: 'type';
      readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'array' | 'record';
      readonly format?: FieldFormat;
    }
  | { readonly kind: 'keyword'; readonly keyword: string; readonly value: unknown }
  | { readonly kind: 'enum'; readonly values: readonly (string | number | boolean)[] }
  | { readonly kind: 'optional' }
  | { readonly kind: 'defined' }
  | { readonly kind: 'notEmpty' }
  | { readonly kind: 'nested' }
  | { readonly kind: 'conditional' }
  | { readonly kind: 'ignore' };

export interface MappedValidator {
  readonly metadata: ValidationMetadata;
  readonly effects: readonly Effect[];
  /** Part (or all) of it has no JSON Schema form: class-validator checks it at runtime. */
  readonly residual: boolean;
  /** Applies to each element of an array value. */
  readonly each: boolean;
  readonly message: MessageFn;
}

function enumValues(value: unknown): (string | number | boolean)[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.every((v) => ['string', 'number', 'boolean'].includes(typeof v)) ? (value as (string | number | boolean)[]) : undefined;
}

function patternOf(pattern: unknown, modifiers: unknown): string | undefined {
  if (modifiers) return undefined;
  const source =
    pattern instanceof RegExp
      ? pattern.flags.replace(/[gu]/g, '')
        ? undefined
        : pattern.source
      : typeof pattern === 'string'
        ? pattern
        : undefined;
  if (source === undefined) return undefined;
  try {
    new RegExp(source, 'u');
    return source;
  } catch {
    return undefined;
  }
}

const kw = (name: string, value: unknown): Effect => ({ kind: 'keyword', keyword: name, value });

type Effects = { readonly effects: readonly Effect[]; readonly residual: boolean };

const typeOnly = (type: Extract<Effect, { kind: 'type' }>['type'], format?: FieldFormat): Effects => ({
  effects: [{ kind: 'type', type, format }],
  residual: false,
});
/** Results of the parameterless decorators, shared. */
const FIXED = {
  string: typeOnly('string'),
  integer: typeOnly('integer'),
  number: typeOnly('number'),
  boolean: typeOnly('boolean'),
  date: typeOnly('date'),
  dateTime: typeOnly('string', 'date-time'),
  email: typeOnly('string', 'email'),
  uri: typeOnly('string', 'uri'),
  uuid: typeOnly('string', 'uuid'),
  array: typeOnly('array'),
  record: typeOnly('record'),
  optional: { effects: [{ kind: 'optional' }], residual: false } as Effects,
  conditional: { effects: [{ kind: 'conditional' }], residual: true } as Effects,
  nested: { effects: [{ kind: 'nested' }], residual: false } as Effects,
  ignore: { effects: [{ kind: 'ignore' }], residual: false } as Effects,
  defined: { effects: [{ kind: 'defined' }], residual: false } as Effects,
  notEmpty: { effects: [{ kind: 'notEmpty' }], residual: false } as Effects,
  residual: { effects: [], residual: true } as Effects,
};

// Read once: the package's CommonJS index re-exports through getters, one call per read. Each name
// below is exported by class-validator 0.14.0 and later, so a rename breaks the build, not the schema.
const { CONDITIONAL_VALIDATION, NESTED_VALIDATION, WHITELIST, IS_DEFINED, CUSTOM_VALIDATION } = ValidationTypes;
const {
  IS_STRING,
  IS_INT,
  IS_NUMBER,
  IS_BOOLEAN,
  IS_DATE,
  IS_DATE_STRING,
  IS_ISO8601,
  IS_RFC_3339,
  IS_EMAIL,
  IS_URL,
  IS_UUID,
  IS_ENUM,
  IS_IN,
  EQUALS,
  IS_NOT_IN,
  NOT_EQUALS,
  IS_NOT_EMPTY,
  MIN,
  MAX,
  MIN_LENGTH,
  MAX_LENGTH,
  IS_LENGTH,
  MATCHES,
  IS_POSITIVE,
  IS_NEGATIVE,
  IS_DIVISIBLE_BY,
  IS_ARRAY,
  ARRAY_MIN_SIZE,
  ARRAY_MAX_SIZE,
  ARRAY_NOT_EMPTY,
  ARRAY_UNIQUE,
  IS_OBJECT,
  IS_NOT_EMPTY_OBJECT,
} = classValidator;

function effectsOf(metadata: ValidationMetadata): Effects {
  const c = metadata.constraints ?? [];
  switch (metadata.type) {
    case CONDITIONAL_VALIDATION:
      return isOptionalMetadata(metadata) ? FIXED.optional : FIXED.conditional;
    case NESTED_VALIDATION:
      return FIXED.nested;
    case WHITELIST:
      return FIXED.ignore;
    case IS_DEFINED:
      return FIXED.defined;
    case CUSTOM_VALIDATION:
      break;
    default:
      return FIXED.residual;
  }
  switch (metadata.name) {
    case IS_STRING:
      return FIXED.string;
    case IS_INT:
      return FIXED.integer;
    case IS_NUMBER:
      return (c[0] as { maxDecimalPlaces?: number } | undefined)?.maxDecimalPlaces === undefined
        ? FIXED.number
        : { effects: FIXED.number.effects, residual: true };
    case IS_BOOLEAN:
      return FIXED.boolean;
    case IS_DATE:
      return FIXED.date;
    case IS_DATE_STRING:
    case IS_ISO8601:
    case IS_RFC_3339:
      return FIXED.dateTime;
    case IS_EMAIL:
      return FIXED.email;
    case IS_URL:
      return FIXED.uri;
    case IS_UUID:
      return c[0] === undefined || c[0] === 'all' ? FIXED.uuid : { effects: FIXED.uuid.effects, residual: true };
    case IS_ENUM: {
      const values = enumValues(c[1]);
      return values ? { effects: [{ kind: 'enum', values }], residual: false } : { effects: [], residual: true };
    }
    case IS_IN: {
      const values = enumValues(c[0]);
      return values && values.length > 0 ? { effects: [{ kind: 'enum', values }], residual: false } : { effects: [], residual: true };
    }
    case EQUALS: {
      const values = enumValues([c[0]]);
      return values ? { effects: [{ kind: 'enum', values }], residual: false } : { effects: [], residual: true };
    }
    case IS_NOT_IN: {
      const values = enumValues(c[0]);
      return values ? { effects: [kw('not', { enum: values })], residual: false } : { effects: [], residual: true };
    }
    case NOT_EQUALS: {
      const values = enumValues([c[0]]);
      return values ? { effects: [kw('not', { const: values[0] })], residual: false } : { effects: [], residual: true };
    }
    case IS_NOT_EMPTY:
      return FIXED.notEmpty;
    case MIN:
      return { effects: [kw('minimum', c[0])], residual: false };
    case MAX:
      return { effects: [kw('maximum', c[0])], residual: false };
    case MIN_LENGTH:
      return { effects: [{ kind: 'type', type: 'string' }, kw('minLength', c[0])], residual: false };
    case MAX_LENGTH:
      return { effects: [{ kind: 'type', type: 'string' }, kw('maxLength', c[0])], residual: false };
    case IS_LENGTH: {
      const effects: Effect[] = [{ kind: 'type', type: 'string' }, kw('minLength', c[0])];
      if (typeof c[1] === 'number') effects.push(kw('maxLength', c[1]));
      return { effects, residual: false };
    }
    case MATCHES: {
      const pattern = patternOf(c[0], c[1]);
      return pattern !== undefined
        ? { effects: [{ kind: 'type', type: 'string' }, kw('pattern', pattern)], residual: false }
        : { effects: [], residual: true };
    }
    case IS_POSITIVE:
      return { effects: [kw('exclusiveMinimum', 0)], residual: false };
    case IS_NEGATIVE:
      return { effects: [kw('exclusiveMaximum', 0)], residual: false };
    case IS_DIVISIBLE_BY:
      return { effects: [kw('multipleOf', c[0])], residual: false };
    case IS_ARRAY:
      return FIXED.array;
    case ARRAY_MIN_SIZE:
      return { effects: [{ kind: 'type', type: 'array' }, kw('minItems', c[0])], residual: false };
    case ARRAY_MAX_SIZE:
      return { effects: [{ kind: 'type', type: 'array' }, kw('maxItems', c[0])], residual: false };
    case ARRAY_NOT_EMPTY:
      return { effects: [{ kind: 'type', type: 'array' }, kw('minItems', 1)], residual: false };
    case ARRAY_UNIQUE:
      return typeof c[0] === 'function'
        ? { effects: [{ kind: 'type', type: 'array' }], residual: true }
        : { effects: [{ kind: 'type', type: 'array' }, kw('uniqueItems', true)], residual: false };
    case IS_OBJECT:
      return FIXED.record;
    case IS_NOT_EMPTY_OBJECT:
      return { effects: [{ kind: 'type', type: 'record' }, kw('minProperties', 1)], residual: false };
    default:
      return FIXED.residual;
  }
}

/** Maps one class-validator decorator to its meaning for the field model. */
export function mapValidator(metadata: ValidationMetadata, owner: Function): MappedValidator {
  const { effects, residual } = effectsOf(metadata);
  return { metadata, effects, residual, each: metadata.each === true, message: classValidatorMessage(metadata, owner) };
}

/** A readable name for a validator in warnings (`@Validate(IsPrime)`, `@ValidateIf`). */
export function validatorLabel(metadata: ValidationMetadata): string {
  if (metadata.type === CONDITIONAL_VALIDATION) return isOptionalMetadata(metadata) ? '@IsOptional' : '@ValidateIf';
  const name = metadata.name || metadata.constraintCls?.name || metadata.type;
  return `@${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}
