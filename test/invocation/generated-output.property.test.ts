/**
 * The output check's generated renderer is the reference renderer, faster: on random `@Exposes`
 * contracts (strings with limits, integers, numbers, booleans, enums, dates, nested classes, arrays of
 * both, optional and nullable fields) and random returned values (right and wrong types, -0, NaN,
 * invalid Dates, class instances with getters, `toJSON`, Maps and Sets, undeclared keys, lone
 * surrogates, BigInts), an Invoker that generates code and one that does not (`compiled: false`)
 * give the same Result: ok, outcome, the rendered value, the exception's class and message. The
 * same warnings are raised, once.
 */
import 'reflect-metadata';
import fc from 'fast-check';
import { IsIn, IsInt, IsOptional, MaxLength, Min } from 'class-validator';
import { configure, Expects, Exposes, Field, Invoker, Result, Tool } from 'toolwright';
import { declareRejectOpaqueExposedValues, defineAdapterConfig } from 'toolwright/kit';

/** What a transport sends: the rendered value (`serializeExposed`). */
const adapter = defineAdapterConfig('generated-output-test', { ...declareRejectOpaqueExposedValues({ default: true }) });

const KINDS = ['string', 'int', 'number', 'bool', 'enum', 'date', 'nested', 'strings', 'nestedArray'] as const;
type Kind = (typeof KINDS)[number];
interface FieldSpec {
  readonly kind: Kind;
  readonly optional: boolean;
  readonly nullable: boolean;
}

let count = 0;
function define(proto: object, key: string, design: unknown, decorators: Array<(target: object, key: string) => void>): void {
  Reflect.defineMetadata('design:type', design, proto, key);
  for (const decorate of decorators.reverse()) decorate(proto, key);
}

function nestedClass(): Function {
  const name = `Out${++count}`;
  const Sub = { [name]: class {} }[name];
  define(Sub.prototype, 'city', String, [Field(), MaxLength(8)]);
  define(Sub.prototype, 'floor', Number, [Field({ optional: true }), IsInt()]);
  return Sub;
}

function outputClass(fields: readonly FieldSpec[]): Function {
  const name = `Output${++count}`;
  const Output = { [name]: class {} }[name];
  fields.forEach((field, index) => {
    const options: Record<string, unknown> = {};
    if (field.optional) options.optional = true;
    if (field.nullable) options.nullable = true;
    const decorators: Array<(target: object, key: string) => void> = [];
    let design: unknown = String;
    switch (field.kind) {
      case 'string':
        decorators.push(MaxLength(4));
        break;
      case 'int':
        design = Number;
        decorators.push(IsInt(), Min(0));
        break;
      case 'number':
        design = Number;
        break;
      case 'bool':
        design = Boolean;
        break;
      case 'enum':
        decorators.push(IsIn(['a', 'b']));
        break;
      case 'date':
        design = Date;
        break;
      case 'nested':
        design = nestedClass();
        break;
      case 'strings':
        design = Array;
        options.type = [String];
        break;
      case 'nestedArray':
        design = Array;
        options.type = [nestedClass()];
        break;
    }
    if (field.optional) decorators.push(IsOptional());
    decorators.push(Field(options as never) as never);
    define(Output.prototype, `f${index}`, design, decorators);
  });
  return Output;
}

class WithGetter {
  get city() {
    return 'Oslo';
  }
}
class ThrowingGetter {
  get city(): string {
    throw new Error('getter failed');
  }
}
class Extra {
  city = 'Rome';
  hidden = 'secret';
}

