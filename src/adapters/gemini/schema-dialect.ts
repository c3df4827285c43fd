/**
 * A tool's parameters in one of Gemini's two schema dialects: the JSON Schema subset Gemini reads
 * (`parametersJsonSchema`, the default) or its OpenAPI 3.0 subset (`parameters`). A keyword the
 * dialect cannot say is dropped, never widened silently: every tool's full contract is still checked
 * by the runtime on every call (docs/guide/gemini.md lists each drop). What a dialect cannot say
 * without letting the model send what the runtime refuses (recursion, free-form objects in OpenAPI)
 * is refused with a DeclarationError naming the tool and the field.
 */
import type { JsonSchema } from '../../index';
import { DeclarationError } from '../../index';
import type { GeminiSchema, GeminiType } from './types';

/** Gemini's two ways to state a function's parameters. */
export type GeminiDialect = 'json-schema' | 'openapi';

/** Where a schema comes from, for the errors: the caller's name and the function's. */
interface Origin {
  readonly caller: string;
  readonly tool: string;
}

type Node = { readonly [key: string]: unknown };

/** The formats Gemini's JSON Schema reads (others are dropped: the runtime checks them). */
const JSON_FORMATS = new Set(['date-time', 'date', 'time']);
/** Keywords copied as they are into the JSON Schema dialect. */
const JSON_COPIED = new Set(['type', 'title', 'description', 'enum', 'required', 'minItems', 'maxItems', 'minimum', 'maximum', '$ref']);
/** How many schema nodes the OpenAPI dialect may make when it inlines definitions. */
export const MAX_INLINED_NODES = 5_000;
/** Gemini's rule for parameter (property) names in the OpenAPI dialect. */
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const fieldPath = (path: string): string => (path === '' ? 'its parameters' : `its field '${path}'`);
const child = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

function mapValues(record: unknown, project: (value: Node, key: string) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(isNode(record) ? record : {})) out[key] = isNode(value) ? project(value, key) : value;
  return out;
}

/** A `$ref` to `#/definitions/X` as `#/$defs/X` (Gemini reads `$defs`). */
const defsRef = (ref: unknown): unknown => (typeof ref === 'string' && ref.startsWith('#/definitions/') ? `#/$defs/${ref.slice(14)}` : ref);

/** The JSON Schema dialect: the keywords Gemini's JSON Schema support lists, the rest dropped. */
function toJsonSubset(schema: Node): JsonSchema {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref') out.$ref = defsRef(value);
    else if (JSON_COPIED.has(key)) out[key] = value;
    else if (key === 'const') out.enum = [value];
    else if (key === 'format') {
      if (typeof value === 'string' && JSON_FORMATS.has(value)) out.format = value;
    } else if (key === 'anyOf' || key === 'oneOf') out.anyOf = (value as unknown[]).map((branch) => (isNode(branch) ? toJsonSubset(branch) : branch));
    else if (key === 'allOf' && Array.isArray(value) && value.length === 1 && isNode(value[0])) Object.assign(out, toJsonSubset(value[0]));
    else if (key === 'properties' || key === '$defs' || key === 'definitions') out[key === 'properties' ? key : '$defs'] = mapValues(value, toJsonSubset);
    else if (key === 'items' || key === 'additionalProperties') out[key] = isNode(value) ? toJsonSubset(value) : value;
    else if (key === 'prefixItems' && Array.isArray(value)) out.prefixItems = value.map((item) => (isNode(item) ? toJsonSubset(item) : item));
  }
  return out as JsonSchema;
}

/** State of one OpenAPI projection: the root (for `$ref`), the definitions being inlined, the node budget. */
interface Inlining {
  readonly origin: Origin;
  readonly root: Node;
  readonly open: string[];
  nodes: number;
}

function refused(state: Inlining, path: string, why: string, fix: string): DeclarationError {
  return new DeclarationError(`${state.origin.caller}: ${state.origin.tool}: ${fieldPath(path)} ${why}; Gemini's 'openapi' dialect cannot say it. ${fix}`);
}

const JSON_SCHEMA_FIX = "Use the default dialect, { dialect: 'json-schema' }.";

