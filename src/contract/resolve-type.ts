/**
 * Resolves the type of one field of the model: from `@Field({ type | anyOf })`, class-transformer
 * `@Type`, class-validator's type decorators and the property's `design:type`, checking that they
 * agree. The field builder (./field-builder.ts) adds keywords, options and the rest.
 */
import 'reflect-metadata';
import { describeValue, isClass } from '../util/describe-value';
import { Effect, mapValidator, MappedValidator, validatorLabel, ValidationMetadata } from './sources/class-validator';
import { copyNode, MessageFn, newNode, NodeKind, TypeNode } from './field-model';
import { messages } from './messages';
import { missingTypeMetadata } from './type-metadata';
import { NOT_CONTRACT_CLASSES, typeLabel, DESIGN_TYPES, findTypeMetadata, normalizeEnum, UNSUPPORTED } from './type-rules';
import type { FieldDeclaration } from '../metadata/definitions';
import { FieldFormat, FieldOptions, Integer, TypeSpec } from '../metadata/vocabulary';
import { DeclarationError, SetupError } from '../errors/declaration-errors';

const NO_VALIDATORS: MappedValidator[] = [];
export const NO_OPTIONS: FieldOptions = Object.freeze({});

type TypeEffect = Extract<Effect, { kind: 'type' }>;

/** The validator's effect of a kind (IsString's type, Min's keyword), if it has one. */
function effectOf<K extends Effect['kind']>(validator: MappedValidator, kind: K): Extract<Effect, { kind: K }> | undefined {
  for (let e = 0; e < validator.effects.length; e++) {
    if (validator.effects[e].kind === kind) return validator.effects[e] as Extract<Effect, { kind: K }>;
  }
  return undefined;
}

/**
 * The message a declaration wrote for a type-declaring decorator (`@IsString({ message })`), if any.
 * A value of the wrong type reads it; without one it reads toolwright's for the type (`applicant
 * must be a string`), never another constraint's: `@MaxLength` implies a string, and its message
 * does not say the value must be one.
 */
export function ownTypeMessage(validator: MappedValidator): MessageFn | undefined {
  const written = validator.metadata.message;
  if (written === undefined || written === '') return undefined;
  return validator.effects.every((effect) => effect.kind === 'type') ? validator.message : undefined;
}

/** What declared a type or keyword, for an error: a label, or the class-validator decorator. */
export type Source = string | ValidationMetadata;

export function sourceLabel(source: Source): string {
  return typeof source === 'string' ? source : validatorLabel(source);
}

/** How specific a type-declaring validator is: a scalar over a container, a format over none. */
function typeRank(effect: TypeEffect): number {
  return (effect.type === 'array' || effect.type === 'record' ? 0 : 2) + (effect.format ? 1 : 0);
}

function compatibleTypes(a: string, b: string): boolean {
  return a === b || (a === 'integer' && b === 'number') || (a === 'number' && b === 'integer');
}

const KIND_BITS: Record<Effect['kind'], number> = {
  type: 1,
  keyword: 2,
  enum: 4,
  optional: 8,
  defined: 16,
  notEmpty: 32,
  nested: 64,
  conditional: 128,
  ignore: 256,
};

/** The type-resolving half of building one field: its declarations, read once, and its type. */
export class FieldTypeResolver {
  protected readonly validators: MappedValidator[];

  constructor(
    readonly owner: Function,
    readonly name: string,
    readonly declaration: FieldDeclaration | undefined,
    metadatas: ValidationMetadata[],
  ) {
    this.validators = metadatas.length === 0 ? NO_VALIDATORS : metadatas.map((metadata) => mapValidator(metadata, owner));
    for (let v = 0; v < this.validators.length; v++) {
      const validator = this.validators[v];
      if (validator.each) this.hasEach = true;
      if (validator.residual) this.hasResidual = true;
      for (let e = 0; e < validator.effects.length; e++) this.kinds |= KIND_BITS[validator.effects[e].kind];
    }
  }

  private kinds = 0;
  /** Some validator applies to each element (`{ each: true }`). */
  protected hasEach = false;
  /** Some validator has no JSON Schema form. */
  protected hasResidual = false;

  get where(): string {
    return `${this.owner.name}.${this.name}`;
  }

  get options(): FieldOptions {
    return this.declaration?.options ?? NO_OPTIONS;
  }

  fail(message: string, Kind: typeof DeclarationError | typeof SetupError = DeclarationError): never {
    throw new Kind(`${this.where}: ${message}`, { class: this.owner, member: this.name });
  }

  /** The first validator applying to the value (or to each element) with an effect of a kind. */
  private firstWith(each: boolean, kind: Effect['kind']): MappedValidator | undefined {
    for (let v = 0; v < this.validators.length; v++) {
      if (this.validators[v].each === each && effectOf(this.validators[v], kind)) return this.validators[v];
    }
    return undefined;
  }

  has(kind: Effect['kind']): boolean {
    return (this.kinds & KIND_BITS[kind]) !== 0;
  }

