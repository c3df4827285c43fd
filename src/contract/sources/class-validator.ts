/**
 * Reads class-validator's metadata: which constraints a class declares on its own properties, and
 * what each means for the field model (the table is ./class-validator-mapping.ts). Constraints with
 * a JSON Schema form become schema keywords (with class-validator's own messages); class-validator
 * runs the rest, and whatever the schema says only approximately, after schema validation.
 */
import { getFromContainer, getMetadataStorage, ValidationTypes } from 'class-validator';
import { isOptionalMetadata, ValidationMetadata } from '../../interop/class-validator';
import type { MessageFn } from '../field-model';
import { BUILT_IN_MAPPINGS } from './class-validator-mapping';
import type { BuiltInMapping, Effect, Effects, Problem } from './class-validator-mapping';
import { builtInOf, builtInUseOf } from './class-validator-identity';
import { shorten } from '../../util/limits';

export type { ValidationMetadata };

function constraintToString(constraint: unknown): string {
  if (Array.isArray(constraint)) return constraint.join(', ');
  if (typeof constraint === 'symbol') return constraint.description ?? '';
  return `${constraint}`;
}

const TOKENS = /\$(constraint(\d+)|value|property|target)/g;

/** A message template split at its tokens: `literals[0] token[0] literals[1] … literals[n]`. */
interface ParsedTemplate {
  readonly template: string;
  readonly literals: readonly string[];
  /** Each token as matched: the whole of it, its name, and the constraint number (`$constraint2`: '2'). */
  readonly tokens: ReadonlyArray<readonly [whole: string, name: string, index: string | undefined]>;
}

function parseTemplate(template: string): ParsedTemplate {
  const literals: string[] = [];
  const tokens: Array<[string, string, string | undefined]> = [];
  let last = 0;
  for (const match of template.matchAll(TOKENS)) {
    literals.push(template.slice(last, match.index));
    tokens.push([match[0], match[1], match[2]]);
    last = match.index! + match[0].length;
  }
  literals.push(template.slice(last));
  return { template, literals, tokens };
}

/** class-validator's message for a constraint, with its special tokens replaced (in one pass). */
export function classValidatorMessage(metadata: ValidationMetadata, owner: Function): MessageFn {
  const constraints: unknown[] = metadata.constraints ?? [];
  // The last template this constraint's message came from, split once: one per constraint, so the
  // memory stays bounded whatever a message function returns.
  let parsed: ParsedTemplate | undefined;
  return (property, value) => {
    const args = { value, constraints, targetName: owner.name, object: {}, property };
    let template: unknown = metadata.message;
    if (typeof template === 'function') template = (template as (a: typeof args) => string)(args);
    if (typeof template !== 'string' || template === '') {
      const constraint = metadata.constraintCls
        ? (getFromContainer(metadata.constraintCls) as { defaultMessage?: (a: typeof args) => string })
        : undefined;
      template = constraint?.defaultMessage?.(args) || `$property failed the ${metadata.name ?? metadata.type} check`;
    }
    const showValue = value !== undefined && value !== null && ['string', 'boolean', 'number'].includes(typeof value);
    let current = parsed;
    if (current === undefined || current.template !== template) current = parsed = parseTemplate(template as string);
    const { literals, tokens } = current;
    let message = literals[0];
    for (let i = 0; i < tokens.length; i++) {
      const [token, name, index] = tokens[i];
      if (index !== undefined)
        message += Number(index) - 1 < constraints.length ? constraintToString(constraints[Number(index) - 1]) : token;
      else if (name === 'value')
        message += showValue ? shorten(String(value)) : token; // a caller's value: quoted, bounded
      else if (name === 'property') message += property;
      else message += owner.name;
      message += literals[i + 1];
    }
    return message;
  };
}

export type { Effect, Runtime } from './class-validator-mapping';

export interface MappedValidator {
  readonly metadata: ValidationMetadata;
  readonly effects: readonly Effect[];
  /** class-validator checks it at run time, after schema validation (`recheck` or `residual`). */
  readonly residual: boolean;
  /** It has no JSON Schema form at all (`residual`): reported with a warning. */
  readonly unschemable: boolean;
  /** Why the schema cannot show it, and what to do (for the warning). */
  readonly note?: string;
  /** Applies to each element of an array value. */
  readonly each: boolean;
  readonly message: MessageFn;
  /** A built-in's own check (class-validator's exported function, with its constraints), for literals. */
  readonly check?: (value: unknown) => boolean;
}

