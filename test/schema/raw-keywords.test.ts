/**
 * Raw JSON Schema 2020-12 keywords (`@JsonSchemaKeywords`), the escape hatch: checked when declared
 * and when their schema is written, shown on every transport, and enforced by the invoker.
 */
import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DeclarationError,
  Expects,
  Exposes,
  Field,
  inputSchema,
  invoke,
  JsonSchemaKeywords,
  outputSchema,
  SchemaName,
  schemaOf,
  Tool,
} from 'toolwright';
import { httpApiDocument } from 'toolwright/http';
import { Toolbox } from 'toolwright/openai';
import { connectInMemory } from '../helpers/mcp';

/** The keywords as written, in every input schema that shows the class. */
const ROOT_KEYWORDS = {
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { preferred: { const: 'phone' } }, required: ['preferred'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
};

@SchemaName('address')
@JsonSchemaKeywords({ $anchor: 'addressDef', dependentRequired: { street: ['city'] } })
class Address {
  @Field({ optional: true }) street?: string;
  @Field({ optional: true }) city?: string;
}

@JsonSchemaKeywords(ROOT_KEYWORDS)
class ContactInput {
  @Field({ optional: true }) name?: string;
  @Field({ optional: true, type: Address }) address?: Address;
  @Field({ optional: true, enum: ['phone', 'email'] }) preferred?: 'phone' | 'email';
  @Field({ optional: true }) phone?: string;
  @Field({ optional: true }) email?: string;
}

class ContactOutput {
  @Field({ type: Address }) address!: Address;
}

@Tool({ name: 'save_contact', description: 'Saves a contact' })
@Expects(ContactInput)
@Exposes(ContactOutput)
class SaveContact {
  call(input: ContactInput): ContactOutput {
    return { address: input.address ?? {} };
  }
}

const ADDRESS = {
  type: 'object',
  properties: { street: { type: 'string' }, city: { type: 'string' } },
  additionalProperties: false,
  $anchor: 'addressDef',
  dependentRequired: { street: ['city'] },
};

describe('the schema: derived keywords first, then the raw ones, in the order declared', () => {
  it('pins the input schema', () => {
    expect(inputSchema(SaveContact)).toMatchInlineSnapshot(`
      {
        "$defs": {
          "address": {
            "$anchor": "addressDef",
            "additionalProperties": false,
            "dependentRequired": {
              "street": [
                "city",
              ],
            },
            "properties": {
              "city": {
                "type": "string",
              },
              "street": {
                "type": "string",
              },
            },
            "type": "object",
          },
        },
        "additionalProperties": false,
        "allOf": [
          {
            "anyOf": [
              {
                "required": [
                  "phone",
                ],
              },
              {
                "required": [
                  "email",
                ],
              },
            ],
          },
        ],
        "else": {
          "required": [
            "email",
          ],
        },
        "if": {
          "properties": {
            "preferred": {
              "const": "phone",
            },
          },
          "required": [
            "preferred",
          ],
        },
        "properties": {
          "address": {
            "$ref": "#/$defs/address",
          },
          "email": {
            "type": "string",
          },
          "name": {
            "type": "string",
          },
          "phone": {
            "type": "string",
          },
          "preferred": {
            "enum": [
              "phone",
              "email",
            ],
            "type": "string",
          },
        },
        "then": {
          "required": [
            "phone",
          ],
        },
        "type": "object",
      }
    `);
    expect(Object.keys(inputSchema(SaveContact))).toEqual(['type', 'properties', 'additionalProperties', 'allOf', 'if', 'then', 'else', '$defs']);
    expect(Object.keys(schemaOf(Address))).toEqual(['type', 'properties', 'additionalProperties', '$anchor', 'dependentRequired']);
  });

  it('leaves them out of output schemas: toolwright does not check a tool’s output against them', () => {
    const output = outputSchema(SaveContact)!;
    expect((output.$defs as Record<string, object>).address).not.toHaveProperty('$anchor');
    expect(schemaOf(Address, { direction: 'output' })).not.toHaveProperty('dependentRequired');
  });

  it('has no strict (OpenAI) or draft-07 projection: those cannot say the keywords', () => {
    expect(() => inputSchema(SaveContact, { strict: true })).toThrow(
      /Address adds raw JSON Schema keywords \(\$anchor, dependentRequired\) with @JsonSchemaKeywords, which OpenAI strict mode does not accept\. Offer its tool with the non-strict schema/,
    );
    expect(() => inputSchema(SaveContact, { dialect: 'draft-07' })).toThrow(/no draft-07 form\. Use the 2020-12 schema/);
  });
});

describe('every transport shows them', () => {
  it('MCP tools/list (a real SDK Client): the raw keywords, $anchor in $defs, the dialect named', async () => {
    const { client, close } = await connectInMemory({ name: 't', version: '1', tools: [SaveContact] });
    try {
      const { tools } = await client.listTools();
      const schema = tools[0].inputSchema as Record<string, unknown>;
      expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...ROOT_KEYWORDS, additionalProperties: false });
      expect(schema.$defs).toEqual({ address: ADDRESS });
    } finally {
      await close();
    }
  });

  it('function calling: Toolbox.schemas() shows them; a strict toolbox refuses the tool when it is made', () => {
    const [schema] = new Toolbox([SaveContact]).schemas();
    expect(schema.function.parameters).toMatchObject(ROOT_KEYWORDS);
    expect(schema.function).not.toHaveProperty('strict');
    expect(() => new Toolbox([SaveContact], { strict: true })).toThrow(/OpenAI strict mode does not accept/);
  });

  it('HTTP OpenAPI: the request body carries them; its $ref goes to the input component, which keeps its $anchor', () => {
    const document = httpApiDocument({ tools: [SaveContact] });
    const body = (document.paths['/save_contact/v1'].post as { requestBody: { content: { 'application/json': { schema: object } } } }).requestBody
      .content['application/json'].schema;
    expect(body).toMatchObject({ ...ROOT_KEYWORDS, properties: { address: { $ref: '#/components/schemas/addressInput' } } });
    expect(body).not.toHaveProperty('$defs');
    // The output's Address has no raw keywords, so the input one is a component of its own.
    const { schemas } = document.components as { schemas: Record<string, object> };
    expect(schemas.addressInput).toEqual(ADDRESS);
    expect(schemas.address).not.toHaveProperty('$anchor');
  });
});

