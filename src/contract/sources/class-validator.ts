/**
 * Reads class-validator's metadata: which constraints a class declares on its own properties, and
 * what each means for the field model. Constraints with a JSON Schema form become schema keywords
 * (with class-validator's own messages); the rest stay for runtime validation.
 */
import { getFromContainer, getMetadataStorage, IsOptional, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { MessageFn } from '../field-model';
import type { FieldFormat } from '../types';
import { shorten } from '../../util/limits';

export type { ValidationMetadata };

interface StorageInternals {
  validationMetadatas?: unknown;
  getTargetValidationMetadatas(target: Function, schema: string, always: boolean, strictGroups: boolean): ValidationMetadata[];
}

const NONE: readonly ValidationMetadata[] = Object.freeze([]);

/** The validation metadata a class declares itself (not inherited), in registration order. Read only. */
export function ownValidationMetadatas(target: Function): readonly ValidationMetadata[] {
  const storage = getMetadataStorage() as unknown as StorageInternals;
  // class-validator keeps metadata in a Map keyed by class; reading it directly is O(1) per class,
  // where getTargetValidationMetadatas walks every class ever decorated. Fall back if that changes.
  if (storage.validationMetadatas instanceof Map) {
    const own = (storage.validationMetadatas.get(target) as ValidationMetadata[] | undefined) ?? NONE;
    for (let i = 0; i < own.length; i++) {
      if (own[i].target !== target) return own.filter((metadata) => metadata.target === target);
    }
    return own;
  }
  return storage.getTargetValidationMetadatas(target, '', true, false).filter((metadata) => metadata.target === target);
}

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

// Read once: the package's CommonJS index re-exports through getters, one call per read.
const { CONDITIONAL_VALIDATION, NESTED_VALIDATION, WHITELIST, IS_DEFINED, CUSTOM_VALIDATION } = ValidationTypes;

let isOptionalSource: string | null | undefined;

/**
 * The source text of the condition class-validator's own `@IsOptional()` registers, read once from
 * the loaded copy by applying the decorator with the storage's `addValidationMetadata` briefly
 * shadowed (nothing is stored). null when it cannot be read.
 */
function referenceIsOptionalSource(): string | null {
  const storage = getMetadataStorage() as unknown as { addValidationMetadata(metadata: ValidationMetadata): void };
  let captured: ValidationMetadata | undefined;
  const shadowed = Object.prototype.hasOwnProperty.call(storage, 'addValidationMetadata');
  const own = storage.addValidationMetadata;
  storage.addValidationMetadata = (metadata) => {
    captured = metadata;
  };
  try {
    IsOptional()(class IsOptionalProbe {}.prototype, 'probe');
  } catch {
    return null;
  } finally {
    if (shadowed) storage.addValidationMetadata = own;
    else delete (storage as Partial<typeof storage>).addValidationMetadata;
  }
  const condition = captured?.constraints?.[0];
  return typeof condition === 'function' ? Function.prototype.toString.call(condition) : null;
}

/**
 * Whether a conditional validation is `@IsOptional()`. class-validator 0.14.2 and later name it
 * 'isOptional'; 0.14.0 and 0.14.1 register it exactly like `@ValidateIf` (same type, no name), told
 * apart only by its condition: class-validator's own, compared by source with the loaded copy's.
 */
function isOptionalMetadata(metadata: ValidationMetadata): boolean {
  if (metadata.name) return metadata.name === 'isOptional';
  const condition: unknown = metadata.constraints?.[0];
  if (typeof condition !== 'function' || metadata.constraints.length !== 1) return false;
  if (isOptionalSource === undefined) isOptionalSource = referenceIsOptionalSource();
  return isOptionalSource !== null && Function.prototype.toString.call(condition) === isOptionalSource;
}

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
    case 'isString':
      return FIXED.string;
    case 'isInt':
      return FIXED.integer;
    case 'isNumber':
      return (c[0] as { maxDecimalPlaces?: number } | undefined)?.maxDecimalPlaces === undefined
        ? FIXED.number
        : { effects: FIXED.number.effects, residual: true };
    case 'isBoolean':
      return FIXED.boolean;
    case 'isDate':
      return FIXED.date;
    case 'isDateString':
    case 'isIso8601':
    case 'isRFC3339':
      return FIXED.dateTime;
    case 'isEmail':
      return FIXED.email;
    case 'isUrl':
      return FIXED.uri;
    case 'isUuid':
      return c[0] === undefined || c[0] === 'all' ? FIXED.uuid : { effects: FIXED.uuid.effects, residual: true };
    case 'isEnum': {
      const values = enumValues(c[1]);
      return values ? { effects: [{ kind: 'enum', values }], residual: false } : { effects: [], residual: true };
    }
    case 'isIn': {
      const values = enumValues(c[0]);
      return values && values.length > 0 ? { effects: [{ kind: 'enum', values }], residual: false } : { effects: [], residual: true };
    }
    case 'equals': {
      const values = enumValues([c[0]]);
      return values ? { effects: [{ kind: 'enum', values }], residual: false } : { effects: [], residual: true };
    }
    case 'isNotIn': {
      const values = enumValues(c[0]);
      return values ? { effects: [kw('not', { enum: values })], residual: false } : { effects: [], residual: true };
    }
    case 'notEquals': {
      const values = enumValues([c[0]]);
      return values ? { effects: [kw('not', { const: values[0] })], residual: false } : { effects: [], residual: true };
    }
    case 'isNotEmpty':
      return FIXED.notEmpty;
    case 'min':
      return { effects: [kw('minimum', c[0])], residual: false };
    case 'max':
      return { effects: [kw('maximum', c[0])], residual: false };
    case 'minLength':
      return { effects: [{ kind: 'type', type: 'string' }, kw('minLength', c[0])], residual: false };
    case 'maxLength':
      return { effects: [{ kind: 'type', type: 'string' }, kw('maxLength', c[0])], residual: false };
    case 'isLength': {
      const effects: Effect[] = [{ kind: 'type', type: 'string' }, kw('minLength', c[0])];
      if (typeof c[1] === 'number') effects.push(kw('maxLength', c[1]));
      return { effects, residual: false };
    }
    case 'matches': {
      const pattern = patternOf(c[0], c[1]);
      return pattern !== undefined
        ? { effects: [{ kind: 'type', type: 'string' }, kw('pattern', pattern)], residual: false }
        : { effects: [], residual: true };
    }
    case 'isPositive':
      return { effects: [kw('exclusiveMinimum', 0)], residual: false };
    case 'isNegative':
      return { effects: [kw('exclusiveMaximum', 0)], residual: false };
    case 'isDivisibleBy':
      return { effects: [kw('multipleOf', c[0])], residual: false };
    case 'isArray':
      return FIXED.array;
    case 'arrayMinSize':
      return { effects: [{ kind: 'type', type: 'array' }, kw('minItems', c[0])], residual: false };
    case 'arrayMaxSize':
      return { effects: [{ kind: 'type', type: 'array' }, kw('maxItems', c[0])], residual: false };
    case 'arrayNotEmpty':
      return { effects: [{ kind: 'type', type: 'array' }, kw('minItems', 1)], residual: false };
    case 'arrayUnique':
      return typeof c[0] === 'function'
        ? { effects: [{ kind: 'type', type: 'array' }], residual: true }
        : { effects: [{ kind: 'type', type: 'array' }, kw('uniqueItems', true)], residual: false };
    case 'isObject':
      return FIXED.record;
    case 'isNotEmptyObject':
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
