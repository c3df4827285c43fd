/**
 * Builds the field model of a contract class, once: which properties it has (its own and its
 * ancestors', the most derived declaration winning), each built by the field builder.
 */
import 'reflect-metadata';
import { KEYS } from '../metadata/keys';
import { lineage } from '../metadata/lineage';
import { insertionSort } from '../util/insertion-sort';
import { ownValidationMetadatas, ValidationMetadata } from '../interop/class-validator';
import { buildField } from './field-builder';
import type { Contract, FieldModel } from './field-model';
import type { FieldDeclaration } from '../metadata/definitions';

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

interface OwnDeclarations {
  readonly fields: ReadonlyMap<string, FieldDeclaration> | undefined;
  /** Each property's class-validator metadata. */
  readonly validators: ReadonlyMap<string, ValidationMetadata[]>;
  /** Property names in source order. */
  readonly order: readonly string[];
}

const NO_VALIDATORS: ValidationMetadata[] = [];

function ownDeclarations(target: Function): OwnDeclarations {
  const fields: Map<string, FieldDeclaration> | undefined = Reflect.getOwnMetadata(KEYS.fields, target);
  const metadatas = ownValidationMetadatas(target);
  const validators = new Map<string, ValidationMetadata[]>();
  for (let index = 0; index < metadatas.length; index++) {
    const list = validators.get(metadatas[index].propertyName);
    if (list) list.push(metadatas[index]);
    else validators.set(metadatas[index].propertyName, [metadatas[index]]);
  }
  if (!fields) return { fields, validators, order: [...validators.keys()] };
  // Each property's place: where its first class-validator constraint or its @Field was recorded.
  const position = new Map<string, number>();
  for (let index = 0; index < metadatas.length; index++) {
    if (!position.has(metadatas[index].propertyName)) position.set(metadatas[index].propertyName, index);
  }
  fields.forEach((declaration, name) => {
    const at = position.get(name);
    position.set(name, at === undefined || declaration.position < at ? declaration.position : at);
  });
  return { fields, validators, order: insertionSort([...position.keys()], (name) => position.get(name)!) };
}

function fieldOf(owner: Function, declarations: OwnDeclarations, name: string): FieldModel {
  return buildField(owner, name, declarations.fields?.get(name), declarations.validators.get(name) ?? NO_VALIDATORS);
}

function buildContract(target: Function): Contract {
  const fields: FieldModel[] = [];
  const chain = lineage(target);
  if (chain.length === 1) {
    const declarations = ownDeclarations(target);
    for (const name of declarations.order) fields.push(fieldOf(target, declarations, name));
  } else {
    // A property belongs to the most derived class that declares it; that class's declaration wins
    // whole, and the field keeps the position where it first appeared.
    const owners = new Map<string, [Function, OwnDeclarations]>();
    for (let index = chain.length - 1; index >= 0; index--) {
      const klass = chain[index];
      const declarations = ownDeclarations(klass);
      for (const name of declarations.order) owners.set(name, [klass, declarations]);
    }
    owners.forEach(([owner, declarations], name) => fields.push(fieldOf(owner, declarations, name)));
  }
  return new ContractModel(target, fields);
}

class ContractModel implements Contract {
  readonly name: string;
  readonly inputFields: readonly FieldModel[];
  readonly ambientFields: readonly FieldModel[];
  private names?: ReadonlyMap<string, FieldModel>;
  /** Read once, on the first schema written. */
  private raw?: { readonly keywords: Readonly<Record<string, unknown>> | undefined };

  constructor(
    readonly target: Function,
    readonly fields: readonly FieldModel[],
  ) {
    this.name = target.name;
    const ambient = fields.some((field) => field.ambient);
    this.inputFields = ambient ? fields.filter((field) => !field.ambient) : fields;
    this.ambientFields = ambient ? fields.filter((field) => field.ambient) : NO_FIELDS;
  }

  get byName(): ReadonlyMap<string, FieldModel> {
    return (this.names ??= new Map(this.fields.map((field) => [field.name, field])));
  }

  get definitionName(): string | undefined {
    return Reflect.getOwnMetadata(KEYS.schemaName, this.target) as string | undefined;
  }

  get rawKeywords(): Readonly<Record<string, unknown>> | undefined {
    if (this.raw === undefined) this.raw = { keywords: Reflect.getOwnMetadata(KEYS.schemaKeywords, this.target) };
    return this.raw.keywords;
  }
}
