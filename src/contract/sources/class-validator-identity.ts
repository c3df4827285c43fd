/**
 * Is a registered constraint class-validator's built-in, or a custom one that took a built-in's
 * name? class-validator wraps each use of a built-in decorator in a fresh constraint class around a
 * closure, so there is no class or function to compare with; what can be compared is behaviour. A
 * constraint counts as the built-in when it is synchronous and answers exactly like
 * class-validator's exported check, with the same constraints, on every probe below. Only
 * constraints registered under a built-in's name are probed.
 */
import { getFromContainer, getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from '../../interop/class-validator';
import { BUILT_IN_MAPPINGS, BuiltInMapping } from './class-validator-mapping';

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

const verdicts = new WeakMap<Function, boolean>();

/** The built-in a constraint is (by name, then by behaviour), or undefined for any other constraint. */
export function builtInOf(metadata: ValidationMetadata): BuiltInMapping | undefined {
  const name = metadata.name;
  if (!name || !Object.prototype.hasOwnProperty.call(BUILT_IN_MAPPINGS, name)) return undefined;
  const mapping = BUILT_IN_MAPPINGS[name];
  return behavesAsBuiltIn(metadata, mapping) ? mapping : undefined;
}

/** Whether the metadata's constraint behaves as class-validator's built-in `mapping` does. */
function behavesAsBuiltIn(metadata: ValidationMetadata, mapping: BuiltInMapping): boolean {
  const cls = metadata.constraintCls;
  if (typeof cls !== 'function') return false;
  const known = verdicts.get(cls);
  if (known !== undefined) return known;
  let verdict = false;
  const registered = getMetadataStorage().getTargetValidatorConstraints(cls);
  if (registered.length === 1 && !registered[0].async) {
    try {
      const instance = getFromContainer(cls) as ConstraintInstance;
      const constraints: readonly unknown[] = metadata.constraints ?? [];
      verdict = PROBES.every((value) => {
        const answer = instance.validate(value, { value, constraints, targetName: '', object: {}, property: metadata.propertyName });
        return typeof answer === 'boolean' && answer === mapping.reference(value, constraints);
      });
    } catch {
      verdict = false;
    }
  }
  verdicts.set(cls, verdict);
  return verdict;
}
