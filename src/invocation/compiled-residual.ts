/**
 * The run-time-only constraints of a contract (./residual.ts), compiled once per class into closures
 * composed per field: the `@ValidateIf` conditions picked out, the fields with nothing to check (and
 * no nested class that has) left out of the walk, and no promise made unless a check answers with
 * one. Same order, same messages, same problems as ./residual.ts, which stays the reference: a
 * property test runs both on random contracts and payloads (test/invocation/compiled.property.test.ts).
 * A use of a built-in class-validator re-checks (`@IsEmail`, `@IsUrl`, `@IsUUID`, the ISO dates)
 * runs as its fast check (../contract/sources/fast-checks.ts), which answers as validator.js does.
 */
import { getFromContainer, ValidationTypes } from 'class-validator';
import { contractOf } from '../contract/build-contract';
import { classValidatorMessage, residualProblem, ValidationMetadata } from '../contract/sources/class-validator';
import { fastCheckOf } from '../contract/sources/fast-checks';
import type { Contract, FieldModel, TypeNode } from '../contract/field-model';
import type { InputProblems } from './input-problems';
import { hasResidual } from './residual';
import { isThenable } from '../util/is-thenable';

/** Adds the problems of one value; a promise only when a check answered with one. */
type Check = (instance: Record<string, unknown>, prefix: string, problems: InputProblems) => void | Promise<void>;
type NodeCheck = (value: unknown, path: string, problems: InputProblems) => void | Promise<void>;

interface ValidatorConstraint {
  validate(value: unknown, args: unknown): unknown;
}

const compiled = new WeakMap<Function, Check>();

/** The compiled run-time checks of a contract class: `(instance, '', problems)`. */
export function compiledResidual(target: Function): Check {
  let check = compiled.get(target);
  if (!check) {
    // Registered before it is built, so a recursive contract finds its own check.
    let built: Check | undefined;
    compiled.set(target, (instance, prefix, problems) => built!(instance, prefix, problems));
    built = contractCheck(contractOf(target));
    compiled.set(target, built);
    check = built;
  }
  return check;
}

/** Runs `steps` in order from `from`, going asynchronous only at the first step that does. */
function runFrom<A, B>(
  steps: readonly ((a: A, b: B, problems: InputProblems) => void | Promise<void>)[],
  a: A,
  b: B,
  problems: InputProblems,
  from: number,
): void | Promise<void> {
  for (let i = from; i < steps.length; i++) {
    const pending = steps[i](a, b, problems);
    if (pending !== undefined) return pending.then(() => runFrom(steps, a, b, problems, i + 1));
  }
}

function contractCheck(contract: Contract): Check {
  const steps = contract.inputFields.map(fieldCheck).filter((step): step is Check => step !== undefined);
  if (steps.length === 0) return () => undefined;
  return (instance, prefix, problems) => runFrom(steps, instance, prefix, problems, 0);
}

