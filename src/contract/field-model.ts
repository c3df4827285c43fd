/**
 * The normalized field model: one per contract class, built once, from which every schema,
 * validator, coercion and rendering is derived.
 */
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { FieldFormat } from '../metadata/vocabulary';

/** Builds a user-facing message for a field path and the offending value. */
export type MessageFn = (property: string, value: unknown) => string;

/** One JSON Schema keyword a declaration contributed, with the message it fails with. */
export interface Constraint {
  readonly keyword: string;
  readonly value: unknown;
  readonly message: MessageFn;
}

/** The kinds of value a contract's type node describes. */
export type NodeKind = 'string' | 'number' | 'integer' | 'boolean' | 'date' | 'object' | 'record' | 'array' | 'union' | 'enum';

/** The type of a value: a field's, or an array's items, or a union member's. */
export interface TypeNode {
  readonly kind: NodeKind;
  readonly constraints: readonly Constraint[];
  /** Allowed values (with the base kind, or alone for kind `enum`). */
  readonly enum?: readonly (string | number | boolean)[];
  readonly format?: FieldFormat;
  /**
   * A format the input schema shows as an annotation only (`@IsEmail`: `email`): what the value
   * means, for a model; class-validator checks the value, and no schema validator asserts it.
   */
  readonly formatAnnotation?: FieldFormat;
  /** Arrays: the element type. */
  readonly items?: TypeNode;
  /** Unions: the members. */
  readonly members?: readonly TypeNode[];
  /** Objects: the nested contract class. */
  readonly target?: Function;
  /** A string the type check fails with (`$property must be a string`). */
  readonly typeMessage: MessageFn;
  readonly enumMessage?: MessageFn;
}

export const NO_CONSTRAINTS: readonly Constraint[] = Object.freeze([]);

export type MutableNode = { -readonly [K in keyof TypeNode]: TypeNode[K] };

/** A type node. Every node has every property, so code reading nodes sees one shape. */
export function newNode(kind: NodeKind, typeMessage: MessageFn): MutableNode {
  return {
    kind,
    constraints: NO_CONSTRAINTS,
    enum: undefined,
    format: undefined,
    formatAnnotation: undefined,
    items: undefined,
    members: undefined,
    target: undefined,
    typeMessage,
    enumMessage: undefined,
  };
}

/** A copy of a node to change (nodes are shared once built). */
export function copyNode(from: TypeNode): MutableNode {
  return {
    kind: from.kind,
    constraints: from.constraints,
    enum: from.enum,
    format: from.format,
    formatAnnotation: from.formatAnnotation,
    items: from.items,
    members: from.members,
    target: from.target,
    typeMessage: from.typeMessage,
    enumMessage: from.enumMessage,
  };
}

/** The node's constraint with a keyword, if it has one. */
export function constraintOf(node: TypeNode, keyword: string): Constraint | undefined {
  for (let i = 0; i < node.constraints.length; i++) if (node.constraints[i].keyword === keyword) return node.constraints[i];
  return undefined;
}

/** A copy of a node with some properties changed. */
export function changed(from: TypeNode, changes: Partial<TypeNode>): TypeNode {
  return Object.assign(copyNode(from), changes);
}

/** A field's default: a literal (emitted in the schema, copied per call) or a factory (called per call, never emitted). */
export type DefaultValue =
  { readonly kind: 'literal'; readonly value: unknown } | { readonly kind: 'factory'; readonly factory: () => unknown };

/**
 * One field of a contract, normalized from `@Field`, `design:type`, class-validator and
 * class-transformer: the schema, validation, coercion and rendering are all derived from it.
 */
export interface FieldModel {
  readonly name: string;
  /** The class that declares the field (a parent's, when inherited). */
  readonly owner: Function;
  readonly type: TypeNode;
  readonly optional: boolean;
  readonly nullable: boolean;
  readonly default?: DefaultValue;
  readonly description?: string;
  readonly example?: { readonly value: unknown };
  /** Wire coercion of strings to the field's type. */
  readonly coerce: boolean;
  readonly allowEmpty: boolean;
  /** `@Field({ sensitive: true })`: redacted from audit records, exception reports and spans. */
  readonly sensitive: boolean;
  readonly ambient?: { readonly key: string };
  /** Values of keys registered with `Extensions.registerFieldMetadataKey`. */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** class-validator constraints JSON Schema cannot say; run after schema validation. */
  readonly residual: readonly ValidationMetadata[];
  /** Guarded by `@ValidateIf`: all its constraints run at runtime only, and the schema shows it optional. */
  readonly conditional: boolean;
}

/** A contract class's field model: its fields (built once per class, and cached). */
export interface Contract {
  readonly target: Function;
  readonly name: string;
  /** Every field, ambient ones included, in declaration order (parents' first). */
  readonly fields: readonly FieldModel[];
  /** Fields a caller supplies. */
  readonly inputFields: readonly FieldModel[];
  /** Fields filled from trusted ambient context. */
  readonly ambientFields: readonly FieldModel[];
  readonly byName: ReadonlyMap<string, FieldModel>;
  /** The `$defs` name `@SchemaName` gave this class (not inherited), or undefined. */
  readonly definitionName: string | undefined;
  /** The raw JSON Schema keywords `@JsonSchemaKeywords` added to this class's input schema (not inherited), or undefined. */
  readonly rawKeywords: Readonly<Record<string, unknown>> | undefined;
}

/** Required in the input direction: no optional flag, not nullable, no default, not conditional. */
export function isRequiredInput(field: FieldModel): boolean {
  return !field.optional && !field.nullable && field.default === undefined && !field.conditional;
}

/** Required in the output direction: every field unless declared optional. */
export function isRequiredOutput(field: FieldModel): boolean {
  return !field.optional;
}
