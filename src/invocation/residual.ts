/**
 * class-validator, for what JSON Schema cannot say: custom validators, `@ValidateIf`-guarded
 * fields, and the built-ins whose schema is only an over-approximation (`@IsUrl`, `@IsEmail`,
 * `@IsUUID`, ISO 8601 dates, lengths, …: contract/sources/class-validator-mapping.ts). Runs on the
 * instance after schema validation; when the schema refused some fields, on the others (a field
 * with a problem, and what is inside it, is skipped), so one answer names every invalid field.
 */
import { getFromContainer, ValidationTypes } from 'class-validator';
import { contractOf } from '../contract/build-contract';
import { classValidatorMessage, residualProblem, ValidationMetadata } from '../contract/sources/class-validator';
import type { Contract, TypeNode } from '../contract/field-model';
import type { InputProblems } from './input-problems';

interface ValidatorConstraint {
  validate(value: unknown, args: unknown): boolean | Promise<boolean>;
}

const deep = new WeakMap<Function, boolean>();

/** Does the contract, or anything nested in it, carry run-time-only constraints? */
export function hasResidual(target: Function, seen = new Set<Function>()): boolean {
  const known = deep.get(target);
  if (known !== undefined) return known;
  if (seen.has(target)) return false;
  seen.add(target);
  const nested = (node: TypeNode): boolean =>
    (node.kind === 'object' && !!node.target && hasResidual(node.target, seen)) ||
    (!!node.items && nested(node.items)) ||
    (node.members ?? []).some(nested);
  const result = contractOf(target).fields.some((field) => field.residual.length > 0 || nested(field.type));
  deep.set(target, result);
  return result;
}

async function check(
  metadata: ValidationMetadata,
  owner: Function,
  object: object,
  value: unknown,
  path: string,
  errors: InputProblems,
): Promise<void> {
  const args = { value, constraints: metadata.constraints, targetName: owner.name, object, property: path };
  let ok = true;
  if (metadata.type === ValidationTypes.IS_DEFINED) ok = value !== undefined && value !== null;
  else if (metadata.type === ValidationTypes.CUSTOM_VALIDATION && metadata.constraintCls) {
    const constraint = getFromContainer(metadata.constraintCls) as ValidatorConstraint;
    const values = metadata.each && Array.isArray(value) ? value : [value];
    for (const item of values) {
      let passed: boolean;
      try {
        passed = await constraint.validate(item, { ...args, value: item });
      } catch {
        // A check that throws on some text (isEmail's decodeURIComponent) refuses it; it never ends the call.
        passed = false;
      }
      if (!passed) {
        ok = false;
        break;
      }
    }
  }
  if (!ok) {
    const { keyword, params } = residualProblem(metadata);
    errors.add(path, classValidatorMessage(metadata, owner)(path, value), keyword, params);
  }
}

async function walk(contract: Contract, instance: Record<string, unknown>, prefix: string, errors: InputProblems): Promise<void> {
  for (const field of contract.inputFields) {
    const value = instance[field.name];
    const path = prefix ? `${prefix}.${field.name}` : field.name;
    // A value the schema refused may be of any type: the schema's problem is the one to fix first.
    if (errors.refused(path)) continue;
    if (field.residual.length > 0) {
      const conditions = field.residual.filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION);
      const applies = conditions.every((m) => (m.constraints[0] as (o: object, v: unknown) => boolean)(instance, value));
      const absent = value === undefined || value === null;
      // Under @ValidateIf the condition alone decides; otherwise an absent optional field is skipped.
      const skip = field.conditional ? !applies : absent && (field.optional || field.nullable);
      if (!skip) {
        for (const metadata of field.residual) {
          if (metadata.type !== ValidationTypes.CONDITIONAL_VALIDATION) await check(metadata, field.owner, instance, value, path, errors);
        }
      }
    }
    await walkNode(field.type, value, path, errors);
  }
}

async function walkNode(node: TypeNode, value: unknown, path: string, errors: InputProblems): Promise<void> {
  if (value === null || value === undefined) return;
  if (node.kind === 'object' && node.target && hasResidual(node.target)) {
    await walk(contractOf(node.target), value as Record<string, unknown>, path, errors);
  } else if (node.kind === 'array' && node.items && Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = `${path}[${i}]`;
      if (!errors.refused(item)) await walkNode(node.items, value[i], item, errors);
    }
  }
}

/** Runs the run-time-only constraints of a contract on a built instance; adds the problems. */
export async function residualErrors(contract: Contract, instance: object, problems: InputProblems): Promise<void> {
  await walk(contract, instance as Record<string, unknown>, '', problems);
}
