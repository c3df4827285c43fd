import { Exposes, Field, invoke, Tool, ToolRegistry, UnserializableValueError } from 'toolwright';
import { declareRejectOpaqueExposedValues, defineAdapterConfig } from 'toolwright/kit';

// Namespaces are process-wide, like the adapters that declare them: one per test here.
describe('defineAdapterConfig: adapter-wide values', () => {
  const config = defineAdapterConfig('kit-wide', {
    presentAs: { default: 'structured', oneOf: ['structured', 'message'], overridable: true },
    pageSize: { default: 20, validate: (n: number) => (Number.isInteger(n) && n > 0) || 'must be a positive integer' },
    title: { default: undefined as string | undefined },
  });
  afterEach(() => config.reset());

  it('get, set and reset', () => {
    expect(config.get('presentAs')).toBe('structured');
    config.set('presentAs', 'message');
    config.set('pageSize', 50);
    expect([config.get('presentAs'), config.get('pageSize')]).toEqual(['message', 50]);
    config.reset('presentAs');
    expect([config.get('presentAs'), config.get('pageSize')]).toEqual(['structured', 50]);
    config.reset();
    expect(config.get('pageSize')).toBe(20);
  });

  it('refuses a value outside oneOf, naming the values', () => {
    expect(() => config.set('presentAs', 'mesage')).toThrow("presentAs must be one of 'structured', 'message'; got 'mesage' (adapter 'kit-wide').");
  });

  it('refuses a value its validator rejects', () => {
    expect(() => config.set('pageSize', 0)).toThrow("pageSize must be a positive integer; got 0 (adapter 'kit-wide').");
  });

  it('an unknown setting is an error, and resetting one resets nothing', () => {
    config.set('pageSize', 30);
    expect(() => config.reset('pagesize' as never)).toThrow("Cannot reset unknown setting 'pagesize' of adapter 'kit-wide'. Known settings: 'presentAs', 'pageSize' and 'title'.");
    expect(config.get('pageSize')).toBe(30);
    expect(() => config.set('nope' as never, 1 as never)).toThrow("Cannot set unknown setting 'nope'");
    expect(() => config.get('nope' as never)).toThrow("Cannot get unknown setting 'nope'");
  });

  it('refuses declaring a namespace twice, a bad default, and the reserved name', () => {
    expect(() => defineAdapterConfig('kit-wide', {})).toThrow("defineAdapterConfig: the namespace 'kit-wide' is already declared.");
    expect(() => defineAdapterConfig('kit-bad-default', { mode: { default: 'c', oneOf: ['a', 'b'] } })).toThrow("mode must be one of 'a', 'b'; got 'c' (adapter 'kit-bad-default').");
    expect(() => defineAdapterConfig('kit-reserved', { name: { default: 'x' } })).toThrow("defineAdapterConfig('kit-reserved'): 'name' is reserved for the per-adapter tool name.");
    expect(() => defineAdapterConfig('kit-no-spec', { mode: {} as never })).toThrow("setting 'mode' needs a spec with a default");
  });
});

describe('per-tool values', () => {
  const config = defineAdapterConfig('kit-tool', {
    presentAs: { default: 'structured', oneOf: ['structured', 'message'], overridable: true },
    pageSize: { default: 20 },
  });
  afterEach(() => config.reset());

  it('resolves the tool’s own value, then its superclasses’, then the adapter-wide value', () => {
    @Tool({ adapters: { 'kit-tool': { presentAs: 'message' } } }) class Parent { call() {} }
    @Tool() class Child extends Parent {}
    @Tool({ adapters: { 'kit-tool': { presentAs: 'structured' } } }) class OwnChild extends Parent {}
    @Tool() class Plain { call() {} }
    expect(config.resolveOverrideFor(Parent, 'presentAs')).toBe('message');
    expect(config.resolveOverrideFor(Child, 'presentAs')).toBe('message');
    expect(config.resolveOverrideFor(OwnChild, 'presentAs')).toBe('structured');
    expect(config.resolveOverrideFor(Plain, 'presentAs')).toBe('structured');
    config.set('presentAs', 'message');
    expect(config.resolveOverrideFor(Plain, 'presentAs')).toBe('message');
  });

  it('a method tool has its own bag', () => {
    class Service {
      @Tool({ adapters: { 'kit-tool': { presentAs: 'message' } } }) status() {}
    }
    expect(config.resolveOverrideFor(new ToolRegistry().describe(Service, 'status'), 'presentAs')).toBe('message');
  });

  it('a bag with an unknown key, a bad value or an adapter-wide setting is an error at decoration', () => {
    expect(() => { @Tool({ adapters: { 'kit-tool': { presentas: 'message' } } }) class A { call() {} } return A; }).toThrow(
      "A: 'presentas' is not a setting of adapter 'kit-tool'. Per-tool settings: 'presentAs'.",
    );
    expect(() => { @Tool({ adapters: { 'kit-tool': { presentAs: 'mesage' } } }) class B { call() {} } return B; }).toThrow(
      "B: presentAs must be one of 'structured', 'message'; got 'mesage' (adapter 'kit-tool').",
    );
    expect(() => { @Tool({ adapters: { 'kit-tool': { pageSize: 5 } } }) class C { call() {} } return C; }).toThrow(
      "C: 'kit-tool.pageSize' cannot be set per tool; it is an adapter-wide setting.",
    );
  });

  it('a bag for an adapter declared later is checked at enumeration', () => {
    @Tool({ adapters: { 'kit-late': { colour: 'red' } } }) class Early { call() {} }
    const registry = new ToolRegistry({ tools: [Early] }).registerAdapter('kit-late');
    expect(registry.forAdapter('kit-late')).toHaveLength(1);
    defineAdapterConfig('kit-late', { shade: { default: 'light', overridable: true } });
    expect(() => registry.forAdapter('kit-late')).toThrow("Early: 'colour' is not a setting of adapter 'kit-late'. Per-tool settings: 'shade'.");
  });

  it('resolveOverrideFor refuses a setting that is not per-tool', () => {
    @Tool() class T { call() {} }
    expect(() => config.resolveOverrideFor(T, 'pageSize')).toThrow("pageSize is not a per-tool setting of adapter 'kit-tool'; read it with get('pageSize').");
  });
});

