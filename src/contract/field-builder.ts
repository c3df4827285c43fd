/**
 * Builds one field of the model from `@Field`, `@AmbientContext`, the property's `design:type`,
 * class-validator decorators and class-transformer `@Type`, checking that they agree.
 */
import 'reflect-metadata';
import { Extensions, FIELD_OPTION_KEYS } from '../extensions/extensions';
import { describeValue, isClass, isPlainObject } from '../util/describe-value';
import { warn } from '../util/warnings';
import { describeMismatch } from './conforms';
import { Effect, mapValidator, MappedValidator, validatorLabel, ValidationMetadata } from './sources/class-validator';
import {
  changed,
  Constraint,
  constraintOf,
  copyNode,
  DefaultValue,
  FieldModel,
  MessageFn,
  newNode,
  NO_CONSTRAINTS,
  NodeKind,
  TypeNode,
} from './field-model';
import { messages } from './messages';
import { missingTypeMetadata } from './type-metadata';
import {
  BUILT_INS,
  CONSTRAINT_OPTIONS,
  describeNode,
  DESIGN_TYPES,
  findTypeMetadata,
  isJsonLiteral,
  KEYWORD_KINDS,
  normalizeEnum,
  UNSUPPORTED,
  withSortedConstraints,
} from './type-rules';
import { FieldDeclaration, FieldFormat, FieldOptions, Integer, TypeSpec } from './types';

const NO_VALIDATORS: MappedValidator[] = [];
const CONSTRAINT_KEYS: ReadonlySet<string> = new Set(CONSTRAINT_OPTIONS);
const NO_OPTIONS: FieldOptions = Object.freeze({});
const NO_METADATA: Readonly<Record<string, unknown>> = Object.freeze({});
const NO_RESIDUAL: readonly ValidationMetadata[] = Object.freeze([]);

type TypeEffect = Extract<Effect, { kind: 'type' }>;

/** The validator's effect of a kind (IsString's type, Min's keyword), if it has one. */
function effectOf<K extends Effect['kind']>(validator: MappedValidator, kind: K): Extract<Effect, { kind: K }> | undefined {
  for (let e = 0; e < validator.effects.length; e++) {
    if (validator.effects[e].kind === kind) return validator.effects[e] as Extract<Effect, { kind: K }>;
  }
  return undefined;
}

/** What declared a type or keyword, for an error: a label, or the class-validator decorator. */
type Source = string | ValidationMetadata;

function sourceLabel(source: Source): string {
  return typeof source === 'string' ? source : validatorLabel(source);
}

/** How specific a type-declaring validator is: a scalar over a container, a format over none. */
function typeRank(effect: TypeEffect): number {
  return (effect.type === 'array' || effect.type === 'record' ? 0 : 2) + (effect.format ? 1 : 0);
}

function compatibleTypes(a: string, b: string): boolean {
  return a === b || (a === 'integer' && b === 'number') || (a === 'number' && b === 'integer');
}