/** One constraint on a field value, as ./residual.ts `check` runs it. */
function constraintCheck(
  metadata: ValidationMetadata,
  owner: Function,
): (object: object, value: unknown, path: string, problems: InputProblems) => void | Promise<void> {
  // Made once per constraint: the message function keeps its parsed template between calls.
  const message = classValidatorMessage(metadata, owner);
  const fail = (value: unknown, path: string, problems: InputProblems) => {
    const { keyword, params } = residualProblem(metadata);
    problems.add(path, message(path, value), keyword, params);
  };
  if (metadata.type === ValidationTypes.IS_DEFINED) {
    return (_object, value, path, problems) => {
      if (value === undefined || value === null) fail(value, path, problems);
    };
  }
  if (metadata.type !== ValidationTypes.CUSTOM_VALIDATION || !metadata.constraintCls) return () => undefined;
  const constraintCls = metadata.constraintCls;
  const each = metadata.each;
  const fast = fastCheckOf(metadata);
  if (fast) {
    // class-validator's verdict, without class-validator: ../contract/sources/fast-checks.ts.
    const passes = (item: unknown) => {
      try {
        return fast(item);
      } catch {
        return false;
      }
    };
    return (_object, value, path, problems) => {
      if (each && Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!passes(value[i])) return fail(value, path, problems);
      } else if (!passes(value)) {
        fail(value, path, problems);
      }
    };
  }
  /** Checks `items[start…]` (the value itself when `items` is undefined); asynchronous from the first check that answers with a promise. */
  const from = (
    constraint: ValidatorConstraint,
    object: object,
    value: unknown,
    items: readonly unknown[] | undefined,
    start: number,
    path: string,
    problems: InputProblems,
  ): void | Promise<void> => {
    const count = items === undefined ? 1 : items.length;
    for (let i = start; i < count; i++) {
      const item = items === undefined ? value : items[i];
      let passed: unknown;
      try {
        // The arguments ./residual.ts gives it: the same properties, in the same order.
        passed = constraint.validate(item, {
          value: item,
          constraints: metadata.constraints,
          targetName: owner.name,
          object,
          property: path,
        });
        if (isThenable(passed)) {
          return Promise.resolve(passed).then(
            (answer) => (answer ? from(constraint, object, value, items, i + 1, path, problems) : fail(value, path, problems)),
            () => fail(value, path, problems),
          );
        }
      } catch {
        // A check that throws on some text (isEmail's decodeURIComponent) refuses it; it never ends the call.
        passed = false;
      }
      if (!passed) return fail(value, path, problems);
    }
  };
  return (object, value, path, problems) =>
    from(
      getFromContainer(constraintCls) as ValidatorConstraint,
      object,
      value,
      each && Array.isArray(value) ? (value as unknown[]) : undefined,
      0,
      path,
      problems,
    );
}

function fieldCheck(field: FieldModel): Check | undefined {
  const name = field.name;
  const nested = nodeCheck(field.type);
  const hasOwn = field.residual.length > 0;
  if (!hasOwn && !nested) return undefined;
  const conditions = field.residual.filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION);
  const constraints = field.residual
    .filter((m) => m.type !== ValidationTypes.CONDITIONAL_VALIDATION)
    .map((metadata) => constraintCheck(metadata, field.owner));
  const { conditional } = field;
  const skipAbsent = field.optional || field.nullable;
  const runConstraints = (instance: object, value: unknown, path: string, problems: InputProblems, from: number): void | Promise<void> => {
    for (let i = from; i < constraints.length; i++) {
      const pending = constraints[i](instance, value, path, problems);
      if (pending !== undefined) return pending.then(() => runConstraints(instance, value, path, problems, i + 1));
    }
  };
  return (instance, prefix, problems) => {
    const value = instance[name];
    const path = prefix ? `${prefix}.${name}` : name;
    if (problems.refused(path)) return;
    let pending: void | Promise<void> = undefined;
    if (hasOwn) {
      let applies = true;
      for (let i = 0; i < conditions.length && applies; i++) {
        applies = !!(conditions[i].constraints[0] as (o: object, v: unknown) => boolean)(instance, value);
      }
      const absent = value === undefined || value === null;
      // Under @ValidateIf the condition alone decides; otherwise an absent optional field is skipped.
      const skip = conditional ? !applies : absent && skipAbsent;
      if (!skip) {
        pending = runConstraints(instance, value, path, problems, 0);
      }
    }
    if (!nested) return pending;
    return pending === undefined ? nested(value, path, problems) : pending.then(() => nested(value, path, problems));
  };
}

/** The walk into a value of a node's type, or undefined when nothing inside it has run-time checks. */
function nodeCheck(node: TypeNode): NodeCheck | undefined {
  if (node.kind === 'object' && node.target) {
    const target = node.target;
    if (!hasResidual(target)) return undefined;
    return (value, path, problems) => {
      if (value === null || value === undefined) return;
      return compiledResidual(target)(value as Record<string, unknown>, path, problems);
    };
  }
  if (node.kind === 'array' && node.items) {
    const item = nodeCheck(node.items);
    if (!item) return undefined;
    return (value, path, problems) => {
      if (value === null || value === undefined || !Array.isArray(value)) return;
      const from = (index: number): void | Promise<void> => {
        for (let i = index; i < value.length; i++) {
          const at = `${path}[${i}]`;
          const pending = problems.refused(at) ? undefined : item(value[i], at, problems);
          if (pending !== undefined) return pending.then(() => from(i + 1));
        }
      };
      return from(0);
    };
  }
  return undefined;
}
