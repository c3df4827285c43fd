/**
 * Validation compiled from the same field model as the schema: ajv compiles the contract's own
 * input JSON Schema (so a call that follows the advertised schema is never rejected), and its
 * errors are turned back into the field model's messages.
 */
import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { contractOf } from '../contract/build-contract';
import { isDateTime } from '../contract/conforms';
import { constraintOf, Contract, FieldModel, TypeNode } from '../contract/field-model';
import { messages } from '../contract/messages';
import type { FieldOrder, InputProblems } from './input-problems';
import { SchemaDirection, validatedContractSchema } from '../schema/build-schema';
import { rawKeywordProblem } from './raw-keyword-errors';

/**
 * The options every validator of toolwright's schemas shares (the differential test compiles the
 * advertised schemas with them too): numbers are finite (NaN and ±Infinity are no JSON numbers,
 * whatever reached the invoker), and `multipleOf` is read as JSON Schema defines it (the quotient
 * is an integer), which ajv's default check misses past 2^53.
 */
const AJV_OPTIONS = { strict: false, strictNumbers: true, multipleOfPrecision: 12 } as const;

function makeAjv(allErrors: boolean): Ajv2020 {
  // No code optimization pass: it halves compile time (paid on each tool's first call) and
  // measured no difference in validation speed.
  const ajv = new Ajv2020({
    ...AJV_OPTIONS,
    allErrors,
    verbose: allErrors,
    coerceTypes: false,
    useDefaults: false,
    code: { optimize: false },
  });
  addFormats(ajv);
  // A date-time the tool receives is also one JavaScript can hold: a leap second (…T23:59:60Z) or an
  // hour-only offset (+01) is valid RFC 3339 text to ajv-formats and an Invalid Date to `new Date`.
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  return ajv;
}

/**
 * Compiles a schema and drops it from ajv's own cache (a strong Map keyed by the schema): the
 * validator lives exactly as long as the contract that holds it, so tools made on the fly do not
 * accumulate validators.
 */
function compile(ajv: Ajv2020, schema: object): ValidateFunction {
  const validate = ajv.compile(schema);
  ajv.removeSchema(schema);
  return validate;
}

// One ajv per mode: a fast one that stops at the first error, and a thorough one (every error,
// with the offending data) compiled only when a call has already failed.
const fast = makeAjv(false);
const thorough = makeAjv(true);

export interface ContractValidator {
  /** True when the value conforms. */
  readonly check: (value: unknown) => boolean;
  /** Adds every problem with a value that failed `check`, in the field model's words. */
  readonly explain: (value: unknown, problems: InputProblems) => void;
}

const cache = new Map<string, WeakMap<Function, ContractValidator>>();

/** The compiled validator of a contract class in one direction. */
export function contractValidator(target: Function, direction: SchemaDirection): ContractValidator {
  let byTarget = cache.get(direction);
  if (!byTarget) cache.set(direction, (byTarget = new WeakMap()));
  let validator = byTarget.get(target);
  if (!validator) {
    const schema = validatedContractSchema(target, direction);
    const check = compile(fast, schema);
    let detailed: ValidateFunction | undefined;
    const contract = contractOf(target);
    validator = {
      check: (value) => check(value) as boolean,
      explain: (value, problems) => {
        detailed ??= compile(thorough, schema);
        detailed(value);
        explainErrors(contract, detailed.errors ?? [], direction, problems);
      },
    };
    byTarget.set(target, validator);
  }
  return validator;
}

interface Located {
  readonly path: string;
  readonly node?: TypeNode;
  /** Each segment's place: the field's index in its contract, or the array index (FieldOrder). */
  readonly place: number[];
}

const indexes = new WeakMap<Contract, Map<string, number>>();

/** A field's index in its contract's declaration order. */
function fieldIndex(contract: Contract, name: string): number {
  let index = indexes.get(contract);
  if (!index) indexes.set(contract, (index = new Map(contract.fields.map((field, i) => [field.name, i]))));
  return index.get(name) ?? contract.fields.length;
}

function decodePointer(pointer: string): string[] {
  if (pointer === '') return [];
  const segments = pointer.slice(1).split('/');
  return pointer.includes('~') ? segments.map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~')) : segments;
}

function joinPath(path: string, segment: string): string {
  if (/^\d+$/.test(segment)) return `${path}[${segment}]`;
  return path ? `${path}.${segment}` : segment;
}

/** Follows a JSON pointer through the field model, to the node it points at. */
function locate(root: Contract, segments: readonly string[], direction: SchemaDirection): Located {
  let contract: Contract | undefined = root;
  let node: TypeNode | undefined;
  let path = '';
  const place: number[] = [];
  for (const segment of segments) {
    path = joinPath(path, segment);
    if (contract) {
      const field: FieldModel | undefined = contract.byName.get(segment);
      place.push(fieldIndex(contract, segment));
      if (!field || (direction === 'input' && field.ambient)) return { path, place };
      node = field.type;
      contract = undefined;
    } else if (node?.kind === 'array' && /^\d+$/.test(segment)) {
      place.push(Number(segment));
      node = node.items;
    } else {
      return { path, node: undefined, place };
    }
    if (node?.kind === 'object' && node.target) contract = contractOf(node.target);
  }
  return { path, node, place };
}