/** Whether the options declare any constraint keyword (min, maxLength, enum, …). */
function hasConstraintOptions(options: FieldOptions): boolean {
  if (options === NO_OPTIONS) return false;
  for (const key in options) if (CONSTRAINT_KEYS.has(key) && options[key as keyof FieldOptions] !== undefined) return true;
  return false;
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

class FieldBuilder {
  private readonly validators: MappedValidator[];

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
  private hasEach = false;
  /** Some validator has no JSON Schema form. */
  private hasResidual = false;

  get where(): string {
    return `${this.owner.name}.${this.name}`;
  }

  get options(): FieldOptions {
    return this.declaration?.options ?? NO_OPTIONS;
  }

  fail(message: string): never {
    throw new TypeError(`${this.where}: ${message}`);
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

  build(): FieldModel {
    const options = this.options;
    const conditional = this.has('conditional');
    const defined = this.has('defined');
    const notEmpty = this.has('notEmpty') ? this.validators.find((v) => v.effects.some((e) => e.kind === 'notEmpty')) : undefined;
    let type = this.resolveType();
    if (notEmpty && type.kind === 'string' && !constraintOf(type, 'minLength')) {
      const copy = copyNode(type);
      copy.constraints = [...type.constraints, { keyword: 'minLength', value: 1, message: notEmpty.message }];
      type = copy;
    }
    if (conditional) {
      // Everything under @ValidateIf runs in class-validator only; the schema shows the type.
      const copy = copyNode(type);
      copy.constraints = NO_CONSTRAINTS;
      copy.enum = undefined;
      type = copy;
    }
    type = withSortedConstraints(type);
    let residual: readonly ValidationMetadata[] = NO_RESIDUAL;
    if (conditional) residual = this.validators.map((v) => v.metadata);
    else if (this.hasResidual) residual = this.validators.filter((v) => v.residual).map((v) => v.metadata);
    if (residual.length > 0) {
      const labels = [...new Set(this.validators.filter((v) => v.residual).map((v) => validatorLabel(v.metadata)))];
      warn({
        code: 'TOOLWRIGHT_UNSCHEMABLE_CONSTRAINT',
        key: this.name,
        message:
          `toolwright: ${this.where} uses ${labels.join(', ')}, which JSON Schema cannot express. ` +
          (conditional
            ? 'Its constraints are checked at run time only, and the schema shows it as optional.'
            : 'It is checked at run time only.'),
      });
    }
    let metadata: Readonly<Record<string, unknown>> = NO_METADATA;
    if (Extensions.hasFieldMetadataKeys()) {
      const found: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(options)) {
        if (!(FIELD_OPTION_KEYS as readonly string[]).includes(key) && Extensions.isFieldMetadataKey(key)) found[key] = value;
      }
      metadata = found;
    }
    const field: FieldModel = {
      name: this.name,
      owner: this.owner,
      type,
      optional: defined ? false : (options.optional ?? this.has('optional')),
      nullable: defined ? false : (options.nullable ?? false),
      default: this.defaultValue(),
      description: options.description,
      example: 'example' in options ? { value: options.example } : undefined,
      coerce: options.coerce ?? true,
      allowEmpty: options.allowEmpty ?? false,
      sensitive: options.sensitive ?? false,
      ambient: this.declaration?.ambient,
      metadata,
      residual,
      conditional,
    };
    if (field.default?.kind === 'literal' || field.example) this.checkLiterals(field);
    return field;
  }

  private defaultValue(): DefaultValue | undefined {
    const options = this.options;
    if (!('default' in options) || options.default === undefined) return undefined;
    const value = options.default;
    if (typeof value === 'function') return { kind: 'factory', factory: value as () => unknown };
    if (!isJsonLiteral(value)) {
      this.fail(
        `default ${describeValue(value)} is not a JSON value. Use a literal (string, number, boolean, null, Date, array, plain object) or a function that returns the default.`,
      );
    }
    return { kind: 'literal', value };
  }

  /** A literal default or example must satisfy the field's own rules, empty-value floor included. */
  private checkLiterals(field: FieldModel): void {
    const check = (label: string, value: unknown) => {
      if (value === null) {
        if (!field.nullable) this.fail(`${label} is null but the field is not nullable. Add nullable: true or change the ${label}.`);
        return;
      }
      const mismatch = describeMismatch(field.type, value, this.name) ?? this.floorMismatch(field, value);
      if (mismatch)
        this.fail(
          `${label} ${describeValue(value)} breaks the field's own rules: ${mismatch}. Fix the ${label} or the field's constraints.`,
        );
    };
    if (field.default?.kind === 'literal') check('default', field.default.value);
    if (field.example) check('example', field.example.value);
  }

  private floorMismatch(field: FieldModel, value: unknown): string | undefined {
    if (field.allowEmpty) return undefined;
    const empty =
      value === '' ||
      (Array.isArray(value) && value.length === 0) ||
      (field.type.kind === 'record' && isPlainObject(value) && Object.keys(value).length === 0);
    return empty ? `${messages.notEmpty(this.name, value)} (allow it with allowEmpty: true)` : undefined;
  }

  private resolveType(): TypeNode {
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
    node = this.applyValidators(node);
    return this.applyOptions(node);
  }

  /** The type from class-validator's type decorators and the property's design:type. */
  private inferred(design: unknown): TypeNode {
    const fromValidators = this.pickValidatorType(false);
    if (UNSUPPORTED.has(design)) this.fail(`${UNSUPPORTED.get(design)} cannot be represented in JSON. Use a plain object or an array.`);
    if (fromValidators) {
      const validator = fromValidators;
      const effect = effectOf(validator, 'type')!;
      const kind = effect.type === 'record' && isClass(design) && !BUILT_INS.has(design) ? 'object' : effect.type;
      const node = kind === 'object' ? this.objectNode(design as Function) : this.scalar(kind, effect.format, validator.message);
      if (kind === 'array') return this.arrayFromEach(node);
      this.checkDesign(node, design, validator.metadata);
      return node;
    }
    if (design === String) return this.scalar('string');
    if (design === Number) return this.scalar('number');
    if (design === Boolean) return this.scalar('boolean');
    if (design === Date) return this.scalar('date');
    if (design === Array) return this.arrayFromEach(this.scalar('array'));
    if (isClass(design) && !BUILT_INS.has(design)) return this.objectNode(design);
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
      if (setup) this.fail(`the type of this property is not visible: ${setup}`);
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
      items = this.scalar(type, format, picked.message);
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
          `is declared as an array, but ${sourceLabel(declaredBy)} names a single ${describeNode(node)}. Use type: () => [${describeNode(node)}].`,
        );
      return;
    }
    const allowed = DESIGN_TYPES[node.kind];
    if (allowed && allowed !== design) {
      if (design === Array)
        this.fail(
          `is declared as an array, but ${sourceLabel(declaredBy)} says ${describeNode(node)}. For an array use type: () => [${describeNode(node)}], or { each: true }.`,
        );
      this.fail(
        `is declared as ${describeValue(design)}, but ${sourceLabel(declaredBy)} says ${describeNode(node)}. Make the property's type and its declaration agree.`,
      );
    }
  }

  private applyValidators(node: TypeNode): TypeNode {
    if (this.validators.length === 0) return node;
    let result = this.applyEffects(node, false);
    if (result.kind === 'array' && result.items) {
      const items = this.applyEffects(result.items, true);
      if (items !== result.items) result = changed(result, { items });
    } else if (this.hasEach) {
      this.fail(`uses { each: true } but is not an array. Declare it as an array (type: () => [T]) or drop each.`);
    }
    return result;
  }

  /** Applies validators' keywords, enums and formats to a node; the node itself when none apply. */
  private applyEffects(target: TypeNode, each: boolean): TypeNode {
    let constraints: Constraint[] | undefined;
    let enumValues = target.enum;
    let enumMessage = target.enumMessage;
    let format = target.format;
    let typeMessage = target.typeMessage;
    for (let v = 0; v < this.validators.length; v++) {
      const validator = this.validators[v];
      if (validator.each !== each) continue;
      for (let e = 0; e < validator.effects.length; e++) {
        const effect = validator.effects[e];
        if (effect.kind === 'keyword') {
          this.checkKeywordFits(effect.keyword, target, validator.metadata);
          (constraints ??= [...target.constraints]).push({ keyword: effect.keyword, value: effect.value, message: validator.message });
        } else if (effect.kind === 'enum') {
          enumValues = enumValues ? enumValues.filter((v) => effect.values.includes(v)) : effect.values;
          enumMessage = validator.message;
        } else if (effect.kind === 'type' && effect.format && target.kind === 'string' && !format) {
          format = effect.format;
          typeMessage = validator.message;
        }
      }
    }
    if (!constraints && enumValues === target.enum && enumMessage === target.enumMessage && format === target.format) return target;
    const node = copyNode(target);
    if (constraints) node.constraints = constraints;
    node.enum = enumValues;
    node.enumMessage = enumMessage;
    node.format = format;
    node.typeMessage = typeMessage;
    return node;
  }

  private checkKeywordFits(keyword: string, node: TypeNode, source: Source): void {
    const fits = KEYWORD_KINDS[keyword];
    if (fits && !fits.includes(node.kind) && node.kind !== 'enum' && node.kind !== 'union') {
      this.fail(
        `${sourceLabel(source)} applies to ${fits.join(' or ')} values, but the field is ${describeNode(node)}. Remove it or fix the field's type.`,
      );
    }
  }

  /** `@Field` constraint options: string and number keywords go to the value, or to an array's items. */
  private applyOptions(node: TypeNode): TypeNode {
    const o = this.options;
    if (!hasConstraintOptions(o)) return node;
    const add = (target: TypeNode, keyword: string, value: unknown, message: MessageFn): TypeNode => {
      this.checkKeywordFits(keyword, target, `@Field({ ${keyword} })`);
      return changed(target, { constraints: [...target.constraints.filter((c) => c.keyword !== keyword), { keyword, value, message }] });
    };
    const scalarTarget = (keywordKinds: NodeKind[]) =>
      node.kind === 'array' && node.items && keywordKinds.includes(node.items.kind) ? 'items' : 'value';
    const onScalar = (keyword: string, value: unknown, message: MessageFn, kinds: NodeKind[]) => {
      if (scalarTarget(kinds) === 'items') node = changed(node, { items: add(node.items!, keyword, value, message) });
      else node = add(node, keyword, value, message);
    };
    if (o.min !== undefined) onScalar('minimum', o.min, messages.minimum(o.min), ['number', 'integer']);
    if (o.max !== undefined) onScalar('maximum', o.max, messages.maximum(o.max), ['number', 'integer']);
    if (o.minLength !== undefined) onScalar('minLength', o.minLength, messages.minLength(o.minLength), ['string']);
    if (o.maxLength !== undefined) onScalar('maxLength', o.maxLength, messages.maxLength(o.maxLength), ['string']);
    if (o.pattern !== undefined) {
      const source = o.pattern instanceof RegExp ? o.pattern.source : o.pattern;
      if (o.pattern instanceof RegExp && o.pattern.flags.replace(/[gu]/g, ''))
        this.fail(`'pattern' flags /${o.pattern.flags} cannot be expressed in JSON Schema; write the pattern without them.`);
      onScalar('pattern', source, messages.pattern(source), ['string']);
    }
    if (o.format !== undefined) {
      const target = scalarTarget(['string']) === 'items' ? node.items! : node;
      if (target.kind !== 'string') this.fail(`'format' applies to strings, but the field is ${describeNode(target)}.`);
      const formatted = changed(target, { format: o.format, typeMessage: messages.format[o.format] });
      node = target === node ? formatted : changed(node, { items: formatted });
    }
    if (o.minItems !== undefined) node = add(node, 'minItems', o.minItems, messages.minItems(o.minItems));
    if (o.maxItems !== undefined) node = add(node, 'maxItems', o.maxItems, messages.maxItems(o.maxItems));
    if (o.uniqueItems) node = add(node, 'uniqueItems', true, messages.uniqueItems);
    if (o.enum !== undefined) {
      const values = normalizeEnum(o.enum)!;
      const message = messages.enum(values);
      if (node.kind === 'array' && node.items) node = changed(node, { items: changed(node.items, { enum: values, enumMessage: message }) });
      else node = changed(node, { enum: values, enumMessage: message, typeMessage: node.kind === 'enum' ? message : node.typeMessage });
    }
    return node;
  }
}

export function buildField(
  owner: Function,
  name: string,
  declaration: FieldDeclaration | undefined,
  metadatas: ValidationMetadata[],
): FieldModel {
  return new FieldBuilder(owner, name, declaration, metadatas).build();
}
