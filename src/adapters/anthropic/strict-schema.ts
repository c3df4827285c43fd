/**
 * The strict-tool-use projection of an input schema for Anthropic's Messages API. Strict tool use
 * compiles the schema into a grammar, and takes only part of JSON Schema: the keywords
 * `@anthropic-ai/sdk`'s own `transformJSONSchema` keeps (type, properties, required,
 * `additionalProperties: false`, items, `minItems` 0 or 1, enum and const of primitives, anyOf,
 * allOf, local `$ref`/`$defs`, description, title, and the formats below); every object closed; no
 * recursion. Built from the plain schema: optional fields stay optional (never `null`-able).
 * Keywords it cannot say are dropped and written into the description (as the SDK does); the
 * runtime still checks each (docs/guide/anthropic.md lists them).
 */
import type { JsonSchema } from '../../index';
import { DeclarationError } from '../../index';

/** The string formats Anthropic's strict tool use knows (the SDK's `SUPPORTED_STRING_FORMATS`). */
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);

/** Keywords that describe and constrain nothing: dropped without a word in the description. */
const SILENT = new Set(['$schema', '$id', '$comment', 'examples', 'example', 'default', 'readOnly', 'writeOnly', 'deprecated']);

type Schema = Record<string, unknown>;

const isPrimitive = (value: unknown): boolean => value === null || typeof value !== 'object';

function fail(tool: string, path: string, why: string): never {
  throw new DeclarationError(
    `toAnthropicTools: ${tool}'s input ${path || '(root)'} ${why}, which Anthropic's strict tool use cannot express. ` +
      `Declare its shape with a contract class, or list ${tool} without strict (toAnthropicTools(toolbox, { strict: false }) or leave it out of 'only').`,
  );
}

/** The `$defs` name a local reference points to (`#` is the root). */
function refTarget(ref: string): string {
  return ref === '#' ? '#' : decodeURIComponent(ref.split('/').pop() ?? '');
}

/** Every `$ref` in a schema (not following them). */
function refsIn(schema: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) refsIn(item, into);
  else if (schema !== null && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string') into.add(refTarget(value));
      else if (key !== '$defs' && key !== 'definitions') refsIn(value, into);
    }
  }
  return into;
}

/** Refuses a schema whose references go round (a tree, a team of employees of a team). */
function checkNotRecursive(tool: string, root: Schema, defs: Record<string, Schema>): void {
  const done = new Set<string>();
  const visit = (name: string, trail: string[]): void => {
    if (trail.includes(name)) fail(tool, name === '#' ? '' : `$defs/${name}`, `is recursive (${[...trail, name].join(' → ')})`);
    if (done.has(name)) return;
    const schema = name === '#' ? root : defs[name];
    for (const next of refsIn(schema, new Set())) visit(next, [...trail, name]);
    done.add(name);
  };
  visit('#', []);
}

/** The keywords that apply to one type only, by type. */
const TYPE_KEYWORDS: Record<string, readonly string[]> = {
  object: ['properties', 'additionalProperties', 'required', 'minProperties', 'maxProperties', 'patternProperties', 'propertyNames'],
  array: ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains'],
  string: ['format', 'pattern', 'minLength', 'maxLength'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
};

/**
 * `type: ['object', 'null']` and the like as `anyOf` of one type each, so that each branch keeps
 * its own keywords (the SDK's transform reads `properties`, `items` and `format` under one type only).
 */
function splitTypes(schema: Schema): Schema {
  const types = schema.type as string[];
  const specific = new Set(Object.values(TYPE_KEYWORDS).flat());
  const shared = Object.fromEntries(Object.entries(schema).filter(([key]) => key !== 'type' && !specific.has(key)));
  const branch = (type: string): Schema => ({
    type,
    ...Object.fromEntries(Object.entries(schema).filter(([key]) => (TYPE_KEYWORDS[type] ?? []).includes(key))),
  });
  return { ...shared, anyOf: types.map(branch) };
}

function project(tool: string, schema: Schema, path: string): Schema {
  const literal = schema.const !== undefined || Array.isArray(schema.enum);
  if (!literal && Array.isArray(schema.type) && schema.type.length > 1 && schema.anyOf === undefined && schema.oneOf === undefined && schema.allOf === undefined) {
    return project(tool, splitTypes(schema), path);
  }
  const source = { ...schema };
  const out: Schema = {};
  const take = (key: string): unknown => {
    const value = source[key];
    delete source[key];
    return value;
  };
  const ref = take('$ref');
  if (typeof ref === 'string') {
    out.$ref = ref;
    const description = take('description');
    if (typeof description === 'string') out.description = description;
    return out;
  }
  const values = source.enum;
  if (Array.isArray(values) && values.length > 0 && values.every(isPrimitive)) out.enum = take('enum');
  if (source.const !== undefined && isPrimitive(source.const)) out.const = take('const');
  const isLiteral = 'enum' in out || 'const' in out;
  const type = take('type');
  const anyOf = take('anyOf') ?? take('oneOf');
  const allOf = take('allOf');
  if (Array.isArray(anyOf)) out.anyOf = anyOf.map((member, i) => project(tool, member as Schema, `${path}.anyOf[${i}]`));
  else if (Array.isArray(allOf)) out.allOf = allOf.map((member, i) => project(tool, member as Schema, `${path}.allOf[${i}]`));
  else if (!isLiteral) {
    if (type === undefined) fail(tool, path, 'takes any JSON value');
    out.type = type;
  }
  for (const key of ['description', 'title']) if (typeof source[key] === 'string') out[key] = take(key);
  if (!isLiteral && type === 'object') {
    const properties = (take('properties') ?? {}) as Record<string, Schema>;
    const extra = take('additionalProperties');
    if (Object.keys(properties).length === 0 && extra !== false && path !== '') fail(tool, path, 'is a free-form object');
    out.properties = Object.fromEntries(Object.entries(properties).map(([key, field]) => [key, project(tool, field, `${path}.${key}`.replace(/^\./, ''))]));
    out.additionalProperties = false;
    const required = take('required');
    if (Array.isArray(required)) out.required = required;
  }
  if (!isLiteral && type === 'string' && typeof source.format === 'string' && STRICT_FORMATS.has(source.format)) out.format = take('format');
  if (!isLiteral && type === 'array') {
    const items = take('items');
    if (items !== undefined && typeof items === 'object' && items !== null) out.items = project(tool, items as Schema, `${path}[]`);
    if (source.minItems === 0 || source.minItems === 1) out.minItems = take('minItems');
  }
  for (const key of SILENT) delete source[key];
  const rest = Object.entries(source);
  if (rest.length > 0) {
    const note = `{${rest.map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join(', ')}}`;
    out.description = typeof out.description === 'string' ? `${out.description}\n\n${note}` : note;
  }
  return out;
}

/**
 * @internal The strict projection of a tool's plain input schema (`tool` names it in errors). A
 * recursive schema, or a field that takes any value or any object, is an error naming the field.
 */
export function strictInputSchema(tool: string, plain: JsonSchema): JsonSchema {
  const defs = (plain.$defs ?? plain.definitions ?? {}) as Record<string, Schema>;
  checkNotRecursive(tool, plain, defs);
  const { $defs: _defs, definitions: _definitions, ...root } = plain;
  const projected = project(tool, root, '');
  const defsKey = plain.$defs !== undefined ? '$defs' : plain.definitions !== undefined ? 'definitions' : undefined;
  if (defsKey) {
    projected[defsKey] = Object.fromEntries(Object.entries(defs).map(([name, def]) => [name, project(tool, def, `$defs/${name}`)]));
  }
  return projected;
}
