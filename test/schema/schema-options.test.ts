import { IsInt, IsString } from 'class-validator';
import { describeTool, Expects, Exposes, Field, inputSchema, Integer, outputSchema, schemaOf, Tool } from 'toolwright';
import * as corpus from '../fixtures/contracts/corpus';
import { checked } from '../helpers/schema';

describe('dialects', () => {
  it('draft-07 uses definitions for recursive contracts', () => {
    const schema = checked(schemaOf(corpus.Company, { dialect: 'draft-07' }), 'draft-07');
    expect(Object.keys(schema.definitions as object)).toEqual(['Team', 'Employee']);
    expect(schema.$defs).toBeUndefined();
    expect((schema.properties as Record<string, { items: unknown }>).teams.items).toEqual({ $ref: '#/definitions/Team' });
  });

  it('an unknown dialect is an error', () => {
    expect(() => schemaOf(corpus.Scalars, { dialect: '2019-09' as never })).toThrow(
      "Unknown schema dialect '2019-09'. Use '2020-12' (the default) or 'draft-07'.",
    );
  });
});

describe('the OpenAI strict-mode projection', () => {
  it('requires every property, makes optional ones nullable, and drops keywords strict mode refuses', () => {
    expect(checked(schemaOf(corpus.Optionality, { strict: true }))).toMatchInlineSnapshot(`
{
  "additionalProperties": false,
  "properties": {
    "dryRun": {
      "type": [
        "boolean",
        "null",
      ],
    },
    "mandatory": {
      "type": "string",
    },
    "nickname": {
      "type": [
        "string",
        "null",
      ],
    },
    "note": {
      "type": [
        "string",
        "null",
      ],
    },
    "requestedAt": {
      "format": "date-time",
      "type": [
        "string",
        "null",
      ],
    },
    "retries": {
      "type": [
        "number",
        "null",
      ],
    },
    "since": {
      "format": "date-time",
      "type": [
        "string",
        "null",
      ],
    },
  },
  "required": [
    "nickname",
    "note",
    "retries",
    "dryRun",
    "requestedAt",
    "since",
    "mandatory",
  ],
  "type": "object",
}
`);
  });

  it('keeps the keywords strict mode accepts, and formats it knows', () => {
    expect(checked(schemaOf(corpus.Described, { strict: true }))).toMatchInlineSnapshot(`
{
  "additionalProperties": false,
  "properties": {
    "amount": {
      "description": "Amount in cents",
      "minimum": 0,
      "type": "number",
    },
    "comment": {
      "description": "Comment",
      "pattern": "^[^<>]*$",
      "type": "string",
    },
    "contact": {
      "format": "email",
      "type": "string",
    },
  },
  "required": [
    "amount",
    "comment",
    "contact",
  ],
  "type": "object",
}
`);
    const formats = schemaOf(corpus.Formats, { strict: true }).properties as Record<string, { format?: string }>;
    expect(formats.homepage.format).toBeUndefined(); // uri is not a strict-mode format
    expect(formats.id.format).toBe('uuid');
  });

  it('closes every object, nested and recursive ones included', () => {
    const schema = checked(schemaOf(corpus.Company, { strict: true }));
    const objects: Array<Record<string, unknown>> = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        const record = node as Record<string, unknown>;
        if (record.type === 'object' || (Array.isArray(record.type) && record.type.includes('object'))) objects.push(record);
        Object.values(record).forEach(walk);
      }
    };
    walk(schema);
    expect(objects).toHaveLength(3);
    for (const object of objects) {
      expect(object.additionalProperties).toBe(false);
      expect(object.required).toEqual(Object.keys(object.properties as object));
    }
  });

  it('refuses a free-form object, which strict mode cannot express', () => {
    expect(() => schemaOf(corpus.Floors, { strict: true })).toThrow(
      'Floors.attributes is a free-form object, which OpenAI strict mode cannot express (every object must list its properties). ' +
        'Declare its shape with a class, or use the non-strict schema.',
    );
  });
});

describe('tool schemas', () => {
  it('inline shapes, as @Expects and @Exposes take them', () => {
    @Tool()
    @Expects({ query: String, limit: { type: Integer, optional: true, default: 10, max: 50 }, officer: { type: String, ambient: true } })
    @Exposes({ hits: [String] })
    class Search {
      call() {
        return { hits: [] };
      }
    }
    expect(checked(inputSchema(Search))).toMatchInlineSnapshot(`
{
  "additionalProperties": false,
  "properties": {
    "limit": {
      "default": 10,
      "maximum": 50,
      "type": "integer",
    },
    "query": {
      "minLength": 1,
      "type": "string",
    },
  },
  "required": [
    "query",
  ],
  "type": "object",
}
`);
    expect(checked(outputSchema(Search))).toEqual({
      type: 'object',
      properties: { hits: { type: 'array', items: { type: 'string' } } },
      required: ['hits'],
      additionalProperties: false,
    });
    expect(describeTool(Search).inputContract.ambientFields.map((f) => [f.name, f.ambient?.key])).toEqual([['officer', 'officer']]);
  });

  it('a method tool takes its input contract from its first parameter', () => {
    class LookupInput {
      @IsString() id!: string;
    }
    class Directory {
      @Tool() lookup(input: LookupInput) {
        return input;
      }
      @Tool() ping() {
        return {};
      }
    }
    expect(inputSchema(describeTool(Directory, 'lookup'))).toEqual(schemaOf(LookupInput));
    expect(inputSchema(describeTool(Directory, 'ping'))).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });

  it('a tool without input has a closed, empty input schema; without @Exposes no output schema', () => {
    @Tool() class Ping {
      call() {}
    }
    expect(checked(inputSchema(Ping))).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(outputSchema(Ping)).toBeUndefined();
    expect(describeTool(Ping).outputSchema()).toBeUndefined();
  });

  it('a contract thunk resolves late (circular imports)', () => {
    @Tool() @Expects(() => corpus.Scalars) class Late {
      call() {}
    }
    expect(inputSchema(Late)).toEqual(schemaOf(corpus.Scalars));
  });
});

describe('derived once, handed out fresh', () => {
  it('every call returns a copy the caller may change', () => {
    @Tool() @Expects(corpus.Scalars) class Fresh {
      call() {}
    }
    const first = inputSchema(Fresh);
    (first.properties as Record<string, unknown>).name = { type: 'number' };
    (first.required as string[]).push('hacked');
    first.additionalProperties = true;
    const second = inputSchema(Fresh);
    expect(second).toEqual(schemaOf(corpus.Scalars));
    expect(second).not.toBe(first);
    expect(describeTool(Fresh).inputSchema()).toEqual(second);
  });

  it('derives the field model once per class', () => {
    class Counted {
      @Field() a!: string;
    }
    const spy = jest.spyOn(Reflect, 'getOwnMetadata');
    schemaOf(Counted);
    const afterFirst = spy.mock.calls.length;
    schemaOf(Counted);
    schemaOf(Counted, { dialect: 'draft-07' });
    schemaOf(Counted, { strict: true });
    const afterMore = spy.mock.calls.length;
    spy.mockRestore();
    expect(afterFirst).toBeGreaterThan(0);
    expect(afterMore).toBe(afterFirst);
  });
});

describe('types reflection can see', () => {
  it('IsInt narrows a number to an integer', () => {
    class Dto {
      @IsInt() n!: number;
    }
    expect((schemaOf(Dto).properties as Record<string, unknown>).n).toEqual({ type: 'integer' });
  });
});
