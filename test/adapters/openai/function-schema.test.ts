import 'reflect-metadata';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { AmbientContext, describeTool, Description, Expects, Exposes, Field, Integer, Tool } from 'toolwright';
import { FUNCTION_NAME_PATTERN, toFunctionSchema } from 'toolwright/openai';

class QuoteInput {
  @Field({ description: 'Amount in euros' }) @IsInt() @Min(1) @Max(1_000_000) amount!: number;
  @Field({ default: 12 }) @IsInt() months!: number;
  @Field({ default: 'standard' }) @IsIn(['standard', 'express']) tier!: string;
  @Field({ optional: true, description: 'Free text' }) @IsOptional() note?: string;
  @AmbientContext() officerId!: string;
}

@Tool('openai', { description: 'Quote a loan' })
@Expects(QuoteInput)
@Exposes({ monthly: Number })
class QuoteLoan {
  call(input: QuoteInput) {
    return { monthly: input.amount / input.months };
  }
}

describe('toFunctionSchema', () => {
  it('projects a tool into a Chat Completions function: integers stay integers, defaulted fields are optional, ambient fields never appear', () => {
    expect(toFunctionSchema(QuoteLoan)).toMatchInlineSnapshot(`
      {
        "function": {
          "description": "Quote a loan",
          "name": "quote_loan",
          "parameters": {
            "additionalProperties": false,
            "properties": {
              "amount": {
                "description": "Amount in euros",
                "maximum": 1000000,
                "minimum": 1,
                "type": "integer",
              },
              "months": {
                "default": 12,
                "type": "integer",
              },
              "note": {
                "description": "Free text",
                "type": "string",
              },
              "tier": {
                "default": "standard",
                "enum": [
                  "standard",
                  "express",
                ],
                "type": "string",
              },
            },
            "required": [
              "amount",
            ],
            "type": "object",
          },
        },
        "type": "function",
      }
    `);
  });

  it('strict: the strict projection, with strict: true on the function', () => {
    const schema = toFunctionSchema(QuoteLoan, { strict: true });
    expect(schema.function.strict).toBe(true);
    expect(schema.function.parameters).toEqual({
      type: 'object',
      properties: {
        amount: { type: 'integer', minimum: 1, maximum: 1_000_000, description: 'Amount in euros' },
        months: { type: ['integer', 'null'] },
        tier: { type: ['string', 'null'], enum: ['standard', 'express', null] },
        note: { type: ['string', 'null'], description: 'Free text' },
      },
      required: ['amount', 'months', 'tier', 'note'],
      additionalProperties: false,
    });
  });

  it('never emits a null-valued key: no description and no strict flag are left out, not null', () => {
    @Tool('openai') class Ping { call() { return {}; } }
    const schema = toFunctionSchema(Ping);
    expect(schema).toEqual({ type: 'function', function: { name: 'ping', parameters: { type: 'object', properties: {}, additionalProperties: false } } });
    expect(Object.keys(schema.function)).toEqual(['name', 'parameters']);
    expect(JSON.stringify(schema)).not.toContain('null');
  });

  it('api: responses gives the Responses API function tool, stating strict either way', () => {
    expect(toFunctionSchema(QuoteLoan, { api: 'responses' })).toEqual({
      type: 'function',
      name: 'quote_loan',
      description: 'Quote a loan',
      parameters: toFunctionSchema(QuoteLoan).function.parameters,
      strict: false,
    });
    const strict = toFunctionSchema(QuoteLoan, { api: 'responses', strict: true });
    expect(strict.strict).toBe(true);
    expect(strict.parameters.required).toEqual(['amount', 'months', 'tier', 'note']);
  });

  it('uses the openai name: the per-adapter name wins over the shared one', () => {
    @Tool({ name: 'shared_name', adapters: { openai: { name: 'openai_name' }, mcp: { name: 'mcp_name' } } })
    class Named { call() { return {}; } }
    expect(toFunctionSchema(Named).function.name).toBe('openai_name');
    expect(toFunctionSchema(describeTool(Named)).function.name).toBe('openai_name');
  });

  it('a method tool is described through describeTool', () => {
    class Loans {
      @Tool('openai', { description: 'List loans' })
      @Expects({ state: { enum: ['pending', 'approved'], optional: true } })
      list() { return []; }
    }
    expect(toFunctionSchema(describeTool(Loans, 'list')).function).toEqual({
      name: 'list',
      description: 'List loans',
      parameters: { type: 'object', properties: { state: { type: 'string', enum: ['pending', 'approved'] } }, additionalProperties: false },
    });
  });

  it('hands out fresh objects: editing one never changes the next', () => {
    const first = toFunctionSchema(QuoteLoan);
    (first.function.parameters.properties as Record<string, unknown>).amount = 'edited';
    first.function.name = 'edited';
    const second = toFunctionSchema(QuoteLoan);
    expect(second.function.name).toBe('quote_loan');
    expect((second.function.parameters.properties as Record<string, { type: string }>).amount.type).toBe('integer');
  });

  it('an over-long name is an error naming the tool, never truncated', () => {
    const long = 'a'.repeat(65);
    @Tool({ name: long }) class TooLong { call() { return {}; } }
    expect(() => toFunctionSchema(TooLong)).toThrow(
      new TypeError(
        `TooLong: the function name '${long}' is 65 characters long; function names must match ^[a-zA-Z0-9_-]{1,64}$ and are never truncated. ` +
          "Give TooLong a shorter name with @Tool({ adapters: { openai: { name: '…' } } }).",
      ),
    );
    @Tool({ name: 'b'.repeat(64) }) class JustFits { call() { return {}; } }
    expect(toFunctionSchema(JustFits).function.name).toHaveLength(64);
    expect(FUNCTION_NAME_PATTERN.test('b'.repeat(64))).toBe(true);
    expect(FUNCTION_NAME_PATTERN.test('mcp__files.read')).toBe(false);
  });

  it('a tool that opted out cannot be offered to a model', () => {
    @Tool(false) class Helper { call() { return {}; } }
    expect(() => toFunctionSchema(Helper)).toThrow(
      new TypeError('toFunctionSchema: Helper opted out of being a tool (@Tool(false)); it cannot be offered to a model.'),
    );
  });

  it('checks its options', () => {
    expect(() => toFunctionSchema(QuoteLoan, { strict: 'yes' } as never)).toThrow(
      new TypeError("toFunctionSchema: 'strict' must be true or false; got 'yes'."),
    );
    expect(() => toFunctionSchema(QuoteLoan, { api: 'assistants' } as never)).toThrow(
      new TypeError("toFunctionSchema: 'api' must be 'chat' or 'responses'; got 'assistants'."),
    );
    expect(() => toFunctionSchema(QuoteLoan, { strcit: true } as never)).toThrow(
      new TypeError("toFunctionSchema: unknown option 'strcit'. Known options: strict, api."),
    );
  });

  it('a free-form object has no strict form: the error names the field and the way out', () => {
    @Tool('openai')
    @Expects({ payload: { type: () => Object } })
    class Loose { call() { return {}; } }
    expect(toFunctionSchema(Loose).function.parameters.properties).toEqual({ payload: { type: 'object', minProperties: 1 } });
    expect(() => toFunctionSchema(Loose, { strict: true })).toThrow(/payload is a free-form object, which OpenAI strict mode cannot express/);
  });

  it('keeps descriptions from @Description and integer types from Integer', () => {
    @Tool('openai')
    @Description('Count things')
    @Expects({ n: { type: Integer, description: 'How many' } })
    class CountThings { call() { return {}; } }
    expect(toFunctionSchema(CountThings).function).toEqual({
      name: 'count_things',
      description: 'Count things',
      parameters: {
        type: 'object',
        properties: { n: { type: 'integer', description: 'How many' } },
        required: ['n'],
        additionalProperties: false,
      },
    });
  });
});
