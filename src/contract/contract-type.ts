/**
 * The TypeScript types contracts describe, for inference: `defineTool`'s `input` from an inline
 * shape, a tool's output from its entry method. Types only; nothing here exists at run time.
 */
import type { AnyClass, EnumSpec, Integer } from '../metadata/vocabulary';

/** The value type of one type token: `String` → string, `Integer` → number, `[Tag]` → Tag[], a class → its instances. */
export type TypeOfSpec<T> = T extends readonly [infer E]
  ? TypeOfSpec<E>[]
  : T extends readonly (infer E)[]
    ? TypeOfSpec<E>[]
    : T extends StringConstructor
      ? string
      : T extends NumberConstructor
        ? number
        : T extends BooleanConstructor
          ? boolean
          : T extends DateConstructor
            ? Date
            : T extends typeof Integer
              ? number
              : T extends ObjectConstructor
                ? Record<string, unknown>
                : T extends abstract new (...args: never[]) => infer I
                  ? I
                  : unknown;

/** `type: String`, or a thunk `type: () => Tag`. */
type TypeOption<T> = T extends AnyClass | readonly unknown[] ? TypeOfSpec<T> : T extends () => infer R ? TypeOfSpec<R> : unknown;

type EnumValues<E> = E extends readonly (infer V)[] ? V : E extends Readonly<Record<string, infer V>> ? V : never;

/** The value type of field options: `type`, `anyOf` or `enum`, made nullable by `nullable: true`. */
type TypeOfOptions<F> = (
  F extends { type: infer T }
    ? TypeOption<T>
    : F extends { anyOf: () => readonly (infer M)[] }
      ? TypeOfSpec<M>
      : F extends { enum: infer E extends EnumSpec }
        ? EnumValues<E>
        : unknown
) extends infer V
  ? F extends { nullable: true }
    ? V | null
    : V
  : never;

/** A field the tool may receive without a value: optional or nullable, and no default (a default is applied before the call). */
type Absent<F> = F extends { default: unknown } ? false : F extends { optional: true } | { nullable: true } ? true : false;

type FieldType<F> = F extends AnyClass | readonly unknown[] ? TypeOfSpec<F> : TypeOfOptions<F>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The input an inline shape describes, as the tool receives it: `{ q: String, n: { type: Integer,
 * optional: true } }` → `{ q: string; n?: number }`. A defaulted field is present (the default is
 * applied before the call); an ambient field is present (the server supplies it).
 */
export type ShapeType<S> = Simplify<
  { -readonly [K in keyof S as Absent<S[K]> extends true ? never : K]: FieldType<S[K]> } & {
    -readonly [K in keyof S as Absent<S[K]> extends true ? K : never]?: FieldType<S[K]>;
  }
>;

/**
 * The TypeScript type of what a contract spec describes: a DTO class → its instances; a thunk →
 * the class it returns; an inline shape → `ShapeType`; nothing → an empty object.
 */
export type ContractType<Spec> = [Spec] extends [undefined]
  ? Record<string, never>
  : Spec extends abstract new (...args: never[]) => infer I
    ? I
    : Spec extends () => infer C
      ? ContractType<C>
      : Spec extends Readonly<Record<string, unknown>>
        ? ShapeType<Spec>
        : unknown;
