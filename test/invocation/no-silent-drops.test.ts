import 'reflect-metadata';
import { configure, defineTool, describeTool, Expects, Exposes, Field, invoke, Tool, ToolContext, Tools, ToolwrightWarning } from 'toolwright';
import { render } from 'toolwright/kit';
import { isolatedRegistry } from 'toolwright/testing';

describe('a class tool that takes an input but declares no @Expects', () => {
  beforeEach(() => isolatedRegistry());

  const message =
    "Search: its entry method call() takes an input, but the class declares no @Expects, so it would accept no arguments at all. " +
    'Declare the input contract with @Expects(InputDto) or @Expects({ query: String }); a tool that takes no input but reads its ' +
    'context (call(_input, context)) declares @Expects({}).';

  it('is a declaration error at first derivation, naming the class and the fix', async () => {
    @Tool() class Search { call(input: { query: string }) { return input.query; } }
    expect(() => describeTool(Search).inputSchema()).toThrow(new TypeError(message));
    const result = await invoke(Search, { query: 'x' });
    expect(result.outcome).toBe('exception');
    expect(String(result.exception)).toContain(message);
  });

  it('is a declaration error at enumeration', () => {
    Tools.registerAdapter('mcp');
    @Tool('mcp') class Search { call(input: { query: string }) { return input.query; } }
    expect(() => Tools.forAdapter('mcp')).toThrow(new TypeError(message));
    expect(Search).toBeDefined();
  });

  it('names a custom entry method', () => {
    @Tool({ method: 'run' }) class Runner { run(input: unknown) { return input; } }
    expect(() => describeTool(Runner).inputSchema()).toThrow("Runner: its entry method run() takes an input, but the class declares no @Expects");
  });

  it('@Expects({}) declares a tool that takes no input and reads its context; no parameter needs nothing', async () => {
    @Tool() @Expects({}) class WhoAmI { call(_input: unknown, context: ToolContext) { return context.tool.toolName(); } }
    @Tool() class Ping { call() { return 'pong'; } }
    expect(describeTool(WhoAmI).inputSchema()).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(await invoke(WhoAmI, {})).toMatchObject({ ok: true, value: 'who_am_i' });
    expect(await invoke(WhoAmI, { extra: 1 })).toMatchObject({ ok: false, error: expect.stringContaining('unknown input: extra') });
    expect(await invoke(Ping, {})).toMatchObject({ ok: true, value: 'pong' });
  });

  it('an inherited @Expects counts, and defineTool without expects is a tool without input', async () => {
    @Expects({ q: String }) class Base { call(input: { q: string }) { return input.q; } }
    @Tool() class Derived extends Base {}
    expect(await invoke(Derived, { q: 'a' })).toMatchObject({ ok: true, value: 'a' });
    const now = defineTool({ name: 'now' }, (_input, context) => context.tool.toolName());
    expect(await invoke(now, {})).toMatchObject({ ok: true, value: 'now' });
  });
});