/** Located pointers and field paths per contract, as the same ones come back call after call. */
const located = new WeakMap<Contract, Map<string, Located>>();
/** Past this many distinct ones per contract (array indexes make them unbounded), nothing more is kept. */
const LOCATED_KEPT = 1_000;

/** `locate`, remembered per contract: `key` names the direction and how `segments` makes the segments. */
function locateKept(root: Contract, key: string, segments: () => readonly string[], direction: SchemaDirection): Located {
  let byKey = located.get(root);
  if (!byKey) located.set(root, (byKey = new Map()));
  let found = byKey.get(key);
  if (!found) {
    found = locate(root, segments(), direction);
    if (byKey.size < LOCATED_KEPT) byKey.set(key, found);
  }
  return found;
}

/** The node an ajv error's instance pointer points at. */
function locatePointer(root: Contract, pointer: string, direction: SchemaDirection): Located {
  return locateKept(root, `${direction} ${pointer}`, () => decodePointer(pointer), direction);
}

/**
 * The order of a contract's input field paths (`amount`, `contacts[3].email`, as both checkers name
 * them): declaration order at each level, array items by index.
 */
export function inputFieldOrder(contract: Contract): FieldOrder {
  return (field) => (field === '' ? [] : locateKept(contract, `path ${field}`, () => field.split(/[.[\]]+/).filter(Boolean), 'input').place);
}

function constraintMessage(node: TypeNode | undefined, keyword: string): ((property: string, value: unknown) => string) | undefined {
  return node && constraintOf(node, keyword)?.message;
}

const LIMITS = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
]);

/** An ajv error's parameters in FieldError's terms: `{ limit }`, `{ allowed }`, `{ format }`, … */
function paramsOf(error: ErrorObject): Readonly<Record<string, unknown>> {
  const params = error.params as Record<string, unknown>;
  if (LIMITS.has(error.keyword)) return { limit: params.limit };
  switch (error.keyword) {
    case 'required':
    case 'anyOf':
    case 'not':
      return {};
    case 'type':
      return { type: params.type };
    case 'format':
      return { format: params.format };
    case 'enum':
      return { allowed: params.allowedValues };
    case 'const':
      return { allowed: [params.allowedValue] };
    case 'pattern':
      return { pattern: params.pattern };
    case 'multipleOf':
      return { limit: params.multipleOf };
    default:
      return { ...params };
  }
}

/** ajv errors → one message per field and problem, in the field model's words. */
export function explainErrors(contract: Contract, errors: ErrorObject[], direction: SchemaDirection, problems: InputProblems): void {
  const pathOf = (error: ErrorObject) => locatePointer(contract, error.instancePath, direction).path;
  for (let index = 0; index < errors.length; index++) {
    const error = errors[index];
    const raw = rawKeywordProblem(errors, index, pathOf, joinPath);
    if (raw !== undefined) {
      if (raw) problems.add(raw.field, raw.message, error.keyword, { ...paramsOf(error), schemaPath: error.schemaPath });
      continue;
    }
    const push = (field: string, message: string) => problems.add(field, message, error.keyword, paramsOf(error));
    // Errors inside a branch of anyOf say why each alternative failed; the anyOf error itself says it plainly.
    if (error.keyword !== 'anyOf' && error.schemaPath.includes('/anyOf/')) continue;
    const { path, node } = locatePointer(contract, error.instancePath, direction);
    const value = error.data;
    switch (error.keyword) {
      case 'required': {
        const missing = (error.params as { missingProperty: string }).missingProperty;
        const field = joinPath(path, missing);
        push(field, messages.required(field, undefined));
        break;
      }
      case 'additionalProperties': {
        const extra = (error.params as { additionalProperty: string }).additionalProperty;
        problems.unknown(joinPath(path, extra));
        break;
      }
      case 'type':
      case 'format':
      case 'anyOf':
        push(path, (node?.typeMessage ?? messages.object)(path, value));
        break;
      case 'enum':
        push(path, (node?.enumMessage ?? node?.typeMessage ?? messages.enum([]))(path, value));
        break;
      case 'minLength':
      case 'minItems':
      case 'minProperties': {
        const declared = constraintMessage(node, error.keyword);
        // Without a declared bound, it is the emptiness floor.
        push(path, (declared ?? messages.notEmpty)(path, value));
        break;
      }
      default: {
        const declared = constraintMessage(node, error.keyword);
        push(path, declared ? declared(path, value) : `${path || 'the input'} ${error.message ?? 'is invalid'}`);
      }
    }
  }
}