const nestedValue = fc.constantFrom<unknown>(
  { city: 'Oslo' },
  { city: 'Oslo', floor: 2 },
  { city: 'Oslo', floor: 2.5 },
  { city: 'much too long' },
  { city: 'Oslo', extra: 1 },
  { city: 'Oslo', extra: undefined },
  {},
  new WithGetter(),
  new ThrowingGetter(),
  new Extra(),
  new Map([['city', 'Oslo']]),
  { toJSON: () => ({ city: 'Bern' }) },
  Object.assign(Object.create(null), { city: 'Oslo' }),
  'x',
  [],
);
const VALUES: Record<Kind, fc.Arbitrary<unknown>> = {
  string: fc.constantFrom('abc', 'toolong', '', '\uD800', 5, 10n, new String('s')),
  int: fc.constantFrom(3, 0, -0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY, 7n, 2 ** 60, '4'),
  number: fc.constantFrom(1.25, -0, Number.NaN, Number.NEGATIVE_INFINITY, 10n ** 30n, '2'),
  bool: fc.constantFrom(true, false, 0, 'true'),
  enum: fc.constantFrom('a', 'b', 'c', 1, '\uDC00'),
  date: fc.constantFrom(new Date(0), new Date(Number.NaN), '2024-01-01T00:00:00Z', 'nope', 0),
  nested: nestedValue,
  strings: fc.oneof(fc.array(fc.constantFrom('a', 'b', 1, undefined, null), { maxLength: 3 }), fc.constantFrom(new Set(['a']), 'a', [, 'a'])),
  nestedArray: fc.oneof(fc.array(nestedValue, { maxLength: 2 }), fc.constantFrom('x')),
};
const VALID: Record<Kind, fc.Arbitrary<unknown>> = {
  string: fc.constantFrom('abc', ''),
  int: fc.constantFrom(3, 0, -0),
  number: fc.constantFrom(1.25, -0, 1e300),
  bool: fc.boolean(),
  enum: fc.constantFrom('a', 'b'),
  date: fc.constant(new Date(86_400_000)),
  nested: fc.constantFrom({ city: 'Oslo' }, { city: 'Rome', floor: 1 }),
  strings: fc.array(fc.constantFrom('a', 'b'), { maxLength: 3 }),
  nestedArray: fc.array(fc.constant({ city: 'Oslo' }), { maxLength: 2 }),
};

const fieldSpec = fc.record({ kind: fc.constantFrom(...KINDS), optional: fc.boolean(), nullable: fc.boolean() });

/** A returned value for the fields: valid, nearly valid, or anything. */
function returned(fields: readonly FieldSpec[]): fc.Arbitrary<unknown> {
  const valid = fc.tuple(...fields.map((field) => VALID[field.kind]));
  const near = fc.record({ values: valid, at: fc.nat(fields.length - 1) }).chain(({ values, at }) =>
    fc.option(fc.oneof(VALUES[fields[at].kind], fc.constant(null)), { nil: undefined, freq: 5 }).map((value) => values.map((v, i) => (i === at ? value : v))),
  );
  const dirty = fc.tuple(...fields.map((field) => fc.option(VALUES[field.kind], { nil: undefined, freq: 5 })));
  const asObject = fc.record({
    values: fc.oneof({ arbitrary: valid, weight: 2 }, { arbitrary: near, weight: 3 }, { arbitrary: dirty, weight: 1 }),
    extra: fc.option(fc.constantFrom<[string, unknown]>(['extra', 1], ['more', undefined], ['__proto__', 2]), { freq: 4 }),
    shape: fc.constantFrom('plain', 'plain', 'plain', 'instance', 'toJSON'),
  }).map(({ values, extra, shape }) => {
    const object = (shape === 'instance' ? new (class Returned {})() : {}) as Record<string, unknown>;
    values.forEach((value, index) => {
      if (value !== undefined) object[`f${index}`] = value;
    });
    if (extra) Object.defineProperty(object, extra[0], { value: extra[1], enumerable: true, writable: true, configurable: true });
    return shape === 'toJSON' ? { toJSON: () => object } : object;
  });
  return fc.oneof({ arbitrary: asObject, weight: 8 }, fc.constantFrom(null, 'text', [], 42));
}

function comparable(result: Result<unknown>) {
  const exception = result.exception as { constructor?: { name?: string }; message?: string } | undefined;
  return {
    ok: result.ok,
    outcome: result.outcome,
    value: result.ok ? adapter.serializeExposed(result) : undefined,
    exception: exception === undefined ? undefined : [exception.constructor?.name, exception.message],
  };
}

