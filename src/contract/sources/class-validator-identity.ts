/**
 * Is a registered constraint class-validator's built-in, or a custom one that took a built-in's
 * name? class-validator wraps each use of a built-in decorator in a fresh constraint class around a
 * closure, so there is no class or function to compare with; what can be compared is behaviour. A
 * constraint counts as the built-in when it is synchronous and answers exactly like
 * class-validator's exported check, with the same constraints, on every probe below. Only
 * constraints registered under a built-in's name are probed.
 */
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from '../../interop/class-validator';
import { BUILT_IN_MAPPINGS, BuiltInMapping, Effects } from './class-validator-mapping';

interface ConstraintInstance {
  validate(value: unknown, args: unknown): unknown;
}

/** Values on which the built-ins answer differently from one another and from a typical look-alike. */
const PROBES: readonly unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'a',
  'abc',
  '42',
  '-1.5',
  'http://example.com/',
  'https://exa_mple.com',
  'example.com',
  'javascript:alert(1)',
  'file:///etc/passwd',
  'a@example.com',
  'a@127.0.0.1',
  '2024-01-01',
  '2024-01-01T10:00:00Z',
  '2024-02-30T10:00:00Z',
  '123e4567-e89b-12d3-a456-426614174000',
  '123e4567-e89b-42d3-a456-426614174000',
  'urn:uuid:123e4567-e89b-12d3-a456-426614174000',
  '😀',
  0,
  1,
  -1,
  2,
  1.5,
  10,
  1e21,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  [],
  ['a'],
  [1, 1],
  {},
  { a: 1 },
  { a: null },
  new Date(0),
];

/**
 * The probes for a built-in whose schema is only a type and that class-validator re-checks at run
 * time (`@IsEmail`, `@IsUrl`, the ISO dates): a look-alike runs there anyway, so the verdict only
 * names the rule in a FieldError, and a few probes tell one apart. Every other built-in gets the
 * full set, since a wrong verdict would put a keyword in the schema. The re-checked ones are the
 * costly checks (validator.js), and every field that uses one is probed once: with the full set,
 * 1,000 tools took seconds to serve.
 */
const RECHECK_PROBES: readonly unknown[] = [
  null,
  '',
  'abc',
  'http://example.com/',
  'example.com',
  'javascript:alert(1)',
  'a@example.com',
  '2024-01-01T10:00:00Z',
  42,
];

/**
 * Per decorator use (its metadata: one constraint class with one use's constraints), the built-in
 * use it is, or null for none. Not per class: a class registered once and used with other
 * constraints (`registerDecorator({ validator: SomeClass })`) is probed per use, since answering
 * like `@Min(1)` says nothing of how it answers with 5.
 */
const verdicts = new WeakMap<ValidationMetadata, BuiltInUse | null>();
/** class-validator's own answers on the probes, per built-in and constraints (exact text): computed once. */
const references = new Map<string, readonly boolean[]>();

/** A scalar as exact text: `undefined` apart from `null`, `-0` from `0`, NaN and the infinities from `null`. */
function scalarText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'undefined':
      return 'u';
    case 'number':
      return Object.is(value, -0) ? 'n-0' : `n${value}`;
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 't' : 'f';
    default:
      return value === null ? 'z' : undefined;
  }
}

/**
 * Constraints as exact text (a RegExp by source and flags, `undefined` kept apart from `null`), or
 * undefined where there is none (a function, a cycle, anything else JSON would drop or merge).
 */
function exactText(value: unknown, depth = 0): string | undefined {
  if (depth > 8) return undefined;
  const scalar = scalarText(value);
  if (scalar !== undefined) return scalar;
  if (value instanceof RegExp) return `r${JSON.stringify(value.source)}/${value.flags}`;
  if (value instanceof Date) return `d${value.getTime()}`;
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++) {
      const item = exactText(value[index], depth + 1);
      if (item === undefined) return undefined;
      text += index === 0 ? item : `,${item}`;
    }
    return `${text}]`;
  }
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    let text = '{';
    for (const key of Object.keys(value)) {
      const item = exactText((value as Record<string, unknown>)[key], depth + 1);
      if (item === undefined) return undefined;
      text += `${text === '{' ? '' : ','}${JSON.stringify(key)}:${item}`;
    }
    return `${text}}`;
  }
  return undefined;
}

