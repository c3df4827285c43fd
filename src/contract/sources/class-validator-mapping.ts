/**
 * The table of class-validator's built-in decorators toolwright translates, and what each means for
 * the field model. The rule: the JSON Schema says what it can, as a sound over-approximation (never
 * stricter than class-validator, apart from the differences docs/guide/contracts.md lists), and where it cannot
 * say exactly what class-validator checks, class-validator itself runs for that constraint after
 * schema validation (`runtime: 'recheck'`). A constraint with no JSON Schema form at all runs in
 * class-validator only and is reported (`runtime: 'residual'`).
 *
 * A built-in is recognised by what it does, not by its name: class-validator registers each use of a
 * built-in decorator under a fresh constraint class that wraps a closure, so no identity survives
 * to compare. A constraint registered under a built-in's name (`isUrl`) counts as the built-in only
 * when it answers exactly like class-validator's own function (`isURL`) on a fixed set of probes
 * (./class-validator-identity.ts); any other is a custom constraint: class-validator runs it, and
 * the schema takes nothing from it.
 */
import * as cv from 'class-validator';
import type { FieldFormat } from '../../metadata/vocabulary';
import { unicodePattern } from './pattern-without-u';

/** What one class-validator decorator means for the field model. */
export type Effect =
  | {
      readonly kind: 'type';
      readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'array' | 'record';
      readonly format?: FieldFormat;
      /** A format the input schema shows as an annotation only: class-validator asserts what it means. */
      readonly annotation?: FieldFormat;
    }
  | {
      readonly kind: 'keyword';
      readonly keyword: string;
      readonly value: unknown;
      /** Only where the array's items are strings, numbers or booleans (`@ArrayUnique`: class-validator compares by reference). */
      readonly scalarItemsOnly?: boolean;
    }
  | { readonly kind: 'enum'; readonly values: readonly (string | number | boolean)[] }
  | { readonly kind: 'optional' }
  | { readonly kind: 'defined' }
  | { readonly kind: 'notEmpty' }
  | { readonly kind: 'nested' }
  | { readonly kind: 'conditional' }
  | { readonly kind: 'ignore' };

/**
 * Who checks the constraint at run time besides the schema: nobody (`exact`: the schema says it
 * all), class-validator for what the schema cannot say (`recheck`), class-validator alone, with a
 * warning that the schema shows none of it (`residual`).
 */
export type Runtime = 'exact' | 'recheck' | 'residual';

export interface Effects {
  readonly effects: readonly Effect[];
  readonly runtime: Runtime;
  /** Why the schema cannot show it and what to do, for the warning (`residual` only). */
  readonly note?: string;
}

type Constraints = readonly unknown[];

/** The rule a value broke, as a FieldError names it (`{ keyword: 'format', params: { format: 'email' } }`). */
export interface Problem {
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
}

export interface BuiltInMapping {
  /** class-validator's own check for the decorator, called with the metadata's constraints. */
  readonly reference: (value: unknown, constraints: Constraints) => boolean;
  readonly map: (constraints: Constraints) => Effects;
  /**
   * When class-validator re-checks it: the rule a refused value broke, in JSON Schema's words where
   * there are some (`format`, `minLength`), so a FieldError reads the same whoever found the problem.
   */
  readonly problem?: (constraints: Constraints) => Problem;
  /**
   * What a use means when its closure holds more than its constraints show, given the use's own
   * check; undefined when it holds nothing more. `@ArrayUnique(identifier)` keeps the identifier
   * in its closure: probed with values alone, it can answer as `@ArrayUnique()` does.
   */
  readonly closure?: (check: (value: unknown) => unknown) => Effects | undefined;
}

const format = (name: string) => (): Problem => ({ keyword: 'format', params: { format: name } });
const limit =
  (keyword: string, index: number) =>
  (c: Constraints): Problem => ({ keyword, params: { limit: c[index] } });

