import 'reflect-metadata';
import { Validate, ValidateIf, ValidatorConstraint, ValidatorConstraintInterface, IsString, IsInt } from 'class-validator';
import { container, injectable } from 'tsyringe';
import {
  configure,
  defineTool,
  Exposes,
  Expects,
  FailsOn,
  Field,
  fail,
  invoke,
  Invoker,
  InputValidationError,
  OutputContractError,
  Tool,
  ToolCancelledError,
  ToolFailure,
  ToolRegistry,
  ToolResolutionError,
  UnserializableValueError,
} from 'toolwright';

const reported: Array<{ error: unknown; tool: string; args: unknown }> = [];
beforeAll(() => configure({ onException: (error, { tool, args }) => reported.push({ error, tool: tool.toolName(), args }) }));
afterAll(() => configure({ onException: undefined }));
beforeEach(() => (reported.length = 0));

class RateLimited extends Error {}
class QuotaExceeded extends Error {}

describe('results and failure messages', () => {
  @Tool({ error: 'Could not approve the loan', success: 'Loan approved' })
  @FailsOn(RateLimited, 'the bank is busy, try again in a minute')
  @FailsOn(QuotaExceeded)
  @Expects({ mode: String })
  class Approve {
    call({ mode }: { mode: string }) {
      switch (mode) {
        case 'ok':
          return { id: 1 };
        case 'reason':
          return fail('no such loan');
        case 'standalone':
          return fail('The loan was withdrawn.', { standalone: true });
        case 'bare':
          return fail();
        case 'rate':
          throw new RateLimited('HTTP 429 from core-banking.internal:8443');
        case 'quota':
          throw new QuotaExceeded('quota 17/17 for tenant acme');
        default:
          throw new Error('secret connection string postgres://admin:hunter2@db');
      }
    }
  }

  it('success: ok, value, success message', async () => {
    const result = await invoke(Approve, { mode: 'ok' });
    expect(result).toMatchObject({ ok: true, outcome: 'success', value: { id: 1 }, success: 'Loan approved', message: 'Loan approved', error: undefined, exception: undefined });
    expect(result.fieldErrors).toEqual([]);
  });

  it('fail(reason) reads "Headline: reason"', async () => {
    const result = await invoke(Approve, { mode: 'reason' });
    expect(result).toMatchObject({ ok: false, outcome: 'failure', error: 'Could not approve the loan: no such loan', message: 'Could not approve the loan: no such loan', success: undefined });
    expect(result.exception).toBeInstanceOf(ToolFailure);
  });

  it('standalone drops the headline; no reason gives the headline alone', async () => {
    expect((await invoke(Approve, { mode: 'standalone' })).error).toBe('The loan was withdrawn.');
    expect((await invoke(Approve, { mode: 'bare' })).error).toBe('Could not approve the loan');
  });

  it('@FailsOn turns a foreign exception into a failure: its own message never reaches the caller, nothing is reported', async () => {
    const rate = await invoke(Approve, { mode: 'rate' });
    expect(rate).toMatchObject({ outcome: 'failure', error: 'Could not approve the loan: the bank is busy, try again in a minute' });
    expect(rate.exception).toBeInstanceOf(RateLimited);
    const quota = await invoke(Approve, { mode: 'quota' });
    expect(quota).toMatchObject({ outcome: 'failure', error: 'Could not approve the loan' });
    expect(quota.exception).not.toBeInstanceOf(ToolFailure);
    expect(quota.exception).not.toBeInstanceOf(InputValidationError);
    expect(reported).toEqual([]);
  });

  it('an unexpected exception: generic message, the error kept for developers, reported exactly once', async () => {
    const result = await invoke(Approve, { mode: 'boom' });
    expect(result).toMatchObject({ ok: false, outcome: 'exception', error: 'Could not approve the loan', message: 'Could not approve the loan' });
    expect((result.exception as Error).message).toContain('hunter2');
    expect(JSON.stringify(result)).not.toContain('hunter2');
    expect(reported).toEqual([{ error: result.exception, tool: 'approve', args: { mode: 'boom' } }]);
  });

  it('without a headline: the reason alone, or the defaults', async () => {
    @Tool() @Expects({ mode: String }) class Plain {
      call({ mode }: { mode: string }) {
        if (mode === 'reason') fail('nothing to do');
        if (mode === 'bare') fail();
        if (mode === 'boom') throw new Error('x');
        return {};
      }
    }
    expect((await invoke(Plain, { mode: 'reason' })).error).toBe('nothing to do');
    expect((await invoke(Plain, { mode: 'bare' })).error).toBe('Something went wrong');
    expect((await invoke(Plain, { mode: 'boom' })).error).toBe('Something went wrong');
    expect((await invoke(Plain, { mode: 'ok' })).message).toBe('Action completed successfully');
  });

  it('input errors are failures, not reported; with userFacingInputErrors: false they are exceptions', async () => {
    const failure = await invoke(Approve, { mode: 3 });
    expect(failure).toMatchObject({ outcome: 'failure', error: 'Could not approve the loan: mode must be a string' });
    expect(Invoker.inputInvalid(failure)).toBe(true);
    expect(reported).toEqual([]);
    const exception = await new Invoker({ userFacingInputErrors: false }).invoke(Approve, { mode: 3 });
    expect(exception).toMatchObject({ outcome: 'exception', error: 'Could not approve the loan' });
    expect(exception.fieldErrors).toEqual([{ field: 'mode', message: 'mode must be a string', keyword: 'type', params: { type: 'string' } }]);
    expect(Invoker.inputInvalid(exception)).toBe(true);
    expect(reported).toHaveLength(1);
  });

  it('an onException on the invoker replaces the process-wide one', async () => {
    const mine: unknown[] = [];
    await new Invoker({ onException: (error) => mine.push(error) }).invoke(Approve, { mode: 'boom' });
    expect(mine).toHaveLength(1);
    expect(reported).toHaveLength(0);
  });

  it('Result.toJSON never carries the exception', async () => {
    const result = await invoke(Approve, { mode: 'boom' });
    expect(result.toJSON()).toEqual({ ok: false, outcome: 'exception', message: 'Could not approve the loan', error: 'Could not approve the loan', fieldErrors: [] });
  });
});