function referenceAnswers(
  name: string,
  mapping: BuiltInMapping,
  constraints: readonly unknown[],
  probes: readonly unknown[],
): readonly boolean[] {
  const text = exactText(constraints);
  const key = text === undefined ? undefined : `${name}\u0000${probes.length}\u0000${text}`;
  const known = key === undefined ? undefined : references.get(key);
  if (known) return known;
  const answers = probes.map((value) => mapping.reference(value, constraints));
  if (key !== undefined && references.size < 10_000) references.set(key, answers);
  return answers;
}

/** A constraint that is a built-in: its mapping, and what it means for the field model. */
export interface BuiltInUse {
  readonly mapping: BuiltInMapping;
  /**
   * What the use means: the mapping's reading of its constraints, with the mapping whose reference
   * check it answers as (`builtIn`); or, when its closure holds more than its constraints show
   * (`@ArrayUnique(identifier)`), what that means, with no reference check.
   */
  readonly effects: Effects & { readonly builtIn?: BuiltInMapping };
}

/** The built-ins by registered name, for a look-up that no inherited key can answer. */
const BY_NAME: ReadonlyMap<string, BuiltInMapping> = new Map(Object.entries(BUILT_IN_MAPPINGS));

/** The built-in a constraint is (by name, then by behaviour), or undefined for any other constraint. */
export function builtInOf(metadata: ValidationMetadata): BuiltInMapping | undefined {
  return builtInUseOf(metadata)?.mapping;
}

/** The built-in a constraint is, with what its use means, or undefined for any other constraint. */
export function builtInUseOf(metadata: ValidationMetadata): BuiltInUse | undefined {
  const mapping = metadata.name ? BY_NAME.get(metadata.name) : undefined;
  return mapping && useOf(metadata, mapping);
}

/** Whether the metadata's constraint behaves as class-validator's built-in `mapping` does, and what it means. */
function useOf(metadata: ValidationMetadata, mapping: BuiltInMapping): BuiltInUse | undefined {
  let verdict = verdicts.get(metadata);
  if (verdict === undefined) {
    const cls = metadata.constraintCls;
    verdict = typeof cls === 'function' ? probe(metadata, mapping, cls, metadata.constraints ?? []) : null;
    verdicts.set(metadata, verdict);
  }
  return verdict ?? undefined;
}

/** Probes one constraint class with one use's constraints: the built-in use it is, or null. */
function probe(
  metadata: ValidationMetadata,
  mapping: BuiltInMapping,
  cls: Function,
  constraints: readonly unknown[],
): BuiltInUse | null {
  const registered = getMetadataStorage().getTargetValidatorConstraints(cls);
  if (registered.length !== 1 || registered[0].async) return null;
  try {
    // Made here, not through class-validator's container: its default container finds an instance
    // by a linear search, so probing every field of 1,000 tools through it took seconds. A class
    // that needs its container's dependencies throws here, and is no built-in.
    const instance = new (cls as new () => ConstraintInstance)();
    // One arguments object for every probe (only its value changes): class-validator's built-ins only read it.
    const args = { value: undefined as unknown, constraints, targetName: '', object: {}, property: metadata.propertyName };
    const answer = (value: unknown) => {
      args.value = value;
      return instance.validate(value, args);
    };
    // A closure holding what the probes cannot see decides first: its answers on them mean nothing.
    const hidden = mapping.closure?.(answer);
    if (hidden) return { mapping, effects: hidden };
    const effects = mapping.map(constraints);
    const typeOnly = effects.runtime === 'recheck' && effects.effects.every((effect) => effect.kind === 'type' && effect.format === undefined);
    const probes = typeOnly ? RECHECK_PROBES : PROBES;
    const expected = referenceAnswers(metadata.name!, mapping, constraints, probes);
    for (let index = 0; index < probes.length; index++) if (answer(probes[index]) !== expected[index]) return null;
    return { mapping, effects: { ...effects, builtIn: mapping } };
  } catch {
    return null;
  }
}
