/**
 * The 200 response's serializer: Fastify compiles the route's response schema with
 * fast-json-stringify once, from the `@Exposes` schema toolwright already derives, and a success
 * is serialized by it instead of `JSON.stringify`. Only schemas whose fast-json-stringify output is
 * exactly `JSON.stringify`'s for every value the output check lets through are given to Fastify:
 * closed objects (`additionalProperties: false`, rendered in declared order, as the schema lists
 * them), arrays of those, and plain strings, numbers, integers and booleans. Anything else (a
 * nullable field, a union, a map, a date format, a `$ref`, a `default` or `const` fast-json-stringify
 * would write itself) keeps `JSON.stringify`.
 */
import type { FastifyReply } from 'fastify';
import type { ToolDefinition } from '../../index';

type Schema = Readonly<Record<string, unknown>>;

/** The keywords that only constrain values: fast-json-stringify writes the value as it is. */
const CONSTRAINTS = new Set([
  'description',
  'title',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'enum',
]);
/** String formats fast-json-stringify treats as dates: left to `JSON.stringify`. */
const DATE_FORMATS = new Set(['date-time', 'date', 'time']);

function onlyConstraints(schema: Schema, own: readonly string[]): boolean {
  return Object.keys(schema).every((key) => own.includes(key) || CONSTRAINTS.has(key) || key.startsWith('x-'));
}

/** Would fast-json-stringify write every value this schema's output check accepts as `JSON.stringify` does? */
export function serializesLikeJson(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return false;
  const node = schema as Schema;
  switch (node.type) {
    case 'string':
      return onlyConstraints(node, ['type', 'format']) && !(typeof node.format === 'string' && DATE_FORMATS.has(node.format));
    case 'number':
    case 'integer':
    case 'boolean':
      return onlyConstraints(node, ['type']);
    case 'array':
      return onlyConstraints(node, ['type', 'items']) && serializesLikeJson(node.items);
    case 'object': {
      const properties = node.properties as Record<string, unknown> | undefined;
      return (
        node.additionalProperties === false &&
        typeof properties === 'object' &&
        properties !== null &&
        onlyConstraints(node, ['type', 'properties', 'required', 'additionalProperties']) &&
        Object.values(properties).every(serializesLikeJson)
      );
    }
    default:
      return false;
  }
}

/** The route's 200 response schema for Fastify, or undefined when the success keeps `JSON.stringify`. */
export function successSchemaOf(definition: ToolDefinition): Schema | undefined {
  const schema = definition.outputSchema();
  // A copy: Fastify may annotate what it is given, and the tool's own schema is shared.
  return schema && serializesLikeJson(schema) ? (JSON.parse(JSON.stringify(schema)) as Schema) : undefined;
}

/**
 * A rendered success value as JSON: the route's compiled serializer when it has one, else
 * `JSON.stringify`. Should the serializer refuse a value, `JSON.stringify` writes it, as before.
 */
export function serializeSuccess(reply: FastifyReply, compiled: boolean, rendered: unknown): string {
  if (compiled) {
    const serialize = reply.getSerializationFunction('200');
    if (serialize) {
      try {
        return serialize(rendered as Record<string, unknown>);
      } catch {
        // fast-json-stringify refused (a value its rules do not take): JSON.stringify writes it as it always did.
      }
    }
  }
  return JSON.stringify(rendered);
}
