/**
 * The Gemini dialect law, for both dialects: every value a declaration's parameters let the model
 * send, `invoke()` accepts, over every input contract of the corpus. Both dialects drop keywords
 * Gemini cannot say (docs/guide/gemini.md lists them) and the runtime still checks those, so values
 * are sent only where the full contract allows them too, and a value the declaration allows that the
 * full contract refuses may break only a keyword the guide lists. What the OpenAPI subset cannot say at all
 * (recursion, free-form objects) is refused when listed, naming the tool and the field. And the
 * declarations are checked against the SDK's own types and `Type` enum.
 */
import * as fs from 'node:fs';
import 'reflect-metadata';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Type, type FunctionDeclaration, type Schema as SdkSchema, type Tool as SdkTool } from '@google/genai';
import { Expects, Field, Tool } from 'toolwright';
import { toGeminiTools, type GeminiDialect, type GeminiSchema } from 'toolwright/gemini';
import { describeFunction, Toolbox } from 'toolwright/toolbox';
import { LAW_AMBIENT, lawTools, refusedValues } from '../../helpers/dialect-law';
import { sampleAllowed, type Schema } from '../../helpers/schema-values';

const tools = lawTools();
const errorOf = (run: () => unknown): string | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};
const parametersOf = (toolbox: Toolbox, name: string, dialect: GeminiDialect): Schema => {
  const [declaration] = toGeminiTools(toolbox, { only: [name], dialect })[0].functionDeclarations;
  return ('parameters' in declaration ? declaration.parameters : 'parametersJsonSchema' in declaration ? declaration.parametersJsonSchema : { type: 'OBJECT', properties: {} }) as Schema;
};

/** The keywords each dialect drops, as docs/guide/gemini.md lists them (ajv's names for them). */
const DROPPED: Record<GeminiDialect, string[]> = {
  'json-schema': ['minLength', 'maxLength', 'pattern', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'uniqueItems', 'minProperties', 'maxProperties', 'not', 'format'],
  openapi: ['additionalProperties', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'uniqueItems', 'not', 'enum', 'const', 'format'],
};

const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));

describe('the Gemini dialect law', () => {
  it.each<GeminiDialect>(['json-schema', 'openapi'])('%s: a value the declaration allows and the full contract refuses breaks only a keyword the guide lists as dropped', (dialect) => {
    const toolbox = new Toolbox(tools.map((tool) => tool.tool));
    const broken = new Set<string>();
    for (const { tool, name } of tools) {
      if (errorOf(() => toGeminiTools(toolbox, { only: [name], dialect }))) continue;
      const validate = ajv.compile(describeFunction(tool).parameters as Schema);
      for (const value of sampleAllowed(parametersOf(toolbox, name, dialect), 20, 7)) {
        // Inside a union, ajv also reports every branch the value was never meant for: the union's own verdict stands for them.
        if (!validate(value)) for (const error of validate.errors!) if (!error.schemaPath.includes('/anyOf/')) broken.add(error.keyword);
      }
    }
    expect([...broken].filter((keyword) => keyword !== 'anyOf' && !DROPPED[dialect].includes(keyword))).toEqual([]);
    expect(broken.size).toBeGreaterThan(3); // the drops are exercised: the check is not vacuous
  });

  it.each<GeminiDialect>(['json-schema', 'openapi'])('%s: every value the declarations allow, invoke() accepts', async (dialect) => {
    const everything = new Toolbox(tools.map((tool) => tool.tool));
    const listable = tools.filter((tool) => errorOf(() => toGeminiTools(everything, { only: [tool.name], dialect })) === undefined);
    expect(listable.length).toBeGreaterThan(dialect === 'openapi' ? 15 : tools.length - 1);
    const toolbox = new Toolbox(listable.map((tool) => tool.tool), { ambientContext: LAW_AMBIENT });
    const refused: string[] = [];
    let sent = 0;
    for (const { tool, name } of listable) {
      const run = await refusedValues(toolbox, name, parametersOf(toolbox, name, dialect), { full: describeFunction(tool).parameters as Schema });
      refused.push(...run.refused);
      sent += run.sent;
    }
    expect(refused).toEqual([]);
    expect(sent).toBeGreaterThan(listable.length * 20); // most generated values are sent: the law is not vacuous
  });

  it("openapi: what the subset cannot say is refused when listed, naming the tool and the field; json-schema lists it", () => {
    const toolbox = new Toolbox(tools.map((tool) => tool.tool));
    const refusals = Object.fromEntries(
      tools.map((tool) => [tool.name, errorOf(() => toGeminiTools(toolbox, { only: [tool.name], dialect: 'openapi' }))]).filter(([, error]) => error),
    );
    expect(refusals).toMatchObject({
      law_treenode: "toGeminiTools: law_treenode: its field 'children[]' refers back to # (a recursive schema); Gemini's 'openapi' dialect cannot say it. Use the default dialect, { dialect: 'json-schema' }.",
      law_floors: expect.stringContaining("toGeminiTools: law_floors: its field 'attributes' is an object with no declared fields (a free-form object)"),
    });
    expect(Object.keys(refusals).sort()).toEqual(['law_company', 'law_employee', 'law_floors', 'law_forest', 'law_team', 'law_treenode']);
    expect(() => toGeminiTools(toolbox)).not.toThrow();
  });
});

