/**
 * The rules a field's declarations are held to: which keywords fit which kinds, which design
 * types agree with which kinds, what has no JSON form, and the order keywords are written in.
 */
import { CONSTRAINT_OPTION_KEYS } from '../extensions/extensions';
import { declaresOwnType, typeMetadataOf } from '../interop/class-transformer';
import { lineage } from '../metadata/lineage';
import { isPlainObject } from '../util/describe-value';
import { insertionSort } from '../util/insertion-sort';
import { Constraint, copyNode, NodeKind, TypeNode } from './field-model';
import type { FieldOptions } from '../metadata/vocabulary';

/** Built-in types with no JSON form, as a message names them. */
export const UNSUPPORTED = new Map<unknown, string>([
  [Map, 'a Map'],
  [Set, 'a Set'],
  [Promise, 'a Promise'],
  [Function, 'a function'],
  [Symbol, 'a symbol'],
  [BigInt, 'a BigInt'],
  [RegExp, 'a RegExp'],
]);

/** The kinds of value each keyword applies to. */
export const KEYWORD_KINDS: Record<string, readonly NodeKind[]> = {
  minimum: ['number', 'integer'],
  maximum: ['number', 'integer'],
  exclusiveMinimum: ['number', 'integer'],
  exclusiveMaximum: ['number', 'integer'],
  multipleOf: ['number', 'integer'],
  minLength: ['string'],
  maxLength: ['string'],
  pattern: ['string'],
  minItems: ['array'],
  maxItems: ['array'],
  uniqueItems: ['array'],
  minProperties: ['record', 'object'],
};

/** The design:type each kind of node may have. */
export const DESIGN_TYPES: Partial<Record<NodeKind, unknown>> = {
  string: String,
  number: Number,
  integer: Number,
  boolean: Boolean,
  date: Date,
  array: Array,
  record: Object,
};

/**
 * class-transformer's @Type for a property (declared on the class or an ancestor).
 */
export function findTypeMetadata(target: Function, property: string): { typeFunction?: () => unknown } | undefined {
  // Asking each class of the lineage answers the common case (no @Type on this property) without
  // class-transformer building and caching an ancestors list per class.
  const classes = lineage(target);
  let declared = false;
  for (let index = 0; index < classes.length && !declared; index++) {
    const own = declaresOwnType(classes[index], property);
    if (own === undefined) return typeMetadataOf(target, property);
    declared = own;
  }
  return declared ? typeMetadataOf(target, property) : undefined;
}

export const CONSTRAINT_OPTIONS = [...CONSTRAINT_OPTION_KEYS, 'enum'] as const;

/** Keyword order in schemas, whatever order the decorators ran in (they run bottom-up). */
export const KEYWORD_ORDER = [
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'not',
];

function keywordRank(keyword: string): number {
  const index = KEYWORD_ORDER.indexOf(keyword);
  return index < 0 ? KEYWORD_ORDER.length : index;
}

function inKeywordOrder(constraints: readonly Constraint[]): boolean {
  for (let i = 1; i < constraints.length; i++) {
    if (keywordRank(constraints[i - 1].keyword) > keywordRank(constraints[i].keyword)) return false;
  }
  return true;
}

export function withSortedConstraints(node: TypeNode): TypeNode {
  const items = node.items ? withSortedConstraints(node.items) : undefined;
  const sorted = inKeywordOrder(node.constraints);
  if (sorted && items === node.items) return node;
  const copy = copyNode(node);
  if (!sorted) copy.constraints = insertionSort([...node.constraints], (constraint) => keywordRank(constraint.keyword));
  copy.items = items;
  return copy;
}

/** Built-in constructors a property's type can be that are never an object contract (a field of class type). */
export const NOT_CONTRACT_CLASSES = new Set<unknown>([
  String,
  Number,
  Boolean,
  Date,
  Array,
  Object,
  Map,
  Set,
  Promise,
  Function,
  Symbol,
  BigInt,
  RegExp,
]);

export function typeLabel(node: TypeNode): string {
  switch (node.kind) {
    case 'object':
      return node.target?.name ?? 'an object';
    case 'record':
      return 'an object';
    case 'array':
      return node.items ? `[${typeLabel(node.items)}]` : 'an array';
    case 'date':
      return 'Date';
    case 'integer':
      return 'Integer';
    default:
      return node.kind.charAt(0).toUpperCase() + node.kind.slice(1);
  }
}

/** A TypeScript enum object's values (numeric enums' reverse mappings dropped), or a list as is. */
export function normalizeEnum(spec: FieldOptions['enum']): readonly (string | number | boolean)[] | undefined {
  if (spec === undefined) return undefined;
  if (Array.isArray(spec)) return spec;
  return Object.entries(spec as Record<string, string | number>)
    .filter(([key]) => Number.isNaN(Number(key)))
    .map(([, value]) => value);
}

export function isJsonLiteral(value: unknown, seen = new Set<unknown>()): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (value instanceof Date) return !Number.isNaN(value.getTime());
  if (typeof value !== 'object' || seen.has(value)) return false;
  seen.add(value);
  if (Array.isArray(value)) return value.every((item) => isJsonLiteral(item, seen));
  return isPlainObject(value) && Object.values(value).every((item) => isJsonLiteral(item, seen));
}