const OPTIONAL: Effects = { effects: [{ kind: 'optional' }], runtime: 'exact' };
const CONDITIONAL: Effects = { effects: [{ kind: 'conditional' }], runtime: 'residual' };
const NESTED: Effects = { effects: [{ kind: 'nested' }], runtime: 'exact' };
const IGNORE: Effects = { effects: [{ kind: 'ignore' }], runtime: 'exact' };
const DEFINED: Effects = { effects: [{ kind: 'defined' }], runtime: 'exact' };
const RESIDUAL: Effects = { effects: [], runtime: 'residual' };

// Read once: the package's CommonJS index re-exports through getters, one call per read.
const { CONDITIONAL_VALIDATION, NESTED_VALIDATION, WHITELIST, IS_DEFINED, CUSTOM_VALIDATION } = ValidationTypes;

function effectsOf(metadata: ValidationMetadata): Effects & { readonly builtIn?: BuiltInMapping } {
  switch (metadata.type) {
    case CONDITIONAL_VALIDATION:
      return isOptionalMetadata(metadata) ? OPTIONAL : CONDITIONAL;
    case NESTED_VALIDATION:
      return NESTED;
    case WHITELIST:
      return IGNORE;
    case IS_DEFINED:
      return DEFINED;
    case CUSTOM_VALIDATION:
      break;
    default:
      return RESIDUAL;
  }
  // A custom constraint registered under a built-in's name is not the built-in: class-validator runs it.
  return builtInUseOf(metadata)?.effects ?? RESIDUAL;
}

const NO_PARAMS: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * The rule a value refused by class-validator broke, as a FieldError names it: a re-checked
 * built-in in JSON Schema's words (`format: email`, `minLength`), any other constraint by its
 * registered name (`@ValidatorConstraint({ name })`, `isCreditCard`).
 */
export function residualProblem(metadata: ValidationMetadata): Problem {
  if (metadata.type === IS_DEFINED) return { keyword: 'required', params: NO_PARAMS };
  const problem = builtInOf(metadata)?.problem;
  if (problem) return problem(metadata.constraints ?? []);
  if (metadata.name) return { keyword: metadata.name, params: NO_PARAMS };
  const constraint = metadata.constraintCls && getMetadataStorage().getTargetValidatorConstraints(metadata.constraintCls)[0];
  return { keyword: constraint?.name || metadata.constraintCls?.name || metadata.type, params: NO_PARAMS };
}

/** Maps one class-validator decorator to its meaning for the field model. */
export function mapValidator(metadata: ValidationMetadata, owner: Function): MappedValidator {
  const { effects, runtime, builtIn, note } = effectsOf(metadata);
  const constraints: readonly unknown[] = metadata.constraints ?? [];
  return {
    // Only a re-checked built-in's own check is asked (of a literal default or example).
    check: builtIn && runtime !== 'exact' ? (value) => builtIn.reference(value, constraints) : undefined,
    metadata,
    effects,
    residual: runtime !== 'exact',
    unschemable: runtime === 'residual',
    note,
    each: metadata.each === true,
    message: classValidatorMessage(metadata, owner),
  };
}

/** A readable name for a validator in warnings (`@Validate(IsPrime)`, `@ValidateIf`). */
export function validatorLabel(metadata: ValidationMetadata): string {
  if (metadata.type === CONDITIONAL_VALIDATION) return isOptionalMetadata(metadata) ? '@IsOptional' : '@ValidateIf';
  const name = metadata.name || metadata.constraintCls?.name || metadata.type;
  const label = `@${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  // A look-alike is named as one: the warning must not read as if the built-in had no schema.
  return metadata.name && Object.prototype.hasOwnProperty.call(BUILT_IN_MAPPINGS, metadata.name) && !builtInOf(metadata)
    ? `a custom constraint registered as '${metadata.name}'`
    : label;
}
