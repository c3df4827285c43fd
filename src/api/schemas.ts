import { Tools, ToolLike } from '../registry/tool-registry';
import { contractSchema, JsonSchema, SchemaDirection, SchemaOptions } from '../schema/build-schema';
import { DeclarationError } from '../errors/declaration-errors';

/** The JSON Schema of a tool's arguments: plain, fresh, yours to change. */
export function inputSchema(tool: ToolLike, options?: SchemaOptions): JsonSchema {
  return Tools.resolve(tool).inputSchema(options);
}

/** The JSON Schema of what a tool exposes, or undefined when it exposes nothing. */
export function outputSchema(tool: ToolLike, options?: SchemaOptions): JsonSchema | undefined {
  return Tools.resolve(tool).outputSchema(options);
}

/**
 * The JSON Schema of a DTO class: as an input (ambient fields left out, empty-value floors,
 * defaults) unless `direction: 'output'` asks for what a tool would expose.
 */
export function schemaOf(dto: Function, options: SchemaOptions & { direction?: SchemaDirection } = {}): JsonSchema {
  if (typeof dto !== 'function' || !dto.prototype) throw new DeclarationError(`schemaOf expects a DTO class; got ${typeof dto}.`);
  const { direction = 'input', ...rest } = options;
  return contractSchema(dto, direction, rest);
}
