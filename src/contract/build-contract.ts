/**
 * Builds the field model of a contract class, once: which properties it has (its own and its
 * ancestors', the most derived declaration winning), each built by the field builder.
 */
import 'reflect-metadata';
import { KEYS } from '../metadata/keys';
import { ownValidationMetadatas, ValidationMetadata } from './class-validator-source';
import { buildField } from './field-builder';
import type { Contract, FieldModel } from './field-model';
import type { FieldDeclaration } from './types';

const cache = new WeakMap<Function, Contract>();
const NO_FIELDS: readonly FieldModel[] = Object.freeze([]);

/** The field model of a contract class, built on first use and cached. */
export function contractOf(target: Function): Contract {
  let contract = cache.get(target);
  if (!contract) {
    contract = buildContract(target);
    cache.set(target, contract);
  }
  return contract;
}

/** Classes from the root ancestor down to `target`. */
function lineage(target: Function): Function[] {
  const chain: Function[] = [];
  for (
    let current: unknown = target;
    typeof current === 'function' && current !== Function.prototype && current !== Object;
    current = Object.getPrototypeOf(current)
  ) {
    chain.unshift(current as Function);
  }
  return chain;
}

interface OwnDeclarations {
  readonly fields: ReadonlyMap<string, FieldDeclaration>;
  readonly validators: ReadonlyMap<string, ValidationMetadata[]>;
  /** Property names in source order. */
  readonly order: string[];
}

function ownDeclarations(target: Function): OwnDeclarations {
  const fields: Map<string, FieldDeclaration> = Reflect.getOwnMetadata(KEYS.fields, target) ?? new Map();
  const validators = new Map<string, ValidationMetadata[]>();
  const position = new Map<string, number>();
  ownValidationMetadatas(target).forEach((metadata, index) => {
    const list = validators.get(metadata.propertyName) ?? [];
    list.push(metadata);
    validators.set(metadata.propertyName, list);
    if (!position.has(metadata.propertyName)) position.set(metadata.propertyName, index);
  });
  for (const [name, declaration] of fields) position.set(name, Math.min(position.get(name) ?? Infinity, declaration.position));
  const order = [...position.entries()].sort((a, b) => a[1] - b[1]).map(([name]) => name);
  return { fields, validators, order };
}

function buildContract(target: Function): Contract {
  // A property belongs to the most derived class that declares it; that class's declaration wins
  // whole, and the field keeps the position where it first appeared.
  const owners = new Map<string, { owner: Function; declarations: OwnDeclarations }>();
  for (const klass of lineage(target)) {
    const declarations = ownDeclarations(klass);
    for (const name of declarations.order) owners.set(name, { owner: klass, declarations });
  }
  const fields: FieldModel[] = [];
  for (const [name, { owner, declarations }] of owners) {
    fields.push(buildField(owner, name, declarations.fields.get(name), declarations.validators.get(name) ?? []));
  }
  const ambient = fields.some((field) => field.ambient);
  return {
    target,
    name: target.name,
    fields,
    inputFields: ambient ? fields.filter((field) => !field.ambient) : fields,
    ambientFields: ambient ? fields.filter((field) => field.ambient) : NO_FIELDS,
    byName: new Map(fields.map((field) => [field.name, field])),
  };
}
