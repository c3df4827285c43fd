import { configure, describeTool, Field, isToolwrightError, schemaOf, SemanticHints, Tool, ToolwrightError } from 'toolwright';
import { createDeprecator, Extensions, guardToolResponse } from 'toolwright/kit';

describe('guardToolResponse', () => {
  @Tool() class Mapped { call() {} }
  const reported: Array<[unknown, string]> = [];
  const env = process.env.NODE_ENV;
  beforeAll(() => configure({ onException: (error, { tool }) => reported.push([error, tool.toolName()]) }));
  afterAll(() => configure({ onException: undefined }));
  beforeEach(() => (reported.length = 0));
  afterEach(() => (process.env.NODE_ENV = env));

  it('returns the mapping when it succeeds, reporting nothing', () => {
    expect(guardToolResponse(Mapped, () => 'response', () => 'error response')).toBe('response');
    expect(reported).toEqual([]);
  });

  it('on an exception: reports once and returns onError(error)', () => {
    const boom = new Error('max nesting exceeded');
    const seen: unknown[] = [];
    const out = guardToolResponse(Mapped, () => { throw boom; }, (error) => { seen.push(error); return 'The tool could not produce a valid response'; });
    expect(out).toBe('The tool could not produce a valid response');
    expect(seen).toEqual([boom]);
    expect(reported).toEqual([[boom, 'mapped']]);
  });

  it('re-throws in development, after reporting', () => {
    process.env.NODE_ENV = 'development';
    const boom = new Error('bug');
    expect(() => guardToolResponse(Mapped, () => { throw boom; }, () => 'x')).toThrow(boom);
    expect(reported).toHaveLength(1);
  });

  it('guards an async mapping too', async () => {
    const out = await guardToolResponse(Mapped, async () => { throw new Error('late'); }, () => 'fallback');
    expect(out).toBe('fallback');
    expect(reported).toHaveLength(1);
  });
});

describe('the ToolwrightError brand', () => {
  class TimeoutError extends Error {}
  @ToolwrightError.mark
  class RetryLater extends TimeoutError {}
  class RetryMuchLater extends RetryLater {}

  it('marks a class without changing its superclass; subclasses are marked too', () => {
    const error = new RetryLater('try again');
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ToolwrightError);
    expect(isToolwrightError(error)).toBe(true);
    expect(new RetryMuchLater()).toBeInstanceOf(ToolwrightError);
    expect(isToolwrightError(new TimeoutError())).toBe(false);
    expect(new TimeoutError()).not.toBeInstanceOf(ToolwrightError);
  });

  it('subclasses of ToolwrightError keep ordinary instanceof', () => {
    class AdapterError extends ToolwrightError {}
    class Other extends ToolwrightError {}
    expect(new AdapterError('x')).toBeInstanceOf(AdapterError);
    expect(new Other('x')).not.toBeInstanceOf(AdapterError);
    expect(new Other('x')).toBeInstanceOf(ToolwrightError);
  });

  it('refuses to mark what is not an Error class', () => {
    expect(() => ToolwrightError.mark(class NotAnError {} as never)).toThrow('ToolwrightError.mark expects an Error subclass; got NotAnError.');
  });
});

describe('the extension registry', () => {
  it('a registered semantic hint becomes declarable; an unknown one is an error', () => {
    expect(() => { @SemanticHints('openWorldish') class A {} return A; }).toThrow("A: unknown semantic hint 'openWorldish'.");
    Extensions.registerSemanticHint('openWorldish', 'openWorldish');
    @Tool() @SemanticHints('readOnly', 'openWorldish') class Browse { call() {} }
    expect(describeTool(Browse).hints).toEqual(['readOnly', 'openWorldish']);
    expect(() => Extensions.registerSemanticHint('has space')).toThrow("Extensions.registerSemanticHint: 'has space' is not a valid name.");
  });

  it('a registered field metadata key arrives on the field; names @Field or class-validator own are refused', () => {
    Extensions.registerFieldMetadataKey('mcpTitle');
    class Dto {
      @Field({ mcpTitle: 'Loan number' }) loanId!: string;
    }
    expect(schemaOf(Dto).properties).toEqual({ loanId: { type: 'string', minLength: 1 } });
    for (const owned of ['optional', 'default', 'each', 'message', 'groups']) {
      expect(() => Extensions.registerFieldMetadataKey(owned)).toThrow(`Extensions.registerFieldMetadataKey: '${owned}' is owned by @Field or class-validator`);
    }
    expect(() => { class Bad { @Field({ mcpSubtitle: 'x' } as never) x!: string; } return Bad; }).toThrow("Bad.x: unknown field option 'mcpSubtitle'.");
  });

  it('field metadata is readable from the public reflection surface', () => {
    class Dto {
      @Field({ mcpTitle: 'Amount' }) amount!: number;
    }
    class Billing {
      @Tool() charge(input: Dto) { return input; }
    }
    expect(describeTool(Billing, 'charge').inputContract.fields[0].metadata).toEqual({ mcpTitle: 'Amount' });
  });
});

describe('createDeprecator', () => {
  it('emits a DeprecationWarning with a code, once per message', () => {
    const emitted: Array<[string, unknown]> = [];
    const spy = jest.spyOn(process, 'emitWarning').mockImplementation(((message: string, options: unknown) => emitted.push([message, options])) as never);
    const deprecate = createDeprecator('toolwright/example');
    deprecate('TOOLWRIGHT_EXAMPLE_001', "presentAs: 'text' is deprecated; use 'message'");
    deprecate('TOOLWRIGHT_EXAMPLE_001', "presentAs: 'text' is deprecated; use 'message'");
    deprecate('TOOLWRIGHT_EXAMPLE_002', 'the title setting is deprecated');
    spy.mockRestore();
    expect(emitted).toEqual([
      ["toolwright/example: presentAs: 'text' is deprecated; use 'message'", { type: 'DeprecationWarning', code: 'TOOLWRIGHT_EXAMPLE_001' }],
      ['toolwright/example: the title setting is deprecated', { type: 'DeprecationWarning', code: 'TOOLWRIGHT_EXAMPLE_002' }],
    ]);
    expect(() => deprecate('lower', 'x')).toThrow('deprecate: the code must be UPPER_SNAKE_CASE');
  });
});
