/**
 * Reads class-validator's metadata: which constraints a class declares on its own properties, and
 * what each means for the field model. Constraints with a JSON Schema form become schema keywords
 * (with class-validator's own messages); the rest stay for runtime validation.
 */
import { getFromContainer, getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { MessageFn } from './field-model';
import type { FieldFormat } from './types';

export type { ValidationMetadata };

interface StorageInternals {
  validationMetadatas?: unknown;
  getTargetValidationMetadatas(target: Function, schema: string, always: boolean, strictGroups: boolean): ValidationMetadata[];
}

/** The validation metadata a class declares itself (not inherited), in registration order. */
export function ownValidationMetadatas(target: Function): ValidationMetadata[] {
  const storage = getMetadataStorage() as unknown as StorageInternals;
  // class-validator keeps metadata in a Map keyed by class; reading it directly is O(1) per class,
  // where getTargetValidationMetadatas walks every class ever decorated. Fall back if that changes.
  if (storage.validationMetadatas instanceof Map) {
    const own = (storage.validationMetadatas.get(target) as ValidationMetadata[] | undefined) ?? [];
    return own.filter((metadata) => metadata.target === target);
  }
  return storage.getTargetValidationMetadatas(target, '', true, false).filter((metadata) => metadata.target === target);
}

function constraintToString(constraint: unknown): string {
  if (Array.isArray(constraint)) return constraint.join(', ');
  if (typeof constraint === 'symbol') return constraint.description ?? '';
  return `${constraint}`;
}

/** class-validator's message for a constraint, with its special tokens replaced. */
export function classValidatorMessage(metadata: ValidationMetadata, owner: Function): MessageFn {
  return (property, value) => {
    const args = { value, constraints: metadata.constraints, targetName: owner.name, object: {}, property };
    let template: unknown = metadata.message;
    if (typeof template === 'function') template = (template as (a: typeof args) => string)(args);
    if (typeof template !== 'string' || template === '') {
      const constraint = metadata.constraintCls ? (getFromContainer(metadata.constraintCls) as { defaultMessage?: (a: typeof args) => string }) : undefined;
      template = constraint?.defaultMessage?.(args) || `$property failed the ${metadata.name ?? metadata.type} check`;
    }
    let text = template as string;
    (metadata.constraints ?? []).forEach((constraint: unknown, index: number) => {
      text = text.replace(new RegExp(`\\$constraint${index + 1}`, 'g'), constraintToString(constraint));
    });
    if (value !== undefined && value !== null && ['string', 'boolean', 'number'].includes(typeof value)) {
      text = text.replace(/\$value/g, String(value));
    }
    return text.replace(/\$property/g, property).replace(/\$target/g, owner.name);
  };
}

/** What one class-validator decorator means for the field model. */
export type Effect =
  | { readonly kind: 'type'; readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'array' | 'record'; readonly format?: FieldFormat }
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
  const source = pattern instanceof RegExp ? (pattern.flags.replace(/[gu]/g, '') ? undefined : pattern.source) : typeof pattern === 'string' ? pattern : undefined;
  if (source === undefined) return undefined;
  try {
    new RegExp(source, 'u');
    return source;
  } catch {
    return undefined;
  }
}