describe('returned keys the @Exposes contract does not declare', () => {
  let warnings: ToolwrightWarning[];
  beforeEach(() => {
    isolatedRegistry();
    warnings = [];
    configure({ onWarning: (warning) => void warnings.push(warning) });
  });
  afterEach(() => configure({ onWarning: undefined }));

  class Owner {
    @Field() name!: string;
  }
  class Loan {
    @Field() id!: string;
    @Field() owner!: Owner;
    internalNote?: string; // no decorator: invisible at run time
  }

  it('stay out of the response and are reported once per tool and key, naming the key and the fix', async () => {
    @Tool() @Exposes(Loan) class GetLoan { call() { return { id: 'l1', owner: { name: 'Ada', email: 'a@x' }, internalNote: 'vip', gone: undefined }; } }
    const first = await invoke(GetLoan, {});
    expect(render(first.value, GetLoan)).toEqual({ id: 'l1', owner: { name: 'Ada' } });
    await invoke(GetLoan, {});
    expect(warnings).toEqual([
      {
        code: 'TOOLWRIGHT_UNDECLARED_OUTPUT_KEY',
        tool: 'get_loan',
        key: 'email',
        message:
          "toolwright: get_loan (GetLoan) returned key 'email' at owner, which its contract Owner does not declare, so it is left out of the " +
          'response. To expose it, declare it with @Field() on Owner.email (a property without a decorator is invisible at run time); ' +
          'otherwise stop returning it.',
      },
      {
        code: 'TOOLWRIGHT_UNDECLARED_OUTPUT_KEY',
        tool: 'get_loan',
        key: 'internalNote',
        message:
          "toolwright: get_loan (GetLoan) returned key 'internalNote', which its contract Loan does not declare, so it is left out of the " +
          'response. To expose it, declare it with @Field() on Loan.internalNote (a property without a decorator is invisible at run time); ' +
          'otherwise stop returning it.',
      },
    ]);
  });

  it('a class instance is checked too (getters for declared fields do not hide an undeclared key)', async () => {
    class Row {
      constructor(readonly secret: string) {}
      get id() { return 'r1'; }
    }
    class RowOut { @Field() id!: string; }
    @Tool() @Exposes(RowOut) class GetRow { call() { return new Row('s'); } }
    expect(await invoke(GetRow, {})).toMatchObject({ ok: true });
    expect(warnings.map((w) => [w.tool, w.key])).toEqual([['get_row', 'secret']]);
  });

  it('another tool returning the same contract is reported for itself; an inline shape says to add the key to it', async () => {
    @Tool() @Exposes(Loan) class FindLoan { call() { return { id: 'l2', owner: { name: 'Bo' }, internalNote: 'x' }; } }
    @Tool() @Exposes({ total: Number }) class Count { call() { return { total: 3, pages: 1 }; } }
    await invoke(FindLoan, {});
    await invoke(Count, {});
    expect(warnings.map((w) => [w.tool, w.key])).toEqual([['find_loan', 'internalNote'], ['count', 'pages']]);
    expect(warnings[1].message).toContain("To expose it, add 'pages' to the tool's @Exposes shape; otherwise stop returning it.");
  });

  it('render(value, Dto) reports without a tool', () => {
    expect(render({ name: 'x', extra: 1 }, Owner)).toEqual({ name: 'x' });
    expect(warnings).toEqual([expect.objectContaining({ key: 'extra', tool: undefined, message: expect.stringContaining("render(value, Owner) returned key 'extra'") })]);
  });

  it('at most 50 keys per tool and contract are reported, then one note (a value keyed by ids cannot flood)', async () => {
    class Totals { @Field() n!: number; }
    @Tool() @Exposes(Totals) class ById { call() { return { n: 1, ...Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`user${i}`, i])) }; } }
    await invoke(ById, {});
    await invoke(ById, {});
    expect(warnings).toHaveLength(51);
    expect(warnings[50].message).toBe('toolwright: by_id (ById) returned more than 50 keys that Totals does not declare; further ones are not reported.');
  });

  it('by default, a Node process warning with its code; none in production', async () => {
    configure({ onWarning: undefined });
    const emitted: Array<[string, unknown]> = [];
    const spy = jest.spyOn(process, 'emitWarning').mockImplementation(((message: string, options: unknown) => void emitted.push([message, options])) as never);
    const env = process.env.NODE_ENV;
    try {
      @Tool() @Exposes(Owner) class Quiet { call() { return { name: 'a', hidden: 1 }; } }
      @Tool() @Exposes(Owner) class Loud { call() { return { name: 'a', hidden: 1 }; } }
      process.env.NODE_ENV = 'production';
      await invoke(Quiet, {});
      process.env.NODE_ENV = 'test';
      await invoke(Loud, {});
      expect(emitted).toEqual([[expect.stringContaining("loud (Loud) returned key 'hidden'"), { code: 'TOOLWRIGHT_UNDECLARED_OUTPUT_KEY' }]]);
    } finally {
      process.env.NODE_ENV = env;
      spy.mockRestore();
    }
  });

  it('onWarning must be a function; a throwing handler never breaks the call', async () => {
    expect(() => configure({ onWarning: 'log' as never })).toThrow("configure: onWarning must be a function; got 'log'.");
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    configure({ onWarning: () => { throw new Error('handler bug'); } });
    @Tool() @Exposes(Owner) class Sturdy { call() { return { name: 'a', hidden: 1 }; } }
    expect(await invoke(Sturdy, {})).toMatchObject({ ok: true });
    expect(error).toHaveBeenCalledWith('toolwright: the onWarning handler itself threw:', expect.any(Error));
    error.mockRestore();
  });
});