describe('the declarations against @google/genai', () => {
  // The keywords of the SDK's Schema interface, read from its published declarations.
  const sdkTypes = fs.readFileSync(require.resolve('@google/genai').replace(/dist\/node\/index\.cjs$/, 'dist/genai.d.ts'), 'utf8');
  const schemaBody = /export declare interface Schema \{([\s\S]*?)\n\}/.exec(sdkTypes)![1];
  const SCHEMA_KEYS = new Set([...schemaBody.matchAll(/^\s{4}(\w+)\?:/gm)].map((match) => match[1]));
  const COUNTS = ['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties'];

  function offences(schema: GeminiSchema<string>, path: string): string[] {
    const found = Object.keys(schema).filter((key) => !SCHEMA_KEYS.has(key)).map((key) => `${path}: ${key} is not a Schema field`);
    if (schema.type !== undefined && !Object.values(Type).includes(schema.type as Type)) found.push(`${path}: type ${schema.type}`);
    for (const key of COUNTS) if (key in schema && !/^\d+$/.test((schema as Record<string, unknown>)[key] as string)) found.push(`${path}: ${key} is not an int64 string`);
    if (schema.enum && (schema.type !== 'STRING' || schema.enum.some((value) => typeof value !== 'string'))) found.push(`${path}: an enum on ${schema.type}`);
    for (const [name, property] of Object.entries(schema.properties ?? {})) found.push(...offences(property, `${path}.${name}`));
    if (schema.items) found.push(...offences(schema.items, `${path}[]`));
    for (const [i, branch] of (schema.anyOf ?? []).entries()) found.push(...offences(branch, `${path}|${i}`));
    return found;
  }

  it('every OpenAPI declaration of the corpus uses only the fields and types of the SDK’s Schema', () => {
    expect(SCHEMA_KEYS.size).toBeGreaterThan(20);
    const listed = tools.flatMap((tool) => (errorOf(() => toGeminiTools(new Toolbox([tool.tool]), { dialect: 'openapi' })) ? [] : [tool.tool]));
    const [openapi]: SdkTool[] = toGeminiTools(new Toolbox(listed), { dialect: 'openapi' }); // T inferred as the SDK's Type
    const declarations: FunctionDeclaration[] = openapi.functionDeclarations!;
    expect(declarations.flatMap((declaration) => (declaration.parameters ? offences(declaration.parameters, declaration.name!) : []))).toEqual([]);
    // And the types say so: the tool list is the SDK's Tool[], each schema its Schema.
    const sdkTools: SdkTool[] = toGeminiTools(new Toolbox(listed));
    const schema: SdkSchema | undefined = toGeminiTools<Type>(new Toolbox(listed), { dialect: 'openapi' })[0].functionDeclarations[0].parameters;
    expect(sdkTools[0].functionDeclarations!.length).toBe(listed.length);
    expect(schema?.type).toBe(Type.OBJECT);
  });

  it('names Gemini refuses (a function’s; in the openapi dialect, a field’s) are refused when listed, naming them; bad options too', () => {
    class In {
      @Field() x!: string;
    }
    @Tool('openai', { name: '1password_lookup' })
    @Expects(In)
    class Lookup {
      call() {
        return undefined;
      }
    }
    expect(() => toGeminiTools(new Toolbox([Lookup]))).toThrow(
      "toGeminiTools: the function name '1password_lookup' does not start with a letter or '_', and Gemini refuses it. Rename the tool",
    );
    // In the openapi dialect, field names too; a function without parameters declares none.
    class Named {
      @Field() 'first-name'!: string;
    }
    @Tool('openai', { name: 'greet' })
    @Expects(Named)
    class Greet {
      call() {
        return undefined;
      }
    }
    @Tool('openai', { name: 'ping' })
    class Ping {
      call() {
        return undefined;
      }
    }
    expect(() => toGeminiTools(new Toolbox([Greet]), { dialect: 'openapi' })).toThrow(
      "toGeminiTools: greet: its field 'first-name' has a name Gemini refuses (parameter names must match ^[A-Za-z_][A-Za-z0-9_]{0,63}$); Gemini's 'openapi' dialect cannot say it. Use the default dialect, { dialect: 'json-schema' }. Or rename the field.",
    );
    expect(toGeminiTools(new Toolbox([Greet, Ping]))[0].functionDeclarations.map((declaration) => declaration.name)).toEqual(['greet', 'ping']);
    expect(toGeminiTools(new Toolbox([Ping]), { dialect: 'openapi' })).toEqual([{ functionDeclarations: [{ name: 'ping' }] }]);
    expect(() => toGeminiTools(new Toolbox([Lookup]), { dialect: 'yaml' as never })).toThrow("toGeminiTools: 'dialect' must be 'json-schema' or 'openapi'; got 'yaml'.");
    expect(() => toGeminiTools([Lookup] as never)).toThrow('toGeminiTools: expected a Toolbox');
  });
});