function enumValues(value: unknown): (string | number | boolean)[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.every((v) => ['string', 'number', 'boolean'].includes(typeof v)) ? (value as (string | number | boolean)[]) : undefined;
}

/**
 * A `@Matches` pattern's source and flags, when JSON Schema can read it: flags other than `g` and
 * `u` (and `modifiers` on a RegExp) have no JSON Schema form, and a string class-validator cannot
 * compile has none either.
 */
function patternOf(pattern: unknown, modifiers: unknown): { source: string; unicode: boolean } | undefined {
  let source: string;
  let flags: string;
  if (pattern instanceof RegExp) {
    if (modifiers !== undefined) return undefined;
    source = pattern.source;
    flags = pattern.flags;
  } else if (typeof pattern === 'string') {
    source = pattern;
    flags = typeof modifiers === 'string' ? modifiers : modifiers === undefined ? '' : '?';
  } else {
    return undefined;
  }
  if (flags.replace(/[gu]/g, '')) return undefined;
  try {
    new RegExp(source, flags);
  } catch {
    return undefined;
  }
  return { source, unicode: flags.includes('u') };
}

const kw = (keyword: string, value: unknown): Effect => ({ kind: 'keyword', keyword, value });
const type = (t: Extract<Effect, { kind: 'type' }>['type'], format?: FieldFormat): Effect => ({ kind: 'type', type: t, format });
const fixed = (effects: Effect[], runtime: Runtime = 'exact'): Effects => ({ effects, runtime });

const STRING = fixed([type('string')]);
/**
 * A string whose exact rule (URL, e-mail, ISO 8601 date) JSON Schema's formats do not match
 * (`a@bücher.de`, `example.com`, `2024-01-01`): the input schema shows the nearest format as an
 * annotation, and class-validator checks the value.
 */
const recheckedString = (annotation: FieldFormat): Effects => fixed([{ kind: 'type', type: 'string', annotation }], 'recheck');
const NO_SCHEMA = fixed([], 'residual');
const WITHOUT_U: Effects = {
  ...NO_SCHEMA,
  note: 'Its pattern, written without the u flag, means something else to JSON Schema (which reads patterns with it); write it with the u flag to show it.',
};

/** `fn(value, ...constraints)`: how class-validator's exported checks take a decorator's constraints. */
function spread(fn: (value: never, ...rest: never[]) => boolean): BuiltInMapping['reference'] {
  return (value, constraints) => (fn as (value: unknown, ...rest: unknown[]) => boolean)(value, ...constraints);
}

function number(options: unknown): Effects {
  // Non-finite numbers never pass toolwright's number type (JSON has none), allowNaN/allowInfinity or not.
  const places = (options as { maxDecimalPlaces?: number } | undefined)?.maxDecimalPlaces;
  return places === undefined ? fixed([type('number')]) : fixed([type('number')], 'residual');
}

function divisibleBy(divisor: unknown): Effects {
  // class-validator divides by parseInt(divisor): only a non-zero integer divisor means what multipleOf means.
  if (typeof divisor === 'number' && Number.isSafeInteger(divisor) && divisor !== 0) {
    return fixed([kw('multipleOf', Math.abs(divisor))], 'recheck');
  }
  return NO_SCHEMA;
}

/**
 * JSON Schema reads a pattern with the `u` flag (ajv compiles it so); class-validator runs it as
 * written. With the flag the two agree. Without it, the pattern shown is the one of the same
 * meaning with the flag (`^a\u{2}$` is `^au{2}$`: ./pattern-without-u.ts), and class-validator
 * checks it too; where no pattern means the same (`.`, `[^x]`: they read a character outside the
 * Basic Multilingual Plane as two), class-validator alone decides, and the warning says to add the flag.
 */
