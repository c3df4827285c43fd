/**
 * Values a schema allows, for the dialect laws: "everything a provider's schema lets the model send,
 * the runtime accepts". `allowedValues(schema)` is a fast-check arbitrary of JSON values valid under
 * the schema as the provider reads it: JSON Schema (draft 2020-12 and 7, what toolwright emits and
 * the strict projection) and OpenAPI 3.0's schema object (Gemini's `parameters`: upper-case `type`, counts as int64 strings,
 * `nullable`). Each keyword it does not know is an error, so a dialect can never widen quietly past
 * what this generator understands.
 */
import fc from 'fast-check';

export type Schema = { readonly [key: string]: unknown };

/** Keywords that say nothing about which values are valid. */
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'example', 'default', 'deprecated', 'readOnly', 'writeOnly', '$schema', '$id', '$comment', 'propertyOrdering', 'contentMediaType', 'contentEncoding']);
const KNOWN = new Set([
  ...ANNOTATIONS,
  'type', 'nullable', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', '$ref', '$defs', 'definitions',
  'properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties',
  'items', 'minItems', 'maxItems', 'uniqueItems',
  'minLength', 'maxLength', 'pattern', 'format',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'not',
]);

/** Formats a provider may state; each generates values that satisfy it. */
const FORMATS: Record<string, () => fc.Arbitrary<string>> = {
  'date-time': () => fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString()),
  date: () => fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
  email: () => fc.constantFrom('ada@example.com', 'grace.hopper@navy.mil', 'x+tag@sub.example.org'),
  // URLs with a top-level domain: class-validator's @IsUrl() re-checks `uri` beyond JSON Schema (a host
  // without one, like localhost, is refused: contracts.md lists the re-checked formats).
  uri: () => fc.constantFrom('https://example.com', 'https://example.com/a/b?c=d#e', 'http://docs.example.org:8080/x'),
  uuid: () => fc.uuid({ version: 4 }),
};

/** A count (minLength, maxItems, …): a number, or an int64 string as Gemini's OpenAPI subset spells it. */
function count(value: unknown): number | undefined {
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : (value as number | undefined);
}

/** From this depth on, objects take only their required keys and arrays stay empty where they may. */
const DEEP = 4;

/** Whether a schema admits `null` (a strict projection's optional field). */
function allowsNull(schema: Schema): boolean {
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  return schema.nullable === true || (typesOf(schema) ?? []).includes('null') || (branches ?? []).some(allowsNull);
}

function typesOf(schema: Schema): string[] | undefined {
  const type = schema.type;
  if (type === undefined) return undefined;
  const list = (Array.isArray(type) ? type : [type]).map((one) => String(one).toLowerCase());
  if (schema.nullable === true && !list.includes('null')) list.push('null');
  return list;
}

function string(schema: Schema): fc.Arbitrary<string> {
  if (typeof schema.format === 'string' && FORMATS[schema.format]) return FORMATS[schema.format]();
  if (typeof schema.pattern === 'string') {
    const min = count(schema.minLength) ?? 0;
    const max = count(schema.maxLength) ?? Infinity;
    const length = (text: string) => [...text].length;
    return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter((text) => length(text) >= min && length(text) <= max);
  }
  return fc.string({ unit: 'grapheme-ascii', minLength: count(schema.minLength) ?? 0, maxLength: Math.min(count(schema.maxLength) ?? 12, 40) });
}

function number(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  // JSON Schema's exclusive bounds are numbers; OpenAPI 3.0's (draft 4's) are flags on minimum and maximum.
  const bound = (exclusive: unknown, inclusive: unknown) => (typeof exclusive === 'number' ? exclusive : exclusive === true && typeof inclusive === 'number' ? inclusive : undefined);
  const above = bound(schema.exclusiveMinimum, schema.minimum);
  const below = bound(schema.exclusiveMaximum, schema.maximum);
  const min = Math.max(typeof schema.minimum === 'number' ? schema.minimum : -1e6, above ?? -Infinity);
  const max = Math.min(typeof schema.maximum === 'number' ? schema.maximum : 1e6, below ?? Infinity);
  const inside = (value: number) => (above === undefined || value > above) && (below === undefined || value < below);
  const step = typeof schema.multipleOf === 'number' ? schema.multipleOf : integer ? 1 : undefined;
  if (step !== undefined) {
    const low = Math.ceil(min / step);
    return fc.integer({ min: low, max: Math.max(low, Math.floor(max / step)) }).map((k) => k * step).filter(inside);
  }
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((value) => (Object.is(value, -0) ? 0 : value)).filter(inside);
}