describe('serializeExposed', () => {
  class Opaque {
    constructor(readonly secret = 's') {}
  }
  class Out {
    @Field() id!: string;
    @Field({ type: () => Object }) data!: Record<string, unknown>;
  }
  const config = defineAdapterConfig('kit-serialize', { ...declareRejectOpaqueExposedValues({ default: false }) });
  afterEach(() => config.reset());

  @Tool() @Exposes(Out) class Lenient { call() { return { id: '1', data: { thing: new Opaque() } }; } }
  @Tool({ adapters: { 'kit-serialize': { rejectOpaqueExposedValues: true } } }) @Exposes(Out) class Strict {
    call() { return { id: '1', data: { thing: new Opaque() } }; }
  }

  it('renders the exposed values, resolving rejectOpaqueExposedValues for that tool', async () => {
    expect(config.serializeExposed(await invoke(Lenient, {}))).toEqual({ id: '1', data: { thing: { secret: 's' } } });
    const strict = await invoke(Strict, {});
    expect(strict.ok).toBe(true);
    expect(() => config.serializeExposed(strict)).toThrow(UnserializableValueError);
    expect(() => config.serializeExposed(strict)).toThrow('data.thing is a class instance with no toJSON() and no declared shape');
    config.set('rejectOpaqueExposedValues', true);
    const lenient = await invoke(Lenient, {});
    expect(() => config.serializeExposed(lenient)).toThrow(UnserializableValueError);
  });

  it('refuses a failed Result, and an adapter that did not declare the setting', async () => {
    @Tool({ error: 'Nope' }) class Fails { call() { throw new Error('x'); } }
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const failed = await invoke(Fails, {});
    jest.restoreAllMocks();
    expect(() => config.serializeExposed(failed)).toThrow('serializeExposed takes a successful Result; this one is an exception ("Nope"). Map result.error instead.');
    const bare = defineAdapterConfig('kit-bare', {});
    const ok = await invoke(Lenient, {});
    expect(() => bare.serializeExposed(ok)).toThrow(
      "serializeExposed: adapter 'kit-bare' has no rejectOpaqueExposedValues setting. Add ...declareRejectOpaqueExposedValues({ default }) to its settings.",
    );
  });

  it('a tool without @Exposes has its value rendered without a shape', async () => {
    @Tool() class Loose { call() { return { when: new Date(0), n: 1 }; } }
    expect(config.serializeExposed(await invoke(Loose, {}))).toEqual({ when: '1970-01-01T00:00:00.000Z', n: 1 });
  });

  it('reuses the rendering the invoker made when it checked the output (the value is walked once), kept off the Result', async () => {
    class Id {
      @Field() id!: string;
    }
    let reads = 0;
    class Row {
      get id() {
        reads += 1;
        return 'r1';
      }
    }
    @Tool() @Exposes(Id) class Counted { call() { return new Row(); } }
    const result = await invoke(Counted, {});
    expect(reads).toBe(1); // the invoker's output check
    expect(config.serializeExposed(result)).toEqual({ id: 'r1' });
    expect(config.serializeExposed(result)).toEqual({ id: 'r1' });
    expect(reads).toBe(1);
    expect('rendered' in result).toBe(false); // no writable field on the public Result

    let looseReads = 0;
    @Tool() class Loose { call() { return { get n() { looseReads += 1; return 1; } }; } }
    const loose = await invoke(Loose, {});
    expect(looseReads).toBe(0); // nothing to check it against
    expect([config.serializeExposed(loose), config.serializeExposed(loose)]).toEqual([{ n: 1 }, { n: 1 }]);
    expect(looseReads).toBe(1); // rendered on first use, then kept
  });

  it('declareRejectOpaqueExposedValues has no default of its own', () => {
    expect(() => declareRejectOpaqueExposedValues({} as never)).toThrow('declareRejectOpaqueExposedValues needs an explicit { default: true | false }');
  });
});
