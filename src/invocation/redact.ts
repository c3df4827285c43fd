/**
 * `@Field({ sensitive: true })` values, replaced wherever toolwright itself hands input on: audit
 * records, approval questions (`call.redactedInput()`) and exception reports. (Spans never carry
 * input at all.) A sensitive field is found at any depth the field model can nest it: in a nested
 * class, an array of them (of any depth), a union member (`anyOf`), and under optional or nullable.
 */
import { contractOf } from '../contract/build-contract';
import type { Contract, TypeNode } from '../contract/field-model';
import { setOwn } from '../util/own-property';

export const REDACTED = '[redacted]';

const sensitiveByContract = new WeakMap<Function, boolean>();

/** Does the contract (or one nested in it, at any depth) have a sensitive field? Cached per class. */
export function hasSensitive(contract: Contract): boolean {
  let found = sensitiveByContract.get(contract.target);
  // Only a whole walk's answer is cached: inside a cycle, a class's partial answer may be wrong.
  if (found === undefined) sensitiveByContract.set(contract.target, (found = reachesSensitive(contract, new Set())));
  return found;
}

function reachesSensitive(contract: Contract, seen: Set<Function>): boolean {
  if (seen.has(contract.target)) return false;
  seen.add(contract.target);
  return contract.fields.some(
    (field) => field.sensitive || targetsOf(field.type).some((target) => reachesSensitive(contractOf(target), seen)),
  );
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
  if (!isObject(value)) return value;
  return redactObject([contract], value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The types a value may have: a union's members, else the node itself. */
function alternatives(nodes: readonly TypeNode[]): TypeNode[] {
  return nodes.flatMap((node) => (node.kind === 'union' ? node.members! : [node]));
}

/**
 * A value read through any of `nodes` (one node, or a union's members: which member a value is
 * cannot be told cheaply here, so a key any of them calls sensitive is redacted).
 */
function redactValue(nodes: readonly TypeNode[], value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const types = alternatives(nodes);
  if (Array.isArray(value)) {
    const items = types.filter((node) => node.items !== undefined).map((node) => node.items!);
    return items.length === 0 ? value : value.map((item) => redactValue(items, item));
  }
  const contracts = types.filter((node) => node.target !== undefined).map((node) => contractOf(node.target!));
  return contracts.length === 0 ? value : redactObject(contracts, value as Record<string, unknown>);
}

/** The declared keys of `source` under any of `contracts`; a key one of them calls sensitive is redacted. */
function redactObject(contracts: readonly Contract[], source: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  const declared = new Map<string, TypeNode[] | typeof REDACTED>();
  for (const contract of contracts) {
    for (const field of contract.fields) {
      if (!Object.prototype.hasOwnProperty.call(source, field.name)) continue;
      const seen = declared.get(field.name);
      if (field.sensitive) declared.set(field.name, REDACTED);
      else if (seen === undefined) declared.set(field.name, [field.type]);
      else if (seen !== REDACTED) seen.push(field.type);
    }
  }
  for (const [name, types] of declared) setOwn(copy, name, types === REDACTED ? REDACTED : redactValue(types, source[name]));
  return copy;
}