function matching(pattern: unknown, modifiers: unknown): Effects {
  const found = patternOf(pattern, modifiers);
  if (!found) return NO_SCHEMA;
  if (found.unicode) return fixed([type('string'), kw('pattern', found.source)]);
  const translated = unicodePattern(found.source);
  if (translated === undefined) return WITHOUT_U;
  return fixed([type('string'), kw('pattern', translated)], 'recheck');
}

function inList(values: unknown, nonEmpty: boolean): Effects {
  const list = enumValues(values);
  return list && (!nonEmpty || list.length > 0) ? fixed([{ kind: 'enum', values: list }]) : NO_SCHEMA;
}

/**
 * `@ArrayUnique(identifier)`: the identifier is not among the constraints. class-validator's
 * `arrayUnique` maps the array through it when there is one (and only then), so a probe array that
 * records a call of its own `map` tells; two distinct objects are unique by reference without one.
 * With an identifier, class-validator alone compares (JSON Schema's uniqueItems compares values).
 */
function identifierOf(check: (value: unknown) => unknown): Effects | undefined {
  let mapped = false;
  const probe: object[] = [{}, {}];
  Object.defineProperty(probe, 'map', {
    value(this: object[], ...args: Parameters<object[]['map']>) {
      mapped = true;
      return Array.prototype.map.apply(this, args);
    },
  });
  let answer: unknown;
  try {
    answer = check(probe);
  } catch {
    answer = undefined;
  }
  return mapped || answer !== true ? fixed([type('array')], 'residual') : undefined;
}

/**
 * class-validator's built-in decorators with a JSON Schema form, by registered name. A name not
 * here (`isCreditCard`, a custom constraint) runs in class-validator only.
 */