  /**
   * The field's type as its declarations give it, before validators' keywords and `@Field`
   * constraint options apply: from `anyOf`, `@Field({ type })`, `@Type`, or class-validator's type
   * decorators and the property's design:type (which must agree).
   */
  resolveType(): TypeNode {
    const options = this.options;
    const design = Reflect.getOwnMetadata('design:type', this.owner.prototype, this.name) as unknown;
    let node: TypeNode;
    let typeMeta: { typeFunction?: () => unknown } | undefined;
    if (options.anyOf) {
      const members = options.anyOf();
      if (!Array.isArray(members) || members.length < 2)
        this.fail(`'anyOf' must return at least two member types; got ${describeValue(members)}.`);
      node = this.union(members);
      if (design === Array) node = this.arrayOf(node);
    } else if (options.type !== undefined) {
      const spec = isClass(options.type) || Array.isArray(options.type) ? options.type : (options.type as () => TypeSpec)();
      node = this.fromSpec(spec, '@Field({ type })');
      this.checkDesign(node, design, 'the @Field type');
    } else if ((typeMeta = findTypeMetadata(this.owner, this.name))?.typeFunction) {
      const spec = typeMeta!.typeFunction!() as TypeSpec;
      node = this.fromSpec(spec, '@Type');
      // class-transformer's @Type names the element type of an array property.
      if (design === Array && node.kind !== 'array') node = this.arrayOf(node);
      this.checkDesign(node, design, '@Type');
    } else {
      node = this.inferred(design);
    }
    return node;
  }

  /** The type from class-validator's type decorators and the property's design:type. */
  private inferred(design: unknown): TypeNode {
    const fromValidators = this.pickValidatorType(false);
    if (UNSUPPORTED.has(design)) this.fail(`${UNSUPPORTED.get(design)} cannot be represented in JSON. Use a plain object or an array.`);
    if (fromValidators) {
      const validator = fromValidators;
      const effect = effectOf(validator, 'type')!;
      const kind = effect.type === 'record' && isClass(design) && !NOT_CONTRACT_CLASSES.has(design) ? 'object' : effect.type;
      const node =
        kind === 'object' ? this.objectNode(design as Function) : this.scalar(kind, effect.format, this.typeMessage(false, kind));
      if (kind === 'array') return this.arrayFromEach(node);
      this.checkDesign(node, design, validator.metadata);
      return node;
    }
    if (design === String) return this.scalar('string');
    if (design === Number) return this.scalar('number');
    if (design === Boolean) return this.scalar('boolean');
    if (design === Date) return this.scalar('date');
    if (design === Array) return this.arrayFromEach(this.scalar('array'));
    if (isClass(design) && !NOT_CONTRACT_CLASSES.has(design)) return this.objectNode(design);
    const enumValidator = this.firstWith(false, 'enum');
    const enumValues =
      (this.options.enum !== undefined ? normalizeEnum(this.options.enum) : undefined) ??
      (enumValidator ? effectOf(enumValidator, 'enum')!.values : undefined);
    if (enumValues) return newNode('enum', messages.enum(enumValues));
    if (this.options.nullable && design === Object) {
      this.fail(
        'is nullable, and TypeScript reflects a type such as string | null as Object. Declare the type: @Field({ type: () => String, nullable: true }).',
      );
    }
    if (design === undefined) {
      const setup = missingTypeMetadata(this.owner);
      if (setup) this.fail(`the type of this property is not visible: ${setup}`, SetupError);
      this.fail(
        "reflection cannot see this property's type (a circular reference, or a class declared after it is used). Declare it with @Field({ type: () => MyClass }).",
      );
    }
    return this.fail(
      "reflection cannot see this property's type (an interface, a union, or any: it reflects as Object). " +
        'Declare it with @Field({ type: () => MyClass }), @Field({ type: () => [Tag] }) for an array, or @Field({ anyOf: () => [A, B] }) for a union.',
    );
  }

  /**
   * The type the type-declaring validators (IsString, IsInt, …) give the value or each element: a
   * scalar type is more specific than a container (MaxLength implies a string too), a format more
   * than none, and integer narrower than number. Validators that disagree are a mistake.
   */
  private pickValidatorType(each: boolean): MappedValidator | undefined {
    let first: MappedValidator | undefined;
    let integer: MappedValidator | undefined;
    for (let v = 0; v < this.validators.length; v++) {
      const validator = this.validators[v];
      const effect = validator.each === each ? effectOf(validator, 'type') : undefined;
      if (!effect) continue;
      if (!first || typeRank(effect) > typeRank(effectOf(first, 'type')!)) first = validator;
      if (!integer && effect.type === 'integer') integer = validator;
    }
    if (!first) return undefined;
    const type = effectOf(first, 'type')!.type;
    for (let v = 0; v < this.validators.length; v++) {
      const other = this.validators[v].each === each ? effectOf(this.validators[v], 'type') : undefined;
      if (other && !compatibleTypes(type, other.type)) this.failDisagreement(each);
    }
    return type === 'number' && integer ? integer : first;
  }

