/**
 * Builds one field of the model from `@Field`, `@AmbientContext`, the property's `design:type`,
 * class-validator decorators and class-transformer `@Type`, checking that they agree. The type
 * itself is resolved by ./resolve-type.ts; this adds validators' keywords, `@Field` options,
 * defaults and examples (checked against the field's own rules).
 */
import { Extensions, FIELD_OPTION_KEYS } from '../extensions/extensions';
import { describeValue, isPlainObject } from '../util/describe-value';
import { warn } from '../util/warnings';
import { apiPropertyDocsOf } from '../interop/nestjs-swagger';
import { mismatchOf } from './conforms';
import { validatorLabel, ValidationMetadata } from './sources/class-validator';
import {
  changed,
  Constraint,
  constraintOf,
  copyNode,
  DefaultValue,
  FieldModel,
  MessageFn,
  NO_CONSTRAINTS,
  NodeKind,
  TypeNode,
} from './field-model';
import { messages } from './messages';
import { FieldTypeResolver, NO_OPTIONS, ownTypeMessage, Source, sourceLabel } from './resolve-type';
import { CONSTRAINT_OPTIONS, typeLabel, isJsonLiteral, KEYWORD_KINDS, normalizeEnum, withSortedConstraints } from './type-rules';
import type { FieldDeclaration } from '../metadata/definitions';
import type { FieldOptions } from '../metadata/vocabulary';

const CONSTRAINT_KEYS: ReadonlySet<string> = new Set(CONSTRAINT_OPTIONS);
const NO_METADATA: Readonly<Record<string, unknown>> = Object.freeze({});
const NO_RESIDUAL: readonly ValidationMetadata[] = Object.freeze([]);

/** Whether the options declare any constraint keyword (min, maxLength, enum, …). */
function hasConstraintOptions(options: FieldOptions): boolean {
  if (options === NO_OPTIONS) return false;
  for (const key in options) if (CONSTRAINT_KEYS.has(key) && options[key as keyof FieldOptions] !== undefined) return true;
  return false;
}