describe('the generated output renderer gives the reference renderer’s Results', () => {
  const warnings: string[] = [];
  beforeAll(() => configure({ onException: () => undefined, onWarning: (warning) => void warnings.push(warning.message) }));
  afterAll(() => configure({ onException: undefined, onWarning: undefined }));

  it('on random output contracts and returned values', async () => {
    const outcomes = { ok: 0, failed: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fieldSpec, { minLength: 1, maxLength: 5 }).chain((fields) =>
          fc.record({ fields: fc.constant(fields), values: fc.array(returned(fields), { minLength: 1, maxLength: 5 }) }),
        ),
        async ({ fields, values }) => {
          const Output = outputClass(fields);
          let next: unknown;
          const name = `Render${++count}`;
          const Cls = { [name]: class {
            call() {
              return next;
            }
          } }[name];
          Exposes(Output as new () => object)(Cls);
          Tool()(Cls);
          const reference = new Invoker({ compiled: false, tracing: false });
          const generated = new Invoker({ tracing: false });
          for (const value of values) {
            next = value;
            warnings.length = 0;
            const expected = await reference.invoke(Cls, {});
            const referenceWarnings = warnings.splice(0);
            const actual = await generated.invoke(Cls, {});
            expect(comparable(actual)).toStrictEqual(comparable(expected));
            // Each undeclared key is reported once per tool, whichever invoker met it first.
            expect(referenceWarnings.length > 0 ? warnings : []).toEqual([]);
            if (expected.ok) outcomes.ok++;
            else outcomes.failed++;
          }
        },
      ),
      { numRuns: Number(process.env.RUNS ?? 150) },
    );
    expect(outcomes.ok).toBeGreaterThan(50);
    expect(outcomes.failed).toBeGreaterThan(50);
  }, 120_000);

  it('reports an undeclared key the first time, on the generated path too', async () => {
    class Out {
      @Field() city!: string;
    }
    @Tool()
    @Exposes(Out)
    class Leaky {
      call() {
        return { city: 'Oslo', secret: 's' };
      }
    }
    warnings.length = 0;
    const result = await new Invoker({ tracing: false }).invoke(Leaky, {});
    expect(adapter.serializeExposed(result)).toStrictEqual({ city: 'Oslo' });
    expect(warnings).toEqual([expect.stringContaining("returned key 'secret'")]);
  });
});

describe('configure({ generatedCode })', () => {
  afterEach(() => configure({ generatedCode: undefined }));

  it('takes true or false only, naming the setting', () => {
    expect(() => configure({ generatedCode: 'no' as never })).toThrow('configure: generatedCode must be true or false; got');
  });

  it('off, no code is generated and the Results are the same', async () => {
    class In {
      @Field() n!: number;
    }
    class Out {
      @Field() twice!: number;
      @Field() at!: Date;
    }
    @Tool()
    @Expects(In)
    @Exposes(Out)
    class Double {
      call(input: In) {
        return { twice: input.n * 2, at: new Date(0) };
      }
    }
    // Every function made from text in this process is recorded: the generated ones take (k, h).
    const functions: string[] = [];
    const RealFunction = globalThis.Function;
    globalThis.Function = new Proxy(RealFunction, {
      construct(target, args: string[]) {
        functions.push(args.slice(0, -1).join(','));
        return Reflect.construct(target, args) as object;
      },
    });
    try {
      configure({ generatedCode: false });
      const off = await new Invoker({ tracing: false }).invoke(Double, { n: '21' });
      expect(functions.filter((parameters) => parameters === 'k,h')).toEqual([]);
      configure({ generatedCode: true });
      const on = await new Invoker({ tracing: false }).invoke(Double, { n: '21' });
      expect(functions.filter((parameters) => parameters === 'k,h').length).toBe(2);
      expect(adapter.serializeExposed(on)).toStrictEqual({ twice: 42, at: '1970-01-01T00:00:00.000Z' });
      expect(comparable(on)).toStrictEqual(comparable(off));
    } finally {
      globalThis.Function = RealFunction;
    }
  });
});
