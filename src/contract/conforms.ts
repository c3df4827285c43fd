/**
 * Checks a declared literal (a field's `default` or `example`) against the field's own type and
 * constraints at derivation, so a default the runtime would reject is a declaration error instead
 * of a silently required field or a call that can never succeed.
 */
import { fullFormats } from 'ajv-formats/dist/formats';
import type { TypeNode } from './field-model';

type FormatCheck = RegExp | ((value: string) => boolean) | { validate: RegExp | ((value: string) => boolean) };

/**
 * The `date-time` format as toolwright reads it everywhere (validation, literals, output): RFC 3339
 * text, as ajv-formats checks it, that JavaScript can also hold. A leap second (…T23:59:60Z) or an
 * hour-only offset (+01) passes ajv-formats and is an Invalid Date to `new Date`.
 */
export function isDateTime(text: string): boolean {
  return (fullFormats['date-time'] as { validate: (text: string) => boolean }).validate(text) && !Number.isNaN(Date.parse(text));
}

/** Whether text holds a JSON Schema format as the invoker's validator reads it (ajv-formats' full set, date-time as JavaScript can hold it). */
export function formatHolds(format: string, value: string): boolean {
  if (format === 'date-time') return isDateTime(value);
  const check = (fullFormats as Record<string, FormatCheck | undefined>)[format];
  if (!check) return true;
  const validate = typeof check === 'object' && !(check instanceof RegExp) ? check.validate : check;
  return validate instanceof RegExp ? validate.test(value) : validate(value);
}

function kindHolds(node: TypeNode, value: unknown): boolean {
  switch (node.kind) {
    case 'string':
      return typeof value === 'string' && (node.format === undefined || formatHolds(node.format, value));
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'date':
      return value instanceof Date ? !Number.isNaN(value.getTime()) : typeof value === 'string' && formatHolds('date-time', value);
    case 'array':
      return Array.isArray(value) && value.every((item) => mismatchOf(node.items!, item) === undefined);
    case 'record':
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'union':
      return node.members!.some((member) => mismatchOf(member, value) === undefined);
    case 'enum':
      return true;
  }
}

/** Returns the message of the first rule `value` breaks, or undefined when it conforms. */
export function mismatchOf(node: TypeNode, value: unknown, property = 'value'): string | undefined {
  return mismatchDetail(node, value, property)?.message;
}

/** The first rule a value breaks: its message, and its keyword and parameters as a FieldError carries them. */
export interface MismatchDetail {
  readonly message: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
}

export function mismatchDetail(node: TypeNode, value: unknown, property = 'value'): MismatchDetail | undefined {
  if (!kindHolds(node, value)) return { message: node.typeMessage(property, value), keyword: 'type', params: {} };
  if (node.enum && !node.enum.some((allowed) => Object.is(allowed, value))) {
    return { message: (node.enumMessage ?? node.typeMessage)(property, value), keyword: 'enum', params: { allowed: node.enum } };
  }
  for (const constraint of node.constraints) {
    if (!constraintHolds(constraint.keyword, constraint.value, value)) {
      return {
        message: constraint.message(property, value),
        keyword: constraint.keyword,
        params: constraintParams(constraint.keyword, constraint.value),
      };
    }
  }
  return undefined;
}

function constraintParams(keyword: string, value: unknown): Readonly<Record<string, unknown>> {
  switch (keyword) {
    case 'format':
      return { format: value };
    case 'pattern':
      return { pattern: value };
    case 'not':
    case 'uniqueItems':
      return {};
    default:
      return { limit: value };
  }
}

function constraintHolds(keyword: string, limit: unknown, value: unknown): boolean {
  const n = limit as number;
  switch (keyword) {
    case 'minimum':
      return typeof value !== 'number' || value >= n;
    case 'maximum':
      return typeof value !== 'number' || value <= n;
    case 'exclusiveMinimum':
      return typeof value !== 'number' || value > n;
    case 'exclusiveMaximum':
      return typeof value !== 'number' || value < n;
    case 'multipleOf':
      return typeof value !== 'number' || Number.isInteger(value / n);
    case 'minLength':
      return typeof value !== 'string' || [...value].length >= n;
    case 'maxLength':
      return typeof value !== 'string' || [...value].length <= n;
    case 'pattern':
      return typeof value !== 'string' || new RegExp(limit as string, 'u').test(value);
    case 'format':
      return typeof value !== 'string' || formatHolds(limit as string, value);
    case 'minItems':
      return !Array.isArray(value) || value.length >= n;
    case 'maxItems':
      return !Array.isArray(value) || value.length <= n;
    case 'uniqueItems':
      return !Array.isArray(value) || new Set(value.map((item) => JSON.stringify(item))).size === value.length;
    case 'minProperties':
      return typeof value !== 'object' || value === null || Object.keys(value).length >= n;
    case 'not': {
      const rule = limit as { enum?: unknown[]; const?: unknown };
      if (rule.enum) return !rule.enum.some((v) => Object.is(v, value));
      return !Object.is(rule.const, value);
    }
    default:
      return true;
  }
}