function effectsOf(metadata: ValidationMetadata): { effects: Effect[]; residual: boolean } {
  const c = metadata.constraints ?? [];
  const keyword = (name: string, value: unknown): Effect => ({ kind: 'keyword', keyword: name, value });
  switch (metadata.type) {
    case ValidationTypes.CONDITIONAL_VALIDATION:
      return metadata.name === 'isOptional' ? { effects: [{ kind: 'optional' }], residual: false } : { effects: [{ kind: 'conditional' }], residual: true };
    case ValidationTypes.NESTED_VALIDATION:
      return { effects: [{ kind: 'nested' }], residual: false };
    case ValidationTypes.WHITELIST:
      return { effects: [{ kind: 'ignore' }], residual: false };
    case ValidationTypes.IS_DEFINED:
      return { effects: [{ kind: 'defined' }], residual: false };
    case ValidationTypes.CUSTOM_VALIDATION:
      break;
    default:
      return { effects: [], residual: true };
  }
  switch (metadata.name) {
    case 'isString':
      return { effects: [{ kind: 'type', type: 'string' }], residual: false };
    case 'isInt':
      return { effects: [{ kind: 'type', type: 'integer' }], residual: false };
    case 'isNumber': {
      const options = (c[0] ?? {}) as { maxDecimalPlaces?: number };
      return { effects: [{ kind: 'type', type: 'number' }], residual: options.maxDecimalPlaces !== undefined };
    }
    case 'isBoolean':
      return { effects: [{ kind: 'type', type: 'boolean' }], residual: false };
    case 'isDate':
      return { effects: [{ kind: 'type', type: 'date' }], residual: false };
    case 'isDateString':
    case 'isIso8601':
    case 'isRFC3339':
      return { effects: [{ kind: 'type', type: 'string', format: 'date-time' }], residual: false };
    case 'isEmail':
      return { effects: [{ kind: 'type', type: 'string', format: 'email' }], residual: false };
    case 'isUrl':
      return { effects: [{ kind: 'type', type: 'string', format: 'uri' }], residual: false };
    case 'isUuid':
      return { effects: [{ kind: 'type', type: 'string', format: 'uuid' }], residual: c[0] !== undefined && c[0] !== 'all' };
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
      return values ? { effects: [keyword('not', { enum: values })], residual: false } : { effects: [], residual: true };
    }
    case 'notEquals': {
      const values = enumValues([c[0]]);
      return values ? { effects: [keyword('not', { const: values[0] })], residual: false } : { effects: [], residual: true };
    }
    case 'isNotEmpty':
      return { effects: [{ kind: 'notEmpty' }], residual: false };
    case 'min':
      return { effects: [keyword('minimum', c[0])], residual: false };
    case 'max':
      return { effects: [keyword('maximum', c[0])], residual: false };
    case 'minLength':
      return { effects: [{ kind: 'type', type: 'string' }, keyword('minLength', c[0])], residual: false };
    case 'maxLength':
      return { effects: [{ kind: 'type', type: 'string' }, keyword('maxLength', c[0])], residual: false };
    case 'isLength': {
      const effects: Effect[] = [{ kind: 'type', type: 'string' }, keyword('minLength', c[0])];
      if (typeof c[1] === 'number') effects.push(keyword('maxLength', c[1]));
      return { effects, residual: false };
    }
    case 'matches': {
      const pattern = patternOf(c[0], c[1]);
      return pattern !== undefined ? { effects: [{ kind: 'type', type: 'string' }, keyword('pattern', pattern)], residual: false } : { effects: [], residual: true };
    }
    case 'isPositive':
      return { effects: [keyword('exclusiveMinimum', 0)], residual: false };
    case 'isNegative':
      return { effects: [keyword('exclusiveMaximum', 0)], residual: false };
    case 'isDivisibleBy':
      return { effects: [keyword('multipleOf', c[0])], residual: false };
    case 'isArray':
      return { effects: [{ kind: 'type', type: 'array' }], residual: false };
    case 'arrayMinSize':
      return { effects: [{ kind: 'type', type: 'array' }, keyword('minItems', c[0])], residual: false };
    case 'arrayMaxSize':
      return { effects: [{ kind: 'type', type: 'array' }, keyword('maxItems', c[0])], residual: false };
    case 'arrayNotEmpty':
      return { effects: [{ kind: 'type', type: 'array' }, keyword('minItems', 1)], residual: false };
    case 'arrayUnique':
      return typeof c[0] === 'function'
        ? { effects: [{ kind: 'type', type: 'array' }], residual: true }
        : { effects: [{ kind: 'type', type: 'array' }, keyword('uniqueItems', true)], residual: false };
    case 'isObject':
      return { effects: [{ kind: 'type', type: 'record' }], residual: false };
    case 'isNotEmptyObject':
      return { effects: [{ kind: 'type', type: 'record' }, keyword('minProperties', 1)], residual: false };
    default:
      return { effects: [], residual: true };
  }
}

/** Maps one class-validator decorator to its meaning for the field model. */
export function mapValidator(metadata: ValidationMetadata, owner: Function): MappedValidator {
  const { effects, residual } = effectsOf(metadata);
  return { metadata, effects, residual, each: metadata.each === true, message: classValidatorMessage(metadata, owner) };
}

/** A readable name for a validator in warnings (`@Validate(IsPrime)`, `@ValidateIf`). */
export function validatorLabel(metadata: ValidationMetadata): string {
  if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) return '@ValidateIf';
  const name = metadata.name || metadata.constraintCls?.name || metadata.type;
  return `@${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}