function resolveRef(ref: unknown, state: Inlining, path: string): Node {
  if (ref === '#') return state.root;
  const name = typeof ref === 'string' ? decodeURIComponent(ref.replace(/^#\/(\$defs|definitions)\//, '')) : undefined;
  const defs = { ...(isNode(state.root.definitions) ? state.root.definitions : {}), ...(isNode(state.root.$defs) ? state.root.$defs : {}) };
  const target = name !== undefined && name !== ref ? defs[name] : undefined;
  if (!isNode(target)) throw refused(state, path, `refers to ${String(ref)}, which is not a definition of its schema`, 'Give the schema that definition under $defs.');
  return target;
}

const typesOf = (schema: Node): string[] => (schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type.map(String) : [String(schema.type)]);
const upper = (type: string): GeminiType => type.toUpperCase() as GeminiType;
const count = (value: unknown): string | undefined => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? String(value) : undefined);

/** The OpenAPI dialect of one schema node, definitions inlined. */
function toOpenApi(schema: Node, path: string, state: Inlining): GeminiSchema {
  if (++state.nodes > MAX_INLINED_NODES) {
    throw refused(state, '', `would make more than ${MAX_INLINED_NODES} schema nodes once their definitions are inlined`, JSON_SCHEMA_FIX);
  }
  if (schema.$ref !== undefined) {
    const ref = String(schema.$ref);
    if (state.open.includes(ref)) {
      throw refused(state, path, `refers back to ${ref} (a recursive schema)`, JSON_SCHEMA_FIX);
    }
    state.open.push(ref);
    const { $ref, ...rest } = schema;
    const inlined = toOpenApi({ ...resolveRef($ref, state, path), ...rest }, path, state);
    state.open.pop();
    return inlined;
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1 && isNode(schema.allOf[0])) {
    const { allOf, ...rest } = schema;
    return toOpenApi({ ...(allOf as Node[])[0], ...rest }, path, state);
  }
  const out: GeminiSchema = {};
  if (typeof schema.title === 'string') out.title = schema.title;
  if (typeof schema.description === 'string') out.description = schema.description;
  const types = typesOf(schema);
  let nullable = schema.nullable === true || types.includes('null');
  const concrete = types.filter((type) => type !== 'null');
  if (concrete.length === 1) out.type = upper(concrete[0]);
  else if (concrete.length > 1) out.anyOf = concrete.map((type) => toOpenApi({ ...schema, type }, path, state));
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches)) {
    const isNull = (branch: unknown) => isNode(branch) && typesOf(branch).join() === 'null' && Object.keys(branch).every((key) => key === 'type' || key === 'description');
    nullable ||= branches.some(isNull);
    const kept = branches.filter((branch): branch is Node => isNode(branch) && !isNull(branch)).map((branch) => toOpenApi(branch, path, state));
    if (kept.length === 1) Object.assign(out, kept[0]);
    else out.anyOf = kept;
  }
  const values = 'const' in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;
  if (values) {
    nullable ||= values.includes(null);
    const named = values.filter((value) => value !== null);
    // Gemini's enums are strings; other enums are dropped (the runtime checks them).
    if (named.length > 0 && named.every((value) => typeof value === 'string') && (out.type === undefined || out.type === 'STRING')) {
      Object.assign(out, { type: 'STRING', format: 'enum', enum: named as string[] });
    }
  }
  if (nullable) out.nullable = true;
  if (out.type === 'STRING') stringKeywords(schema, out);
  if (out.type === 'INTEGER' || out.type === 'NUMBER') {
    if (typeof schema.minimum === 'number') out.minimum = schema.minimum;
    if (typeof schema.maximum === 'number') out.maximum = schema.maximum;
  }
  if (out.type === 'ARRAY') arrayKeywords(schema, out, path, state);
  if (out.type === 'OBJECT') objectKeywords(schema, out, path, state);
  return out;
}

function stringKeywords(schema: Node, out: GeminiSchema): void {
  if (out.format === 'enum') return;
  if (schema.format === 'date-time') out.format = 'date-time';
  const minLength = count(schema.minLength);
  const maxLength = count(schema.maxLength);
  if (minLength !== undefined) out.minLength = minLength;
  if (maxLength !== undefined) out.maxLength = maxLength;
  if (typeof schema.pattern === 'string') out.pattern = schema.pattern;
}

function arrayKeywords(schema: Node, out: GeminiSchema, path: string, state: Inlining): void {
  if (!isNode(schema.items)) throw refused(state, path, 'is a list without one schema for its items (a tuple, or items of any kind)', JSON_SCHEMA_FIX);
  out.items = toOpenApi(schema.items, `${path}[]`, state);
  const minItems = count(schema.minItems);
  const maxItems = count(schema.maxItems);
  if (minItems !== undefined) out.minItems = minItems;
  if (maxItems !== undefined) out.maxItems = maxItems;
}

function objectKeywords(schema: Node, out: GeminiSchema, path: string, state: Inlining): void {
  const properties = isNode(schema.properties) ? schema.properties : {};
  const names = Object.keys(properties);
  if (names.length === 0 && path !== '') {
    throw refused(state, path, 'is an object with no declared fields (a free-form object)', `${JSON_SCHEMA_FIX} Or declare the object's fields.`);
  }
  const badName = names.find((name) => !PARAMETER_NAME.test(name));
  if (badName !== undefined) {
    throw refused(state, child(path, badName), 'has a name Gemini refuses (parameter names must match ^[A-Za-z_][A-Za-z0-9_]{0,63}$)', `${JSON_SCHEMA_FIX} Or rename the field.`);
  }
  out.properties = {};
  for (const name of names) {
    const property = properties[name];
    out.properties[name] = isNode(property) ? toOpenApi(property, child(path, name), state) : {};
  }
  if (names.length > 0) out.propertyOrdering = names;
  const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [];
  if (required.length > 0) out.required = required;
  const minProperties = count(schema.minProperties);
  const maxProperties = count(schema.maxProperties);
  if (minProperties !== undefined) out.minProperties = minProperties;
  if (maxProperties !== undefined) out.maxProperties = maxProperties;
}

/** @internal A function's parameters in a Gemini dialect; `undefined` for an OpenAPI tool without parameters. */
export function toGeminiParameters(parameters: JsonSchema, dialect: 'json-schema', origin: Origin): JsonSchema;
/** @internal */
export function toGeminiParameters(parameters: JsonSchema, dialect: 'openapi', origin: Origin): GeminiSchema | undefined;
export function toGeminiParameters(parameters: JsonSchema, dialect: GeminiDialect, origin: Origin): JsonSchema | GeminiSchema | undefined {
  const root = parameters as Node;
  if (dialect === 'json-schema') return toJsonSubset(root);
  const schema = toOpenApi(root, '', { origin, root, open: ['#'], nodes: 0 });
  return schema.type === 'OBJECT' && Object.keys(schema.properties ?? {}).length === 0 ? undefined : schema;
}