class FieldBuilder extends FieldTypeResolver {
  build(): FieldModel {
    const options = this.options;
    const conditional = this.has('conditional');
    const defined = this.has('defined');
    const notEmpty = this.has('notEmpty') ? this.validators.find((v) => v.effects.some((e) => e.kind === 'notEmpty')) : undefined;
    let type = this.applyOptions(this.applyValidators(this.resolveType()));
    if (notEmpty && type.kind === 'string' && !constraintOf(type, 'minLength')) {
      const copy = copyNode(type);
      copy.constraints = [...type.constraints, { keyword: 'minLength', value: 1, message: notEmpty.message }];
      type = copy;
    }
    if (conditional) type = withoutChecks(type);
    type = withSortedConstraints(type);
    let residual: readonly ValidationMetadata[] = NO_RESIDUAL;
    if (conditional) residual = this.validators.map((v) => v.metadata);
    else if (this.hasResidual) residual = this.validators.filter((v) => v.residual).map((v) => v.metadata);
    // Warned about: what the schema cannot show at all (a re-checked built-in's schema says what it can).
    const unschemable = this.validators.filter((v) => v.unschemable);
    if (unschemable.length > 0) {
      const labels = [...new Set(unschemable.map((v) => validatorLabel(v.metadata)))];
      warn({
        code: 'TOOLWRIGHT_UNSCHEMABLE_CONSTRAINT',
        key: this.name,
        message:
          `toolwright: ${this.where} uses ${labels.join(', ')}, which JSON Schema cannot express. ` +
          (conditional
            ? 'Its constraints are checked at run time only, and the schema shows it as optional.'
            : 'It is checked at run time only.') +
          [...new Set(unschemable.map((v) => (v.note ? ` ${v.note}` : '')))].join(''),
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
    // @nestjs/swagger's @ApiProperty documents the property where @Field does not.
    const docs = options.description === undefined || !('example' in options) ? apiPropertyDocsOf(this.owner, this.name) : undefined;
    const example = 'example' in options ? { value: options.example } : docs?.example;
    const field: FieldModel = {
      name: this.name,
      owner: this.owner,
      type,
      optional: defined ? false : (options.optional ?? this.has('optional')),
      nullable: defined ? false : (options.nullable ?? false),
      default: this.defaultValue(),
      description: options.description ?? docs?.description,
      example,
      coerce: options.coerce ?? true,
      allowEmpty: options.allowEmpty ?? false,
      sensitive: options.sensitive ?? false,
      ambient: this.declaration?.ambient,
      metadata,
      residual,
      conditional,
    };
    if (field.default?.kind === 'literal' || field.example)
      this.checkLiterals(field, 'example' in options ? 'example' : '@ApiProperty example');
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
  private checkLiterals(field: FieldModel, exampleLabel: string): void {
    const check = (label: string, value: unknown) => {
      if (value === null) {
        if (!field.nullable) this.fail(`${label} is null but the field is not nullable. Add nullable: true or change the ${label}.`);
        return;
      }
      const mismatch = mismatchOf(field.type, value, this.name) ?? this.floorMismatch(field, value) ?? this.recheckMismatch(field, value);
      if (mismatch)
        this.fail(
          `${label} ${describeValue(value)} breaks the field's own rules: ${mismatch}. Fix the ${label} or the field's constraints.`,
        );
    };
    if (field.default?.kind === 'literal') check('default', field.default.value);
    if (field.example) check(exampleLabel, field.example.value);
  }

  /** What class-validator's re-checked built-ins (`@IsEmail`, `@IsUrl`, …) say of a literal. */
  private recheckMismatch(field: FieldModel, value: unknown): string | undefined {
    if (field.conditional) return undefined;
    for (const validator of this.validators) {
      if (!validator.residual || !validator.check) continue;
      const values = validator.each && Array.isArray(value) ? value : [value];
      for (const item of values) if (!validator.check(item)) return validator.message(this.name, item);
    }
    return undefined;
  }

  private floorMismatch(field: FieldModel, value: unknown): string | undefined {
    if (field.allowEmpty) return undefined;
    const empty =
      value === '' ||
      (Array.isArray(value) && value.length === 0) ||
      (field.type.kind === 'record' && isPlainObject(value) && Object.keys(value).length === 0);
    return empty ? `${messages.notEmpty(this.name, value)} (allow it with allowEmpty: true)` : undefined;
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
    let formatAnnotation = target.formatAnnotation;
    let typeMessage = target.typeMessage;
    for (let v = 0; v < this.validators.length; v++) {
      const validator = this.validators[v];
      if (validator.each !== each) continue;
      for (let e = 0; e < validator.effects.length; e++) {
        const effect = validator.effects[e];
        if (effect.kind === 'keyword') {
          if (effect.scalarItemsOnly && !hasScalarItems(target)) continue;
          this.checkKeywordFits(effect.keyword, target, validator.metadata);
          (constraints ??= [...target.constraints]).push({ keyword: effect.keyword, value: effect.value, message: validator.message });
        } else if (effect.kind === 'enum') {
          enumValues = enumValues ? enumValues.filter((v) => effect.values.includes(v)) : effect.values;
          enumMessage = validator.message;
        } else if (effect.kind === 'type' && effect.format && target.kind === 'string' && !format) {
          format = effect.format;
          typeMessage = ownTypeMessage(validator) ?? messages.format[effect.format] ?? typeMessage;
        } else if (effect.kind === 'type' && effect.annotation && target.kind === 'string' && !formatAnnotation) {
          formatAnnotation = effect.annotation;
        }
      }
    }
    if (
      !constraints &&
      enumValues === target.enum &&
      enumMessage === target.enumMessage &&
      format === target.format &&
      formatAnnotation === target.formatAnnotation
    )
      return target;
    const node = copyNode(target);
    if (constraints) node.constraints = constraints;
    node.enum = enumValues;
    node.enumMessage = enumMessage;
    node.format = format;
    node.formatAnnotation = formatAnnotation;
    node.typeMessage = typeMessage;
    return node;
  }

  private checkKeywordFits(keyword: string, node: TypeNode, source: Source): void {
    const fits = KEYWORD_KINDS[keyword];
    if (fits && !fits.includes(node.kind) && node.kind !== 'enum' && node.kind !== 'union') {
      this.fail(
        `${sourceLabel(source)} applies to ${fits.join(' or ')} values, but the field is ${typeLabel(node)}. Remove it or fix the field's type.`,
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
      if (target.kind !== 'string') this.fail(`'format' applies to strings, but the field is ${typeLabel(target)}.`);
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

const SCALAR_KINDS: ReadonlySet<NodeKind> = new Set<NodeKind>(['string', 'number', 'integer', 'boolean', 'enum']);

/** An array of strings, numbers or booleans (compared by value alike by JSON Schema and by `===`). */
function hasScalarItems(node: TypeNode): boolean {
  return node.kind !== 'array' || (node.items !== undefined && SCALAR_KINDS.has(node.items.kind));
}

/**
 * A `@ValidateIf` field's node: its type only. Every constraint under the condition runs in
 * class-validator alone, so none may show in the schema (a format, an enum, a keyword), here or in
 * an array's items.
 */
function withoutChecks(node: TypeNode): TypeNode {
  const copy = copyNode(node);
  copy.constraints = NO_CONSTRAINTS;
  copy.enum = undefined;
  copy.format = undefined;
  copy.formatAnnotation = undefined;
  if (node.items) copy.items = withoutChecks(node.items);
  return copy;
}

export function buildField(
  owner: Function,
  name: string,
  declaration: FieldDeclaration | undefined,
  metadatas: ValidationMetadata[],
): FieldModel {
  return new FieldBuilder(owner, name, declaration, metadatas).build();
}
