import 'reflect-metadata';
import { KEYS } from '../metadata/keys';
import { defineOnce, rejectStandardDecorator } from '../metadata/site';
import { DeclarationError } from '../errors/declaration-errors';
import { describeValue } from '../util/describe-value';
import { checkRawKeywords } from '../schema/raw-keywords';

/**
 * Raw JSON Schema 2020-12 keywords for what no other declaration can say: `allOf`, `anyOf`,
 * `oneOf`, `not`, `if`/`then`/`else`, `dependentRequired`, `$anchor`, … The escape hatch: they are
 * written after the keywords derived from the class, in every input schema that shows the class
 * (MCP, function calling, OpenAPI, `inputSchema`), and enforced by the invoker, which validates
 * against that same schema. They may not say what the class's fields say (`type`, `properties`,
 * `required`, `additionalProperties`, …) nor refer outside the schema (`$ref` is `#`,
 * `#/$defs/<schema name>` or `#<anchor>`). Output schemas leave them out; OpenAI strict mode and
 * draft-07 cannot say them. Not inherited: a subclass declares its own.
 *
 * @param keywords JSON Schema keywords about the object as a whole: `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentRequired`, ….
 * @example
 * ```ts
 * @JsonSchemaKeywords({ anyOf: [{ required: ['phone'] }, { required: ['email'] }] })
 * class ContactInput {
 *   @Field({ optional: true }) phone?: string;
 *   @Field({ optional: true }) email?: string;
 * }
 * ```
 */
export function JsonSchemaKeywords(keywords: Readonly<Record<string, unknown>>): ClassDecorator {
  return (target: Function, context?: unknown) => {
    rejectStandardDecorator('JsonSchemaKeywords', context);
    if (typeof target !== 'function') {
      throw new DeclarationError(`@JsonSchemaKeywords decorates a contract class; got ${describeValue(target)}.`);
    }
    defineOnce(KEYS.schemaKeywords, 'JsonSchemaKeywords', checkRawKeywords(keywords, target.name || '(anonymous class)'), { target });
  };
}