function object(schema: Schema, root: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  // Deep down (a recursive contract), only what is required: the values stay finite.
  for (const [key, property] of Object.entries(properties)) {
    if (depth < DEEP) record[key] = arbitrary(property, root, depth + 1);
    else if (required.has(key)) record[key] = allowsNull(property) ? fc.constant(null) : arbitrary(property, root, depth + 1);
  }
  const requiredKeys = Object.keys(record).filter((key) => required.has(key));
  const fixed = fc.record(record, { requiredKeys });
  // Undeclared keys only for a free-form object (no properties, and additional ones not refused).
  if (schema.additionalProperties === false || Object.keys(properties).length > 0) return fixed;
  const additional = schema.additionalProperties;
  const values = additional === undefined || additional === true ? fc.oneof(fc.string(), fc.integer(), fc.boolean()) : arbitrary(additional as Schema, root, depth + 1);
  const minKeys = count(schema.minProperties) ?? 0;
  return fc.dictionary(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 8 }), values, { minKeys, maxKeys: Math.max(minKeys, Math.min(count(schema.maxProperties) ?? 4, 6)) });
}

function arbitrary(schema: Schema, root: Schema, depth: number): fc.Arbitrary<unknown> {
  if (depth > 12) throw new Error('allowedValues: the schema nests deeper than 12 levels (a recursive $ref?)');
  const unknown = Object.keys(schema).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0) throw new Error(`allowedValues: keyword(s) ${unknown.join(', ')} not understood; teach test/helpers/schema-values.ts what values they allow.`);
  if (schema.$ref === '#') return arbitrary(root, root, depth + 1);
  if (typeof schema.$ref === 'string') {
    const name = decodeURIComponent(schema.$ref.split('/').pop()!);
    const defs = (root.$defs ?? root.definitions ?? {}) as Record<string, Schema>;
    if (!defs[name]) throw new Error(`allowedValues: no definition for ${schema.$ref}`);
    return arbitrary(defs[name], root, depth + 1);
  }
  if (schema.not !== undefined) {
    const { not, ...rest } = schema;
    const refused = (not as Schema).enum;
    if (!Array.isArray(refused) || Object.keys(not as Schema).length !== 1) throw new Error('allowedValues: only { not: { enum } } is understood');
    const keys = new Set(refused.map((value) => JSON.stringify(value)));
    return arbitrary(rest, root, depth).filter((value) => !keys.has(JSON.stringify(value)));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1) return arbitrary(schema.allOf[0] as Schema, root, depth + 1);
  if (Array.isArray(schema.allOf)) throw new Error('allowedValues: allOf with more than one schema is not understood');
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  const nullable = schema.nullable === true ? [fc.constant(null)] : [];
  if (branches) return fc.oneof(...branches.map((branch) => arbitrary(branch, root, depth + 1)), ...nullable);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]), ...(schema.nullable === true ? [null] : []));
  const types = typesOf(schema);
  if (!types) return fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'string':
          return string(schema);
        case 'integer':
          return number(schema, true);
        case 'number':
          return number(schema, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array': {
          if (depth >= DEEP && !(count(schema.minItems) ?? 0)) return fc.constant([]);
          const items = schema.items === undefined ? fc.oneof(fc.string(), fc.integer()) : arbitrary(schema.items as Schema, root, depth + 1);
          const constraints = { minLength: count(schema.minItems) ?? 0, maxLength: Math.min(count(schema.maxItems) ?? 4, 6) };
          return schema.uniqueItems === true ? fc.uniqueArray(items, { ...constraints, selector: (item) => JSON.stringify(item) }) : fc.array(items, constraints);
        }
        case 'object':
          return object(schema, root, depth);
        default:
          throw new Error(`allowedValues: type ${type} not understood`);
      }
    }),
  );
}

/** A fast-check arbitrary of the JSON values `schema` allows (a JSON Schema or an OpenAPI 3.0 schema object). */
export function allowedValues(schema: Schema): fc.Arbitrary<unknown> {
  return arbitrary(schema, schema, 0);
}

/** `count` values `schema` allows, the same for the same `seed`. */
export function sampleAllowed(schema: Schema, count: number, seed = 42): unknown[] {
  return fc.sample(allowedValues(schema), { numRuns: count, seed });
}
