/**
 * `@Field({ sensitive: true })` values, replaced wherever toolwright itself hands input on: audit
 * records and exception reports. (Spans never carry input at all.)
 */
import { contractOf } from '../contract/build-contract';
import type { Contract, TypeNode } from '../contract/field-model';
import { isPlainObject } from '../util/describe-value';

export const REDACTED = '[redacted]';

const sensitiveByContract = new WeakMap<Function, boolean>();

/** Does the contract (or one nested in it) have a sensitive field? Cached per class. */
export function hasSensitive(contract: Contract, seen = new Set<Function>()): boolean {
  const cached = sensitiveByContract.get(contract.target);
  if (cached !== undefined) return cached;
  if (seen.has(contract.target)) return false;
  seen.add(contract.target);
  const found = contract.fields.some(
    (field) => field.sensitive || targetsOf(field.type).some((target) => hasSensitive(contractOf(target), seen)),
  );
  sensitiveByContract.set(contract.target, found);
  return found;
}

function targetsOf(node: TypeNode): Function[] {
  if (node.target) return [node.target];
  if (node.items) return targetsOf(node.items);
  if (node.members) return node.members.flatMap(targetsOf);
  return [];
}

/**
 * A plain copy of `value` read through `contract`: declared fields only, sensitive ones as
 * `[redacted]`, nested contracts likewise. Undeclared keys are left out (they were refused or dropped).
 */
export function redact(contract: Contract, value: unknown): Record<string, unknown> | unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const source = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const field of contract.fields) {
    if (!Object.prototype.hasOwnProperty.call(source, field.name)) continue;
    copy[field.name] = field.sensitive ? REDACTED : redactNode(field.type, source[field.name]);
  }
  return copy;
}

function redactNode(node: TypeNode, value: unknown): unknown {
  if (node.target && (isPlainObject(value) || (typeof value === 'object' && value !== null && !Array.isArray(value)))) {
    return redact(contractOf(node.target), value);
  }
  if (node.items && Array.isArray(value)) return value.map((item) => redactNode(node.items!, item));
  if (node.members && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    // Which member a value is cannot be told cheaply here: redact what any member calls sensitive.
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const member of node.members) {
      if (!member.target) continue;
      for (const field of contractOf(member.target).fields) if (field.sensitive && field.name in copy) copy[field.name] = REDACTED;
    }
    return copy;
  }
  return value;
}