export const BUILT_IN_MAPPINGS: Readonly<Record<string, BuiltInMapping>> = Object.freeze({
  [cv.IS_STRING]: { reference: spread(cv.isString), map: () => STRING },
  [cv.IS_INT]: { reference: spread(cv.isInt), map: () => fixed([type('integer')]) },
  [cv.IS_NUMBER]: { reference: spread(cv.isNumber), map: (c) => number(c[0]) },
  [cv.IS_BOOLEAN]: { reference: spread(cv.isBoolean), map: () => fixed([type('boolean')]) },
  [cv.IS_DATE]: { reference: spread(cv.isDate), map: () => fixed([type('date')]) },
  [cv.IS_DATE_STRING]: { reference: spread(cv.isDateString), map: () => recheckedString('date-time'), problem: format('iso8601') },
  [cv.IS_ISO8601]: { reference: spread(cv.isISO8601), map: () => recheckedString('date-time'), problem: format('iso8601') },
  [cv.IS_RFC_3339]: { reference: spread(cv.isRFC3339), map: () => recheckedString('date-time'), problem: format('date-time') },
  [cv.IS_EMAIL]: { reference: spread(cv.isEmail), map: () => recheckedString('email'), problem: format('email') },
  [cv.IS_URL]: { reference: spread(cv.isURL), map: () => recheckedString('uri'), problem: format('url') },
  // Every UUID version class-validator knows is of format uuid's shape, which also admits `urn:uuid:`.
  [cv.IS_UUID]: { reference: spread(cv.isUUID), map: () => fixed([type('string', 'uuid')], 'recheck'), problem: format('uuid') },
  [cv.IS_ENUM]: { reference: spread(cv.isEnum), map: (c) => inList(c[1], false) },
  [cv.IS_IN]: { reference: spread(cv.isIn), map: (c) => inList(c[0], true) },
  [cv.EQUALS]: { reference: spread(cv.equals), map: (c) => inList([c[0]], false) },
  [cv.IS_NOT_IN]: {
    reference: spread(cv.isNotIn),
    map: (c) => {
      const values = enumValues(c[0]);
      return values ? fixed([kw('not', { enum: values })]) : NO_SCHEMA;
    },
  },
  [cv.NOT_EQUALS]: {
    reference: spread(cv.notEquals),
    map: (c) => {
      const values = enumValues([c[0]]);
      return values ? fixed([kw('not', { const: values[0] })]) : NO_SCHEMA;
    },
  },
  [cv.IS_NOT_EMPTY]: { reference: spread(cv.isNotEmpty), map: () => fixed([{ kind: 'notEmpty' }]) },
  [cv.MIN]: { reference: spread(cv.min), map: (c) => fixed([kw('minimum', c[0])]) },
  [cv.MAX]: { reference: spread(cv.max), map: (c) => fixed([kw('maximum', c[0])]) },
  // class-validator does not count U+FE0E/U+FE0F; JSON Schema counts every code point. A minimum is
  // re-checked; a maximum stays the schema's (stricter by those selectors: docs/guide/contracts.md says why).
  [cv.MIN_LENGTH]: {
    reference: spread(cv.minLength),
    map: (c) => fixed([type('string'), kw('minLength', c[0])], 'recheck'),
    problem: limit('minLength', 0),
  },
  [cv.MAX_LENGTH]: { reference: spread(cv.maxLength), map: (c) => fixed([type('string'), kw('maxLength', c[0])]) },
  [cv.IS_LENGTH]: {
    reference: spread(cv.length),
    map: (c) => fixed([type('string'), kw('minLength', c[0]), ...(typeof c[1] === 'number' ? [kw('maxLength', c[1])] : [])], 'recheck'),
    problem: limit('minLength', 0),
  },
  [cv.MATCHES]: {
    reference: spread(cv.matches),
    map: (c) => matching(c[0], c[1]),
    problem: (c) => ({ keyword: 'pattern', params: { pattern: c[0] instanceof RegExp ? c[0].source : c[0] } }),
  },
  [cv.IS_POSITIVE]: { reference: spread(cv.isPositive), map: () => fixed([kw('exclusiveMinimum', 0)]) },
  [cv.IS_NEGATIVE]: { reference: spread(cv.isNegative), map: () => fixed([kw('exclusiveMaximum', 0)]) },
  [cv.IS_DIVISIBLE_BY]: { reference: spread(cv.isDivisibleBy), map: (c) => divisibleBy(c[0]), problem: limit('multipleOf', 0) },
  [cv.IS_ARRAY]: { reference: spread(cv.isArray), map: () => fixed([type('array')]) },
  [cv.ARRAY_MIN_SIZE]: { reference: spread(cv.arrayMinSize), map: (c) => fixed([type('array'), kw('minItems', c[0])]) },
  [cv.ARRAY_MAX_SIZE]: { reference: spread(cv.arrayMaxSize), map: (c) => fixed([type('array'), kw('maxItems', c[0])]) },
  [cv.ARRAY_NOT_EMPTY]: { reference: spread(cv.arrayNotEmpty), map: () => fixed([type('array'), kw('minItems', 1)]) },
  [cv.ARRAY_UNIQUE]: {
    reference: spread(cv.arrayUnique),
    map: () => fixed([type('array'), { kind: 'keyword', keyword: 'uniqueItems', value: true, scalarItemsOnly: true }]),
    closure: identifierOf,
  },
  [cv.IS_OBJECT]: { reference: spread(cv.isObject), map: () => fixed([type('record')]) },
  [cv.IS_NOT_EMPTY_OBJECT]: {
    reference: spread(cv.isNotEmptyObject),
    // { nullable: false } does not count keys whose value is null: at least one key is all the schema can say.
    map: (c) =>
      fixed(
        [type('record'), kw('minProperties', 1)],
        (c[0] as { nullable?: boolean } | undefined)?.nullable === false ? 'recheck' : 'exact',
      ),
    problem: () => ({ keyword: 'minProperties', params: { limit: 1 } }),
  },
});

/** The registered names of the class-validator decorators toolwright translates into JSON Schema. */
export const MAPPED_VALIDATORS: readonly string[] = Object.freeze(Object.keys(BUILT_IN_MAPPINGS));