describe('7. the returned value keeps the @Exposes contract', () => {
  class Receipt {
    @Field() id!: string;
    @Field() total!: number;
    @Field({ optional: true }) note?: string;
  }

  it('renders exactly the declared fields', async () => {
    @Tool() @Exposes(Receipt) class Pay { call() { return { id: 'r1', total: 5, secret: 'x' }; } }
    const result = await invoke(Pay, {});
    expect(result.ok).toBe(true);
    expect(result.value).toEqual({ id: 'r1', total: 5, secret: 'x' });
  });

  it('a missing or wrong field is a developer-facing exception naming the field', async () => {
    @Tool({ error: 'Payment failed' }) @Exposes(Receipt) class Broken { call() { return { total: 'five' }; } }
    const result = await invoke(Broken, {});
    expect(result).toMatchObject({ outcome: 'exception', error: 'Payment failed' });
    expect(result.exception).toBeInstanceOf(OutputContractError);
    expect((result.exception as OutputContractError).message).toBe(
      'broken (Broken) returned a value that breaks its @Exposes contract (Receipt): id is required; total must be a number conforming to the specified constraints.',
    );
    expect(reported).toHaveLength(1);
  });

  it('a value with no JSON form is an exception naming the path', async () => {
    @Tool() @Exposes(Receipt) class NotANumber { call() { return { id: 'r', total: NaN }; } }
    const result = await invoke(NotANumber, {});
    expect(result.exception).toBeInstanceOf(UnserializableValueError);
    expect((result.exception as UnserializableValueError).path).toBe('total');
  });
});

