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

/** Per constraint class: the built-in use it is, or null for none. */
const verdicts = new WeakMap<Function, BuiltInUse | null>();
/** class-validator's own answers on the probes, per built-in and constraints (JSON): computed once. */
const references = new Map<string, readonly boolean[]>();

/**
 * Constraints as exact text (a RegExp by source and flags, `undefined` kept apart from `null`), or
 * undefined where there is none (a function, a cycle, anything else JSON would drop or merge).
 */
function exactText(value: unknown, depth = 0): string | undefined {
  if (depth > 8) return undefined;
  if (value === undefined) return 'u';
  if (value === null || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (value instanceof RegExp) return `r${JSON.stringify(value.source)}/${value.flags}`;
  if (value instanceof Date) return `d${value.getTime()}`;
  if (Array.isArray(value)) {
    const items = value.map((item) => exactText(item, depth + 1));
    return items.includes(undefined) ? undefined : `[${items.join(',')}]`;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.keys(value).map((key) => {
      const text = exactText((value as Record<string, unknown>)[key], depth + 1);
      return text === undefined ? undefined : `${JSON.stringify(key)}:${text}`;
    });
    return entries.includes(undefined) ? undefined : `{${entries.join(',')}}`;
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

/** A constraint that is a built-in: its mapping, and what its closure holds beyond its constraints. */
export interface BuiltInUse {
  readonly mapping: BuiltInMapping;
  /** The use's meaning when its closure holds more than its constraints show (`@ArrayUnique(identifier)`). */
  readonly hidden?: Effects;
}

/** The built-in a constraint is (by name, then by behaviour), or undefined for any other constraint. */
export function builtInOf(metadata: ValidationMetadata): BuiltInMapping | undefined {
  return builtInUseOf(metadata)?.mapping;
}

/** The built-in a constraint is, with what its closure hides, or undefined for any other constraint. */
export function builtInUseOf(metadata: ValidationMetadata): BuiltInUse | undefined {
  const name = metadata.name;
  if (!name || !Object.prototype.hasOwnProperty.call(BUILT_IN_MAPPINGS, name)) return undefined;
  return useOf(metadata, BUILT_IN_MAPPINGS[name]);
}

/** Whether the metadata's constraint behaves as class-validator's built-in `mapping` does, and what it hides. */
function useOf(metadata: ValidationMetadata, mapping: BuiltInMapping): BuiltInUse | undefined {
  const cls = metadata.constraintCls;
  if (typeof cls !== 'function') return undefined;
  const known = verdicts.get(cls);
  if (known !== undefined) return known ?? undefined;
  let verdict: BuiltInUse | null = null;
  const registered = getMetadataStorage().getTargetValidatorConstraints(cls);
  if (registered.length === 1 && !registered[0].async) {
    try {
      // Made here, not through class-validator's container: its default container finds an instance
      // by a linear search, so probing every field of 1,000 tools through it took seconds. A class
      // that needs its container's dependencies throws here, and is no built-in.
      const instance = new (cls as new () => ConstraintInstance)();
      const constraints: readonly unknown[] = metadata.constraints ?? [];
      const answer = (value: unknown) =>
        instance.validate(value, { value, constraints, targetName: '', object: {}, property: metadata.propertyName });
      // A closure holding what the probes cannot see decides first: its answers on them mean nothing.
      const hidden = mapping.closure?.(answer);
      if (hidden) {
        verdict = { mapping, hidden };
      } else {
        const { runtime, effects } = mapping.map(constraints);
        const typeOnly = runtime === 'recheck' && effects.every((effect) => effect.kind === 'type' && effect.format === undefined);
        const probes = typeOnly ? RECHECK_PROBES : PROBES;
        const expected = referenceAnswers(metadata.name!, mapping, constraints, probes);
        if (probes.every((value, index) => answer(value) === expected[index])) verdict = { mapping };
      }
    } catch {
      verdict = null;
    }
  }
  verdicts.set(cls, verdict);
  return verdict ?? undefined;
}
