/**
 * The declaration vocabulary of contracts: what `@Field`, inline shapes and `@Expects`/`@Exposes`
 * accept. What the decorators record from it is in `definitions.ts`; the normalized field model
 * built from that lives in `contract/field-model.ts`.
 */

/** Type token for integers: `@Field({ type: () => Integer })`, or `{ limit: Integer }` inline. */
export abstract class Integer {
  declare private readonly integerBrand: never;
}

/** Any class, including the built-in String, Number, Boolean, Date, Object and Array. */
export type AnyClass = abstract new (...args: never[]) => unknown;

/** One type: a class (`String`, `Date`, `Integer`, a DTO) or an array of one (`[Tag]`). */
export type TypeSpec = AnyClass | readonly [TypeSpec];

/** The string formats `@Field({ format })` accepts, emitted as the schema's `format`. */
export type FieldFormat = 'email' | 'uri' | 'uuid' | 'date-time' | 'date';

/** `@Field({ enum })`'s allowed values: a list, or a TypeScript enum object (string or numeric). */
export type EnumSpec = readonly (string | number | boolean)[] | Readonly<Record<string, string | number>>;

/** The options of `@Field({ ... })`, and of a field of an inline shape: the type where reflection cannot see it, optionality, defaults and the schema keywords. */
export interface FieldOptions {
  /** Where reflection cannot see the type: `() => Tag`, `() => [Tag]`, `() => Integer`. */
  type?: (() => TypeSpec) | TypeSpec;
  /** A union: `() => [Card, BankTransfer]`. */
  anyOf?: () => readonly TypeSpec[];
  description?: string;
  optional?: boolean;
  nullable?: boolean;
  /** A literal default (emitted in the schema), or a function called per call (never emitted). */
  default?: unknown;
  /** Allowed values: a list, or a TypeScript enum object. */
  enum?: EnumSpec;
  example?: unknown;
  /** Wire coercion of strings to this field's type (default true). */
  coerce?: boolean;
  /** Lets a required string, array or free-form object be empty. */
  allowEmpty?: boolean;
  /**
   * A secret or personal value (a password, an account number): toolwright never logs it, puts it in
   * a span or hands it to an audit hook; audit records and exception reports show `[redacted]`.
   */
  sensitive?: boolean;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string | RegExp;
  format?: FieldFormat;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  /** Keys registered with `Extensions.registerFieldMetadataKey` arrive on the field's metadata. */
  [metadataKey: string]: unknown;
}

/** An inline field: a bare type, or options with the type given directly. */
export type InlineField = TypeSpec | (FieldOptions & { ambient?: true | { key?: string } });

/** An inline contract: `{ query: String, limit: { type: Integer, optional: true, default: 10 } }`. */
export type InlineShape = Readonly<Record<string, InlineField>>;

/** What `@Expects` / `@Exposes` accept: a DTO class, a thunk to one, or an inline shape. */
export type ContractSpec = AnyClass | (() => AnyClass) | InlineShape;

/** The options of `@AmbientContext({ key })`. */
export interface AmbientOptions {
  /** The key read from the ambient context (default: the property name). */
  key?: string;
}
