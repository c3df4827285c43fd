/**
 * Every read of @nestjs/swagger's metadata, in one place. contract/field-builder.ts uses what this
 * returns; toolwright never imports @nestjs/swagger (an app without it reads nothing here).
 *
 * Supported: @nestjs/swagger 12.x (`SUPPORTED_VERSIONS`, checked against 12.0.2, the installed copy,
 * by test/interop/nestjs-swagger.test.ts). Re-check this file when that range changes.
 * - `swagger/apiModelProperties`: the reflect-metadata key `@ApiProperty` and `@ApiPropertyOptional`
 *   write on the class's prototype, per property (`createPropertyDecorator` in the package's
 *   decorators/helpers.js): the options object as given, merged with a parent class's. Of it,
 *   toolwright reads `description` (a string) and `example` (any value; the field builder checks it
 *   against the field's own rules, as it does `@Field({ example })`).
 */

/** The @nestjs/swagger versions this module's reads are known to hold for (an npm range). */
export const SUPPORTED_VERSIONS = '>=12.0.0 <13.0.0';

/** The metadata key `@ApiProperty` writes (`DECORATORS.API_MODEL_PROPERTIES` in the package's constants.js). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

/** What `@ApiProperty` says of a property that toolwright uses. */
export interface ApiPropertyDocs {
  readonly description?: string;
  /** Present (even when undefined is not a meaningful example) only when the options carried `example`. */
  readonly example?: { readonly value: unknown };
}

const reflect = Reflect as unknown as { getMetadata?: (key: string, target: object, property: string) => unknown };

/** The description and example `@ApiProperty` declared on a property of `owner` (or a parent class), if any. */
export function apiPropertyDocsOf(owner: Function, property: string): ApiPropertyDocs | undefined {
  if (typeof reflect.getMetadata !== 'function' || owner.prototype == null) return undefined;
  const options = reflect.getMetadata(API_MODEL_PROPERTIES, owner.prototype as object, property);
  if (options === null || typeof options !== 'object') return undefined;
  const { description, example } = options as { description?: unknown; example?: unknown };
  const docs: { description?: string; example?: { value: unknown } } = {};
  if (typeof description === 'string' && description !== '') docs.description = description;
  if (example !== undefined) docs.example = { value: example };
  return docs.description === undefined && docs.example === undefined ? undefined : docs;
}