  /** The message a declaration wrote for the value's (or each element's) type, if it wrote one: ownTypeMessage. */
  private typeMessage(each: boolean, type: string): MessageFn | undefined {
    for (let v = 0; v < this.validators.length; v++) {
      const validator = this.validators[v];
      const message = validator.each === each && effectOf(validator, 'type')?.type === type ? ownTypeMessage(validator) : undefined;
      if (message) return message;
    }
    return undefined;
  }

  /** Names the first pair of type-declaring validators that disagree, most specific first. */
  private failDisagreement(each: boolean): never {
    const typed = this.validators
      .filter((validator) => validator.each === each && effectOf(validator, 'type'))
      .map((validator) => ({ validator, type: effectOf(validator, 'type')! }))
      .sort((a, b) => typeRank(b.type) - typeRank(a.type));
    const other = typed.find((e) => !compatibleTypes(typed[0].type.type, e.type.type))!;
    return this.fail(
      `${validatorLabel(typed[0].validator.metadata)} and ${validatorLabel(other.validator.metadata)} disagree about the type. Keep the one that is true.`,
    );
  }

  private scalar(kind: NodeKind, format?: FieldFormat, typeMessage?: MessageFn): TypeNode {
    const base =
      kind === 'string' && format
        ? (messages.format[format] ?? messages.string)
        : ((messages as unknown as Record<string, MessageFn>)[kind] ?? messages.object);
    const node = newNode(kind, typeMessage ?? base);
    node.format = format;
    return node;
  }

  private objectNode(target: Function): TypeNode {
    const node = newNode('object', messages.object);
    node.target = target;
    return node;
  }

  private arrayOf(items: TypeNode): TypeNode {
    const node = newNode('array', messages.array);
    node.items = items;
    return node;
  }

  /** An array whose element type comes from `{ each: true }` validators. */
  private arrayFromEach(array: TypeNode): TypeNode {
    const picked = this.pickValidatorType(true);
    const eachEnum = picked ? undefined : this.firstWith(true, 'enum');
    let items: TypeNode | undefined;
    if (picked) {
      const { type, format } = effectOf(picked, 'type')!;
      items = this.scalar(type, format, this.typeMessage(true, type));
    }
    // The values themselves are applied with the other { each: true } validators.
    else if (eachEnum) items = newNode('enum', eachEnum.message);
    if (!items) {
      this.fail(
        'is an array, and reflection cannot see its element type. Declare it with @Field({ type: () => [Tag] }) (or [String], [Integer], …).',
      );
    }
    const node = copyNode(array);
    node.items = items;
    return node;
  }

  private fromSpec(spec: unknown, source: string): TypeNode {
    if (Array.isArray(spec)) {
      if (spec.length !== 1) this.fail(`${source}: an array type lists exactly one element type, e.g. [Tag]; got ${describeValue(spec)}.`);
      return this.arrayOf(this.fromSpec(spec[0], source));
    }
    if (spec === String) return this.scalar('string');
    if (spec === Number) return this.scalar('number');
    if (spec === Integer) return this.scalar('integer');
    if (spec === Boolean) return this.scalar('boolean');
    if (spec === Date) return this.scalar('date');
    if (spec === Object) return newNode('record', messages.object);
    if (spec === Array) this.fail(`${source}: Array has no element type. Use [ElementType], e.g. type: () => [Tag].`);
    if (UNSUPPORTED.has(spec))
      this.fail(`${source}: ${UNSUPPORTED.get(spec)} cannot be represented in JSON. Use a plain object or an array.`);
    if (isClass(spec)) return this.objectNode(spec);
    return this.fail(
      `${source}: expected a class, Integer, or [Type]; got ${describeValue(spec)}. If this is a circular import, use a thunk: () => MyClass.`,
    );
  }

  private union(members: readonly unknown[]): TypeNode {
    const nodes = members.map((member) => this.fromSpec(member, '@Field({ anyOf })'));
    const names = members.map((member) =>
      Array.isArray(member) ? `${(member[0] as Function)?.name}[]` : ((member as Function)?.name ?? String(member)),
    );
    const node = newNode('union', messages.union(names));
    node.members = nodes;
    return node;
  }

  /** The reflected design:type must agree with what the declarations say. */
  private checkDesign(node: TypeNode, design: unknown, declaredBy: Source): void {
    if (design === undefined || design === Object) return;
    if (node.kind === 'object' || node.kind === 'union' || node.kind === 'enum') {
      if (design === Array)
        this.fail(
          `is declared as an array, but ${sourceLabel(declaredBy)} names a single ${typeLabel(node)}. Use type: () => [${typeLabel(node)}].`,
        );
      return;
    }
    const allowed = DESIGN_TYPES[node.kind];
    if (allowed && allowed !== design) {
      if (design === Array)
        this.fail(
          `is declared as an array, but ${sourceLabel(declaredBy)} says ${typeLabel(node)}. For an array use type: () => [${typeLabel(node)}], or { each: true }.`,
        );
      this.fail(
        `is declared as ${describeValue(design)}, but ${sourceLabel(declaredBy)} says ${typeLabel(node)}. Make the property's type and its declaration agree.`,
      );
    }
  }
}