describe('the invoker enforces them, naming each problem and the rule', () => {
  it('in process: refuses what they forbid, every problem in one answer; accepts what they allow', async () => {
    const none = await invoke(SaveContact, {});
    expect(none.ok).toBe(false);
    expect(none.fieldErrors).toEqual([
      {
        field: 'base',
        message:
          'the input must match at least one of the alternatives of schema rule #/allOf/0/anyOf: phone is required, or email is required',
        keyword: 'anyOf',
        params: { schemaPath: '#/allOf/0/anyOf' },
      },
      { field: 'email', message: 'email is required (schema rule #/else/required)', keyword: 'required', params: { schemaPath: '#/else/required' } },
    ]);

    const noPhone = await invoke(SaveContact, { preferred: 'phone', email: 'a@example.com', address: { street: 'Main St' }, name: 7 });
    expect(noPhone.fieldErrors?.map((error) => error.message)).toEqual([
      'name must be a string',
      'address must have property city when property street is present (schema rule #/$defs/address/dependentRequired)',
      'phone is required (schema rule #/then/required)',
    ]);

    expect(await invoke(SaveContact, { preferred: 'phone', phone: '+1 555 0100' })).toMatchObject({ ok: true });
    expect(await invoke(SaveContact, { email: 'a@example.com', address: { street: 'Main St', city: 'Springfield' } })).toMatchObject({
      ok: true,
      value: { address: { street: 'Main St', city: 'Springfield' } },
    });
  });

  it('over MCP: tools/call answers the refusal as a tool error naming the rule', async () => {
    const { client, close } = await connectInMemory({ name: 't', version: '1', tools: [SaveContact] });
    try {
      const refused = await client.callTool({ name: 'save_contact', arguments: { preferred: 'email', phone: '1' } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('email is required (schema rule #/else/required)');
      const accepted = await client.callTool({ name: 'save_contact', arguments: { preferred: 'email', email: 'a@example.com' } });
      expect(accepted.isError).toBeFalsy();
    } finally {
      await close();
    }
  });

  it('names a bounded few alternatives of a large anyOf', async () => {
    const alternatives = Array.from({ length: 40 }, (_, i) => ({ required: [`f${i}`] }));
    @JsonSchemaKeywords({ anyOf: alternatives })
    class Many {
      @Field({ optional: true }) other?: string;
    }
    @Tool()
    @Expects(Many)
    class PickOne {
      call() {}
    }
    const result = await invoke(PickOne, {});
    expect(result.fieldErrors).toHaveLength(1);
    expect(result.fieldErrors![0].message).toBe(
      'the input must match at least one of the alternatives of schema rule #/anyOf: f0 is required, or f1 is required, or f2 is required, or 37 more',
    );
  });
});

describe('declaration mistakes are DeclarationErrors that say the fix', () => {
  const declare = (keywords: unknown) => () => {
    @JsonSchemaKeywords(keywords as Record<string, unknown>)
    class Input {
      @Field({ optional: true }) phone?: string;
    }
    return Input;
  };

  it.each([
    ['not an object', 'allOf', /needs an object of JSON Schema 2020-12 keywords, such as \{ allOf: \[\.\.\.\] \}; got 'allOf'/],
    ['no keyword', {}, /declares no keyword/],
    ['a derived keyword', { required: ['phone'] }, /'required' is derived from the class's declaration and cannot be given raw \(declare the field without optional: true/],
    ['properties', { properties: { phone: { minLength: 3 } } }, /'properties' is derived .*\(declare the field on the class/],
    ['a widening', { patternProperties: { '^x-': {} } }, /'patternProperties' is derived .*\(a contract is closed/],
    ['raw $defs', { $defs: { id: { type: 'string' } } }, /'\$defs' is derived .*\(name a contract class with @SchemaName/],
    ['invalid 2020-12', { allOf: { required: ['phone'] } }, /is not valid JSON Schema 2020-12: keywords\/allOf must be array/],
    ['$id anywhere', { allOf: [{ $id: 'https://example.com/x' }] }, /#\/allOf\/0\/\$id is not allowed in raw keywords \(it would change what every \$ref inside it means\)/],
    ['a positional $ref', { allOf: [{ $ref: '#/properties/phone' }] }, /'#\/properties\/phone' points into the schema by position/],
    ['not JSON', { not: { const: Number.NaN } }, /#\/not\/const is NaN, which is not JSON/],
    ['a function', { allOf: [() => true] }, /#\/allOf\/0 is .*, which is not JSON/],
  ])('%s', (_name, keywords, message) => {
    expect(declare(keywords)).toThrow(DeclarationError);
    expect(declare(keywords)).toThrow(message);
  });

  it('a cycle is refused, not followed forever', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.not = cyclic;
    expect(declare(cyclic)).toThrow(/nest deeper than 64 levels/);
  });

  it('declared twice on one class', () => {
    expect(() => {
      @JsonSchemaKeywords({ minProperties: 1 })
      @JsonSchemaKeywords({ maxProperties: 3 })
      class Twice {}
      return Twice;
    }).toThrow(/@JsonSchemaKeywords is already declared/);
  });

  it('a remote $ref is refused and never fetched', async () => {
    let requests = 0;
    const canary = createServer((_request, response) => {
      requests++;
      response.end('{}');
    });
    await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(canary.address() as AddressInfo).port}/schema.json`;
    try {
      expect(declare({ allOf: [{ $ref: url }] })).toThrow(/refers to another document, which toolwright never fetches/);
      expect(requests).toBe(0);
    } finally {
      await new Promise((resolve) => canary.close(resolve));
    }
  });

  describe('checked again with the schema they join, when it is written', () => {
    const toolWith = (keywords: Record<string, unknown>, nested?: new () => object) => {
      @JsonSchemaKeywords(keywords)
      class Input {
        @Field({ optional: true }) phone?: string;
      }
      class Twice {
        @Field({ type: nested ?? Input }) a!: object;
        @Field({ type: nested ?? Input }) b!: object;
      }
      @Tool()
      @Expects(nested ? Twice : Input)
      class Call {
        call() {}
      }
      return Call;
    };

    it('a $ref to nothing', () => {
      expect(() => inputSchema(toolWith({ allOf: [{ $ref: '#/$defs/Phone' }] }))).toThrow(
        /The input schema of Input with its @JsonSchemaKeywords does not compile: can't resolve reference #\/\$defs\/Phone .* Nothing in the schema is at '#\/\$defs\/Phone': a class is in \$defs under its @SchemaName/,
      );
    });

    it('an unknown keyword or format, which would never run', () => {
      expect(() => inputSchema(toolWith({ iff: { required: ['phone'] } }))).toThrow(/unknown keyword: "iff"/);
      expect(() => inputSchema(toolWith({ properties_: 1, not: { properties: { phone: { format: 'phone-number' } } } }))).toThrow(
        DeclarationError,
      );
      expect(() => inputSchema(toolWith({ not: { properties: { phone: { format: 'phone-number' } } } }))).toThrow(/unknown format "phone-number"/);
    });

    it('an $anchor written twice (an unnamed class used twice is inlined twice)', () => {
      @JsonSchemaKeywords({ $anchor: 'point' })
      class Point {
        @Field() x!: number;
      }
      expect(() => inputSchema(toolWith({ minProperties: 1 }, Point))).toThrow(/name it with @SchemaName so it is written once, in \$defs/);
    });

    it('and the invoker refuses to run the tool, rather than run it unchecked', async () => {
      const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      let ran = false;
      @JsonSchemaKeywords({ allOf: [{ $ref: '#/$defs/Phone' }] })
      class Input {
        @Field({ optional: true }) phone?: string;
      }
      @Tool()
      @Expects(Input)
      class Call {
        call() {
          ran = true;
        }
      }
      try {
        const result = await invoke(Call, { phone: '1' });
        expect(result.ok).toBe(false);
        expect(result.exception).toBeInstanceOf(DeclarationError);
        expect(ran).toBe(false);
      } finally {
        logged.mockRestore();
      }
    });
  });
});
