import 'reflect-metadata';
import { KEYS } from '../metadata/keys';
import { defineOnce, rejectStandardDecorator } from '../metadata/site';
import { DeclarationError } from '../errors/declaration-errors';
import { describeValue } from '../util/describe-value';

/** Longest definition name `@SchemaName` accepts. */
export const MAX_SCHEMA_NAME_LENGTH = 64;

/**
 * A name safe everywhere a definition name goes: a `$ref` JSON pointer (no `/` or `~`), a URI
 * fragment (nothing to escape), OpenAPI `components/schemas` keys (`^[a-zA-Z0-9._-]+$`).
 */
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/**
 * Names a contract class's definition. Wherever the class appears in a schema (input or output,
 * every dialect, strict or not, used once or many times) it is written once to `$defs`
 * (`definitions` in draft-07) under this name and referenced with `$ref`; HTTP's OpenAPI document
 * uses the name for its component. Unnamed classes are inlined (or, when recursive or shared,
 * named after the class). Not inherited: a subclass is a different shape and names its own.
 *
 * @param name letters, digits, `_`, `.` and `-`, starting with a letter or `_`.
 * @example
 * ```ts
 * @SchemaName('Address')
 * export class AddressDto {
 *   @Field() street!: string;
 *   @Field() city!: string;
 * }
 * ```
 */
export function SchemaName(name: string): ClassDecorator {
  if (typeof name !== 'string' || !SCHEMA_NAME.test(name) || name.length > MAX_SCHEMA_NAME_LENGTH) {
    throw new DeclarationError(
      `@SchemaName needs a definition name of 1 to ${MAX_SCHEMA_NAME_LENGTH} characters: a letter or '_' first, then letters, ` +
        `digits, '_', '.' or '-' (it becomes a $ref such as #/$defs/address); got ${describeValue(name)}.`,
    );
  }
  return (target: Function, context?: unknown) => {
    rejectStandardDecorator('SchemaName', context);
    if (typeof target !== 'function') {
      throw new DeclarationError(`@SchemaName('${name}') decorates a contract class; got ${describeValue(target)}.`);
    }
    defineOnce(KEYS.schemaName, 'SchemaName', name, { target });
  };
}
