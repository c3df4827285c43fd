/**
 * Declaration mistakes, setup mistakes, conflicts and unknown adapters are typed members of the
 * toolwright error family (with a code and the site they name), and stay TypeErrors where they were.
 */
import 'reflect-metadata';
import {
  IsEmail,
  IsIn,
  IsNotIn,
  Matches,
  MaxLength,
  Min,
  Validate,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import {
  AmbientContext,
  DeclarationError,
  defineTool,
  describeTool,
  Expects,
  Field,
  inputSchema,
  invoke,
  Invoker,
  isToolwrightError,
  SetupError,
  Tool,
  ToolConflictError,
  ToolRegistry,
  ToolVersion,
  ToolwrightError,
  UnknownAdapterError,
} from 'toolwright';
import { createMcpServer } from 'toolwright/mcp';
import { serveHttpApi } from 'toolwright/http';
import { isolatedRegistry } from 'toolwright/testing';

let registry: ToolRegistry;
beforeEach(() => {
  registry = isolatedRegistry();
});

/** The error a function throws (fails the test when it throws nothing). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

function expectDeclaration(error: unknown, site: { class: string | undefined; member: string | undefined }, message?: RegExp): void {
  expect(error).toBeInstanceOf(DeclarationError);
  expect(error).toBeInstanceOf(TypeError);
  expect(error).toBeInstanceOf(ToolwrightError);
  expect(isToolwrightError(error)).toBe(true);
  const declaration = error as DeclarationError;
  expect(declaration.code).toBe('DECLARATION');
  expect(declaration.name).toBe('DeclarationError');
  expect(declaration.site).toEqual(site);
  if (message) expect(declaration.message).toMatch(message);
}

describe('DeclarationError, one per family', () => {
  it('a decorator option names the class', () => {
    const error = thrown(() => {
      @Tool({ timeoutMs: -1 })
      @Expects({})
      class Loan {
        call(): void {}
      }
      return Loan;
    });
    expectDeclaration(error, { class: 'Loan', member: undefined }, /^Loan: @Tool option 'timeoutMs' must be/);
  });

  it('a decorator on a method names the class and the method', () => {
    const error = thrown(() => {
      class Desk {
        @Tool({ bogus: true } as never)
        approve(): void {}
      }
      return Desk;
    });
    expectDeclaration(error, { class: 'Desk', member: 'approve' }, /unknown @Tool option 'bogus'/);
  });

  it('a contract field names the class and the field, at decoration and at first derivation', () => {
    const atDecoration = thrown(() => {
      class LoanInput {
        @Field({ minLength: 'three' } as never) name!: string;
      }
      return LoanInput;
    });
    expectDeclaration(atDecoration, { class: 'LoanInput', member: 'name' }, /^LoanInput\.name: /);

    class Note {
      @Field() body!: string | number; // reflects as Object: reflection cannot see the type
    }
    @Tool()
    @Expects(Note)
    class Write {
      call(input: Note): Note {
        return input;
      }
    }
    expectDeclaration(thrown(() => inputSchema(Write)), { class: 'Note', member: 'body' }, /reflection cannot see this property's type/);
  });

  it('an inline shape names the tool it is declared on', () => {
    const error = thrown(() => {
      @Tool()
      @Expects({ query: 42 } as never)
      class Search {
        call(): void {}
      }
      return Search;
    });
    expectDeclaration(error, { class: 'Search', member: undefined }, /field 'query'/);
  });

  it('the schema names the nested class and its ambient field', () => {
    class Address {
      @Field() city!: string;
      @AmbientContext() userId!: string;
    }
    class Order {
      @Field({ type: () => Address }) address!: Address;
    }
    @Tool()
    @Expects(Order)
    class PlaceOrder {
      call(): void {}
    }
    expectDeclaration(thrown(() => inputSchema(PlaceOrder)), { class: 'Address', member: 'userId' }, /only for a tool's top-level input/);
    expectDeclaration(thrown(() => inputSchema(PlaceOrder, { dialect: 'draft-04' as never })), { class: undefined, member: undefined });
  });

  it('the registry names the class and the method it was asked for', () => {
    class Plain {
      helper(): void {}
    }
    expectDeclaration(thrown(() => describeTool(Plain, 'helper')), { class: 'Plain', member: 'helper' }, /is not a method tool/);
  });

  it('enumeration finds a version suffix the class does not declare', () => {
    @Tool()
    @Expects({})
    class ApproveV2 {
      call(): void {}
    }
    @Tool()
    @Expects({})
    @ToolVersion(1)
    class Approve {
      call(): void {}
    }
    void Approve;
    expectDeclaration(thrown(() => registry.forAdapter('mcp')), { class: 'ApproveV2', member: undefined }, /looks like version 2 of approve but declares no @ToolVersion/);
    void ApproveV2;
  });

  it('defineTool and adapter setup options', () => {
    expectDeclaration(
      thrown(() => defineTool({ name: 'x', bogus: 1 } as never, () => 1)),
      { class: undefined, member: undefined },
      /defineTool: unknown option 'bogus'/,
    );
    expectDeclaration(thrown(() => createMcpServer({} as never)), { class: undefined, member: undefined }, /createMcpServer needs/);
  });

  it('keeps its message exactly and can be built by an adapter', () => {
    const error = new DeclarationError('Loan.amount: bad.', { class: class Loan {}, member: 'amount' });
    expect([error.message, error.site, error.code]).toEqual(['Loan.amount: bad.', { class: 'Loan', member: 'amount' }, 'DECLARATION']);
    expect(Object.isFrozen(error.site)).toBe(true);
    expect(new DeclarationError('x').site).toEqual({ class: undefined, member: undefined });
  });
});

describe('SetupError', () => {
  it('the TC39 standard decorators are a setup mistake, not a declaration of the class', () => {
    const context = { kind: 'class', name: 'Loan', addInitializer: () => undefined };
    const error = thrown(() => (Tool() as unknown as (target: unknown, context: unknown) => void)(class Loan {}, context));
    expect(error).toBeInstanceOf(SetupError);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(DeclarationError);
    expect(isToolwrightError(error)).toBe(true);
    expect((error as SetupError).code).toBe('SETUP');
    expect((error as Error).message).toMatch(/standard \(TC39\) decorator/);
  });
});

describe('ToolConflictError', () => {
  it('two tools with one (name, version) carry the name, version, adapter and both tools', () => {
    @Tool({ name: 'approve' })
    @Expects({})
    class ApproveLoan {
      call(): void {}
    }
    class Desk {
      @Tool({ name: 'approve' })
      @Expects({})
      approve(): void {}
    }
    const error = thrown(() => registry.forAdapter('openai')) as ToolConflictError;
    expect(error).toBeInstanceOf(ToolConflictError);
    expect(error).toBeInstanceOf(DeclarationError);
    expect(error).toBeInstanceOf(TypeError);
    expect(isToolwrightError(error)).toBe(true);
    expect([error.code, error.toolName, error.version, error.adapter]).toEqual(['TOOL_CONFLICT', 'approve', 1, 'openai']);
    expect(error.tools).toEqual([
      { id: 'ApproveLoan', target: ApproveLoan, method: undefined },
      { id: 'Desk.approve', target: Desk, method: 'approve' },
    ]);
    expect(error.message).toBe(
      "Tools ApproveLoan and Desk.approve are both 'approve' version 1 for adapter 'openai'. " +
        'Give one an explicit name (@Tool({ name })) or a distinct @ToolVersion.',
    );
  });
});

describe('UnknownAdapterError', () => {
  it('enumerating an adapter key nobody registered', () => {
    const error = thrown(() => registry.forAdapter('grpc')) as UnknownAdapterError;
    expect(error).toBeInstanceOf(UnknownAdapterError);
    expect(isToolwrightError(error)).toBe(true);
    expect(error).not.toBeInstanceOf(TypeError);
    expect([error.code, error.adapter, error.registered]).toEqual(['UNKNOWN_ADAPTER', 'grpc', ['mcp', 'openai']]);
    expect(error.message).toMatch(/^Unknown adapter 'grpc'\. Registered adapters: 'mcp' and 'openai'\./);
  });
});

describe('FieldError keyword and params, through invoke() and the HTTP 422 body', () => {
  class Tags {
    @Field({ type: () => [String], minItems: 1, maxItems: 2 }) list!: string[];
  }
  @ValidatorConstraint({ name: 'isEven' })
  class IsEven implements ValidatorConstraintInterface {
    validate(value: unknown): boolean {
      return typeof value === 'number' && value % 2 === 0;
    }
  }
  class Applicant {
    @Field() @MaxLength(5) nick!: string;
    @Field({ minLength: 2 }) name!: string;
    @Field() @Min(18) age!: number;
    @Field({ max: 100 }) score!: number;
    @Field() @Matches(/^[a-z]+$/) code!: string;
    @Field() @IsEmail() email!: string;
    @Field() @IsIn(['gold', 'silver']) tier!: string;
    @Field() active!: boolean;
    @Field({ type: () => Tags, optional: true }) tags?: Tags;
    @Field({ optional: true }) note?: string;
    @Field({ optional: true }) @IsNotIn(['root']) user?: string;
    @Field({ optional: true }) @Validate(IsEven) seats?: number;
  }
  const valid = { nick: 'ada', name: 'Ada', age: 30, score: 5, code: 'abc', email: 'a@b.co', tier: 'gold', active: true };

  @Tool()
  @Expects(Applicant)
  class Apply {
    call(): string {
      return 'ok';
    }
  }

  const cases: Array<[string, Record<string, unknown>, string, string, Record<string, unknown>]> = [
    ['required', { ...valid, name: undefined }, 'name', 'required', {}],
    ['type', { ...valid, active: 'maybe' }, 'active', 'type', { type: 'boolean' }],
    ['minLength', { ...valid, name: 'A' }, 'name', 'minLength', { limit: 2 }],
    ['maxLength', { ...valid, nick: 'adaline' }, 'nick', 'maxLength', { limit: 5 }],
    ['minimum', { ...valid, age: 17 }, 'age', 'minimum', { limit: 18 }],
    ['maximum', { ...valid, score: 101 }, 'score', 'maximum', { limit: 100 }],
    ['pattern', { ...valid, code: 'ABC' }, 'code', 'pattern', { pattern: '^[a-z]+$' }],
    ['format', { ...valid, email: 'nope' }, 'email', 'format', { format: 'email' }],
    ['enum', { ...valid, tier: 'bronze' }, 'tier', 'enum', { allowed: ['gold', 'silver'] }],
    ['minItems', { ...valid, tags: { list: [] } }, 'tags.list', 'minItems', { limit: 1 }],
    ['maxItems', { ...valid, tags: { list: ['a', 'b', 'c'] } }, 'tags.list', 'maxItems', { limit: 2 }],
    ['unknown', { ...valid, colour: 'red' }, 'colour', 'unknown', {}],
    ['unpairedSurrogate', { ...valid, note: '\ud800' }, 'note', 'unpairedSurrogate', {}],
    ['not', { ...valid, user: 'root' }, 'user', 'not', {}],
    ['a run-time-only class-validator constraint, by its name', { ...valid, seats: 3 }, 'seats', 'isEven', {}],
  ];

  it.each(cases)('%s', async (_label, args, field, keyword, params) => {
    const result = await invoke(Apply, args);
    expect(result.ok).toBe(false);
    expect(result.fieldErrors).toEqual([{ field, keyword, params, message: expect.any(String) }]);
  });

  it('depth: input nested past maxInputDepth names the limit', async () => {
    const result = await new Invoker({ maxInputDepth: 3 }).invoke(Apply, { ...valid, note: { a: { b: { c: 1 } } } });
    expect(result.fieldErrors).toEqual([{ field: 'base', keyword: 'depth', params: { limit: 3 }, message: 'the input is nested deeper than 3 levels' }]);
  });

  it('truncated and counted unknown keys carry their counts', async () => {
    const args: Record<string, unknown> = { ...valid };
    for (let i = 0; i < 30; i++) args[`k${i}`] = i;
    const unknown = await invoke(Apply, args);
    expect(unknown.fieldErrors.at(-1)).toEqual({ field: 'base', keyword: 'unknown', params: { count: 25 }, message: 'and 25 more unknown inputs' });
    const many = await invoke(Apply, { ...valid, tags: { list: Array.from({ length: 30 }, (_, i) => i) } });
    const last = many.fieldErrors.at(-1)!;
    expect(many.fieldErrors).toHaveLength(21);
    expect(last).toEqual({ field: 'base', keyword: 'truncated', params: { count: expect.any(Number) }, message: expect.any(String) });
    expect(last.message).toBe(`and ${last.params.count as number} more problems`);
    expect(many.fieldErrors.slice(0, 20).every((e) => e.keyword !== 'truncated' && typeof e.params === 'object')).toBe(true);
  });

  it('the HTTP 422 problem lists keyword and params per field', async () => {
    const api = await serveHttpApi({ tools: [Apply], docs: false }, { port: 0 });
    try {
      const response = await fetch(`${api.url}/apply/v1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...valid, score: 101, colour: 'red' }),
      });
      expect(response.status).toBe(422);
      const body = (await response.json()) as { errors: unknown[] };
      expect(body.errors).toEqual([
        { field: 'colour', keyword: 'unknown', params: {}, message: 'unknown input: colour' },
        { field: 'score', keyword: 'maximum', params: { limit: 100 }, message: expect.stringContaining('score') },
      ]);
      const openapi = (await (await fetch(`${api.url}/openapi.json`)).json()) as {
        components: { schemas: { Problem: { properties: { errors: { items: { required: string[] } } } } } };
      };
      expect(openapi.components.schemas.Problem.properties.errors.items.required).toEqual(['field', 'keyword', 'params', 'message']);
    } finally {
      await api.close();
    }
  });
});
