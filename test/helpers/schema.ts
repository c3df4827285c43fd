import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { JsonSchema } from 'toolwright';

const validators = {
  '2020-12': addFormats(new Ajv2020({ strict: true, allErrors: true })),
  'draft-07': addFormats(new Ajv({ strict: true, allErrors: true })),
};

/**
 * Asserts that a schema is valid against its dialect's meta-schema (and compiles under ajv's
 * strict mode, which also refuses unknown keywords), then returns it.
 */
export function checked<T extends JsonSchema | undefined>(schema: T, dialect: '2020-12' | 'draft-07' = '2020-12'): T {
  if (schema === undefined) return schema;
  const ajv = validators[dialect];
  if (!ajv.validateSchema(schema)) {
    throw new Error(`schema is not valid ${dialect}: ${ajv.errorsText(ajv.errors)}\n${JSON.stringify(schema, null, 2)}`);
  }
  ajv.compile(schema);
  return schema;
}