describe('6. DI, context and cancellation', () => {
  @injectable() class Greeter { greet(name: string) { return `Hello, ${name}`; } }

  it('resolves the tool through the container given for the call', async () => {
    @Tool() @Expects({ name: String }) class Greet {
      constructor(private readonly greeter: Greeter) {}
      call({ name }: { name: string }) { return this.greeter.greet(name); }
    }
    expect((await invoke(Greet, { name: 'Ada' })).value).toBe('Hello, Ada');
    const child = container.createChildContainer();
    child.register(Greeter, { useValue: { greet: (name: string) => `Hi ${name}` } });
    expect((await invoke(Greet, { name: 'Ada' }, { container: child })).value).toBe('Hi Ada');
  });

  it('a dependency that cannot be resolved is an exception, reported', async () => {
    interface Clock { now(): Date }
    @Tool() class NeedsClock {
      constructor(readonly clock: Clock) {}
      call() { return {}; }
    }
    const result = await invoke(NeedsClock, {});
    expect(result.outcome).toBe('exception');
    expect(result.exception).toBeInstanceOf(ToolResolutionError);
    expect(reported).toHaveLength(1);
  });

  it('the tool gets a context with the AbortSignal and its definition', async () => {
    const controller = new AbortController();
    let seen: { signal: AbortSignal; name: string } | undefined;
    @Expects({}) // takes no input, reads its context
    @Tool() class Observe {
      call(_input: unknown, context: { signal: AbortSignal; tool: { toolName(): string } }) {
        seen = { signal: context.signal, name: context.tool.toolName() };
        return {};
      }
    }
    await invoke(Observe, {}, { signal: controller.signal });
    expect(seen?.signal).toBe(controller.signal);
    expect(seen?.name).toBe('observe');
  });

  it('a call cancelled before it starts never runs; one cancelled while running is a cancelled failure', async () => {
    let started = 0;
    @Expects({}) // takes no input, reads its context
    @Tool() class Slow {
      async call(_input: unknown, { signal }: { signal: AbortSignal }) {
        started++;
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, 5_000);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(signal.reason);
          });
        });
        return {};
      }
    }
    const early = new AbortController();
    early.abort();
    const before = await invoke(Slow, {}, { signal: early.signal });
    expect(before).toMatchObject({ outcome: 'failure', error: 'The call was cancelled.' });
    expect(started).toBe(0);

    const late = new AbortController();
    const pending = invoke(Slow, {}, { signal: late.signal });
    setTimeout(() => late.abort(), 10);
    const during = await pending;
    expect(during).toMatchObject({ outcome: 'failure', error: 'The call was cancelled.' });
    expect(during.exception).toBeInstanceOf(ToolCancelledError);
    expect(started).toBe(1);
    expect(reported).toEqual([]);
  });

  it('method tools run on their resolved service instance', async () => {
    @injectable() class Inventory {
      private stock = 3;
      @Tool() @Expects({ take: Number }) take({ take }: { take: number }) {
        this.stock -= take;
        return this.stock;
      }
    }
    const registry = new ToolRegistry();
    expect((await invoke(registry.describe(Inventory, 'take'), { take: '1' })).value).toBe(2);
  });
});

@ValidatorConstraint({ name: 'isEven' })
class IsEven implements ValidatorConstraintInterface {
  validate(value: number) {
    return value % 2 === 0;
  }
  defaultMessage() {
    return '$property must be even';
  }
}

describe('constraints only class-validator can check', () => {
  beforeEach(() => jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('run after schema validation, with class-validator’s messages', async () => {
    class Seats {
      @IsInt() @Validate(IsEven) count!: number;
    }
    @Tool() @Expects(Seats) class Reserve { call() { return {}; } }
    expect((await invoke(Reserve, { count: 3 })).error).toBe('count must be even');
    expect((await invoke(Reserve, { count: '4' })).ok).toBe(true);
  });

  it('@ValidateIf applies its constraints only when its condition holds', async () => {
    class Shipping {
      @IsString() method!: string;
      @ValidateIf((o: Shipping) => o.method === 'post') @IsString() address?: string;
    }
    @Tool() @Expects(Shipping) class Ship { call() { return {}; } }
    expect((await invoke(Ship, { method: 'pickup' })).ok).toBe(true);
    expect((await invoke(Ship, { method: 'post' })).error).toBe('address must be a string');
  });
});

describe('inline tools', () => {
  const search = defineTool(
    { name: 'search_docs', description: 'Search the docs', expects: { query: String, limit: { type: Number, optional: true, default: 5 } }, exposes: { hits: [String] }, error: 'Search failed' },
    async ({ query, limit }: { query: string; limit: number }) => {
      if (query === 'nothing') fail('no results');
      return { hits: Array.from({ length: Math.min(limit, 2) }, (_, i) => `${query} ${i}`) };
    },
  );

  it('behaves like a declared class tool', async () => {
    expect((await invoke(search, { query: 'tea' })).value).toEqual({ hits: ['tea 0', 'tea 1'] });
    expect((await invoke(search, { query: 'nothing' })).error).toBe('Search failed: no results');
    expect((await invoke(search, { query: '' })).error).toBe('Search failed: query should not be empty');
    expect((await invoke(search, { query: 'x', limit: '1' })).value).toEqual({ hits: ['x 0'] });
  });

  it('is never enumerated by adapter key', () => {
    const registry = new ToolRegistry().registerAdapter('mcp');
    expect(registry.forAdapter('mcp').map((d) => d.toolName())).not.toContain('search_docs');
    expect(registry.describe(search).toolName()).toBe('search_docs');
    expect(registry.describe(search).description).toBe('Search the docs');
  });

  it('refuses bad options', () => {
    expect(() => defineTool({} as never, () => 1)).toThrow("defineTool: 'name' is required and needs a provider-safe character (e.g. 'search_docs'); got undefined.");
    expect(() => defineTool({ name: 'x', expect: {} } as never, () => 1)).toThrow("defineTool: unknown option 'expect'.");
    expect(() => defineTool({ name: 'x' }, 'nope' as never)).toThrow("defineTool(x): the second argument must be the tool's function; got 'nope'.");
  });
});
