/**
 * The compiled path is the generic path, faster: on random contracts (nested classes, arrays,
 * unions, optional/nullable fields, defaults, enums, ambient fields, coercible types, class-validator
 * constraints checked at run time, sync and async, under @ValidateIf) and random or hostile payloads
 * (unknown keys, `__proto__`, nesting past the limit, shared objects, wrong types, wire strings), an
 * Invoker with `compiled: false` and one with the default give the same Result: ok, outcome, value,
 * error text, fieldErrors with keywords and params, the exception's class and message, and the tool
 * receives deep-equal input (DTO classes included). `validate()` agrees too.
 */
import 'reflect-metadata';
import fc from 'fast-check';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsBoolean,
  IsDivisibleBy,
  IsNotEmptyObject,
  IsNumber,
  IsPositive,
  Matches,
  IsEmail,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsRFC3339,
  IsUrl,
  IsUUID,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { AmbientContext, configure, Expects, Field, Invoker, Result, Tool } from 'toolwright';

@ValidatorConstraint({ name: 'evenLength' })
class EvenLength implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return typeof value === 'string' && value.length % 2 === 0;
  }
  defaultMessage() {
    return '$property must have an even length';
  }
}

@ValidatorConstraint({ name: 'notTaken', async: true })
class NotTaken implements ValidatorConstraintInterface {
  async validate(value: unknown) {
    await Promise.resolve();
    return value !== 'taken';
  }
  defaultMessage() {
    return '$property is taken';
  }
}

@ValidatorConstraint({ name: 'throws' })
class ThrowsOnX implements ValidatorConstraintInterface {
  validate(value: unknown) {
    if (value === 'x') throw new Error('boom');
    return true;
  }
}

const KINDS = [
  'string',
  'email',
  'mailbox',
  'emails',
  'url',
  'uuid',
  'iso',
  'rfc',
  'int',
  'number',
  'bool',
  'enum',
  'date',
  'nested',
  'strings',
  'nestedArray',
  'union',
  'custom',
  'async',
  'conditional',
  'throws',
  'pattern',
  'anyUuid',
  'limits',
  'unique',
  'record',
  'intEnum',
] as const;
type Kind = (typeof KINDS)[number];

interface FieldSpec {
  readonly kind: Kind;
  readonly optional: boolean;
  readonly nullable: boolean;
  readonly withDefault: boolean;
  readonly ambient: boolean;
  readonly cvOptional: boolean;
}
interface ClassSpec {
  readonly fields: readonly FieldSpec[];
}

const fieldSpec = fc.record({
  // The kinds with run-time checks twice as often: only a call the schema accepts reaches them.
  kind: fc.constantFrom(...KINDS, 'email', 'custom', 'async', 'conditional', 'throws'),
  optional: fc.boolean(),
  nullable: fc.boolean(),
  withDefault: fc.boolean(),
  ambient: fc.integer({ min: 0, max: 6 }).map((n) => n === 0),
  cvOptional: fc.boolean(),
});
const classSpec: fc.Arbitrary<ClassSpec> = fc.record({ fields: fc.array(fieldSpec, { minLength: 1, maxLength: 6 }) });

const DEFAULTS: Partial<Record<Kind, unknown>> = { string: 'dflt', int: 7, number: 1.5, bool: true, enum: 'b', strings: ['d'] };
let classCount = 0;

function define(proto: object, key: string, design: unknown, decorators: Array<(target: object, key: string) => void>): void {
  Reflect.defineMetadata('design:type', design, proto, key);
  for (const decorate of decorators.reverse()) decorate(proto, key);
}

/** A small fixed nested class (with a run-time check inside), so nested contracts stay bounded. */
function nestedClass(tag: string): Function {
  const name = `Sub${tag}${++classCount}`;
  const Sub = { [name]: class {} }[name];
  define(Sub.prototype, 'city', String, [IsString(), MinLength(1), MaxLength(8)]);
  define(Sub.prototype, 'mail', String, [IsOptional(), IsEmail()]);
  define(Sub.prototype, 'floor', Number, [Field({ optional: true }), IsInt()]);
  define(Sub.prototype, `${tag}Only`, String, [IsString()]);
  define(Sub.prototype, 'code', String, [IsOptional(), IsString(), Validate(NotTaken)]);
  return Sub;
}

function buildClass(spec: ClassSpec): Function {
  const name = `Input${++classCount}`;
  const Input = { [name]: class {} }[name];
  spec.fields.forEach((field, index) => {
    const key = `f${index}`;
    if (field.ambient) {
      define(Input.prototype, key, String, [AmbientContext({ key: `amb${index}` }), ...(field.optional ? [Field({ optional: true })] : [])]);
      return;
    }
    const options: Record<string, unknown> = {};
    if (field.optional) options.optional = true;
    if (field.nullable) options.nullable = true;
    if (field.withDefault && DEFAULTS[field.kind] !== undefined) options.default = DEFAULTS[field.kind];
    const decorators: Array<(target: object, key: string) => void> = [];
    if (field.cvOptional && field.kind !== 'conditional') decorators.push(IsOptional());
    let design: unknown = String;
    switch (field.kind) {
      case 'string':
        decorators.push(IsString(), MaxLength(5));
        break;
      case 'email':
        decorators.push(IsEmail());
        break;
      // The built-ins class-validator re-checks, with option sets: the compiled path runs fast checks for them.
      case 'mailbox':
        decorators.push(IsEmail({ allow_display_name: true, require_tld: false }));
        break;
      case 'emails':
        design = Array;
        decorators.push(IsEmail({ allow_underscores: true }, { each: true }), ArrayMaxSize(3));
        break;
      case 'url':
        decorators.push(IsUrl({ require_protocol: true, protocols: ['https'] }));
        break;
      case 'uuid':
        decorators.push(IsUUID(['4', 7]));
        break;
      case 'iso':
        decorators.push(IsISO8601({ strict: true }));
        break;
      case 'rfc':
        decorators.push(IsRFC3339());
        break;
      case 'int':
        design = Number;
        decorators.push(IsInt(), Min(0), Max(50));
        break;
      case 'number':
        design = Number;
        options.min = -1;
        options.max = 1e6;
        break;
      case 'bool':
        design = Boolean;
        decorators.push(IsBoolean());
        break;
      case 'enum':
        decorators.push(IsIn(['a', 'b', 'c']));
        break;
      case 'date':
        design = Date;
        break;
      case 'nested': {
        const Sub = nestedClass('n');
        design = Sub;
        decorators.push(ValidateNested(), Type(() => Sub) as never);
        break;
      }
      case 'strings':
        design = Array;
        decorators.push(IsString({ each: true }), ArrayMaxSize(3));
        break;
      case 'nestedArray': {
        const Sub = nestedClass('a');
        design = Array;
        options.type = [Sub];
        break;
      }
      case 'union': {
        const [A, B] = [nestedClass('u'), nestedClass('v')];
        design = Object;
        options.anyOf = () => [A, B];
        break;
      }
      case 'custom':
        decorators.push(IsString(), Validate(EvenLength));
        break;
      case 'async':
        decorators.push(IsString(), Validate(NotTaken));
        break;
      case 'conditional':
        decorators.push(ValidateIf((o: Record<string, unknown>) => o.f0 !== 'skip'), IsString(), MinLength(2), Validate(EvenLength));
        break;
      case 'throws':
        decorators.push(IsString(), Validate(ThrowsOnX));
        break;
      case 'pattern':
        decorators.push(IsString(), Matches(/^[a-c]+$/), MaxLength(4));
        break;
      case 'anyUuid':
        decorators.push(IsUUID());
        break;
      case 'limits':
        design = Number;
        decorators.push(IsNumber(), IsPositive(), IsDivisibleBy(0.5), Max(10));
        break;
      case 'unique':
        design = Array;
        decorators.push(IsString({ each: true }), ArrayUnique(), ArrayMaxSize(3));
        break;
      case 'record':
        design = Object;
        decorators.push(IsNotEmptyObject());
        break;
      case 'intEnum':
        design = Number;
        decorators.push(IsIn([1, 2, 3]));
        break;
    }
    decorators.push(Field(options as never) as never);
    define(Input.prototype, key, design, decorators);
  });
  return Input;
}

const received: unknown[] = [];
function toolFor(Input: Function): Function {
  const name = `Tool${++classCount}`;
  const Cls = {
    [name]: class {
      call(input: unknown) {
        received.push(input);
        return { done: true };
      }
    },
  }[name];
  Expects(Input as new () => object)(Cls);
  Tool()(Cls);
  return Cls;
}

const sub = (tag: string) =>
  fc.record(
    {
      city: fc.constantFrom('Oslo', '', 'a-very-long-city', 3, null),
      mail: fc.constantFrom('a@b.co', 'nope', 'x@'),
      floor: fc.constantFrom(1, '2', 'two', 2.5, null),
      code: fc.constantFrom('free', 'taken', null),
      [`${tag}Only`]: fc.constantFrom('s', 4),
      extra: fc.constantFrom(1, '__proto__'),
    },
    { requiredKeys: ['city'] },
  );
/** Candidate values per kind: valid ones, wire strings, wrong types, null. */
const VALUES: Record<Kind, fc.Arbitrary<unknown>> = {
  string: fc.constantFrom('abc', 'toolong', '', 5, null),
  email: fc.constantFrom('ada@example.com', 'not-an-email', '', 1),
  mailbox: fc.constantFrom('Ada <ada@localhost>', 'ada@mail', 'ada@exa_mple.com', 'Ada <ada@x>>', 2),
  emails: fc.oneof(fc.array(fc.constantFrom('a@b_c.io', 'a@b.c0', 'é@x.de', 1), { maxLength: 4 }), fc.constantFrom('a@b.io', null)),
  url: fc.constantFrom('https://example.com/a', 'http://example.com', 'example.com', 'https://exa_mple.com', 'https://[::1]/', false),
  uuid: fc.constantFrom('f47ac10b-58cc-4372-a567-0e02b2c3d479', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'x', 3),
  iso: fc.constantFrom('2024-02-29', '2023-02-29', '2024-01-01T24:00', '0400-02-29', 'x', 5),
  rfc: fc.constantFrom('2024-01-01T10:00:00Z', '2024-01-01T10:00:60+01:00', '2024-01-01 10:00', 7),
  int: fc.constantFrom(3, '42', ' 7 ', '4.0', '1e1', 51, -1, 2.5, 'x', true, '9007199254740993'),
  number: fc.constantFrom(1.25, '2.5', '-0', 2e6, 'NaN', false),
  bool: fc.constantFrom(true, false, 'yes', 'off', 1, 0, 'maybe', 2),
  enum: fc.constantFrom('a', 'c', 'z', 1, ''),
  date: fc.constantFrom('2024-01-01T00:00:00Z', '2024-13-01T00:00:00Z', 'Jan 1 2024', 0, '2016-12-31T23:59:60Z'),
  nested: fc.oneof(sub('n'), fc.constantFrom('x', [], null)),
  strings: fc.oneof(fc.array(fc.constantFrom('a', 'b', 1, null), { maxLength: 5 }), fc.constantFrom('a', null)),
  nestedArray: fc.oneof(fc.array(sub('a'), { maxLength: 3 }), fc.constantFrom({}, 'x')),
  union: fc.oneof(sub('u'), sub('v'), fc.constantFrom(1, [], null)),
  custom: fc.constantFrom('ab', 'abc', '', 4),
  async: fc.constantFrom('free', 'taken', 2),
  conditional: fc.constantFrom('abcd', 'abc', 'a', 3, null),
  throws: fc.constantFrom('x', 'y', 1),
  pattern: fc.constantFrom('abc', 'abd', '', 'ABC', 'abcab', 3, '\uD800'),
  anyUuid: fc.constantFrom('123e4567-e89b-42d3-a456-426614174000', '123E4567-E89B-12D3-A456-426614174000', 'not-a-uuid', 'urn:uuid:123e4567-e89b-12d3-a456-426614174000', 7),
  limits: fc.constantFrom(1.5, 0, -1, 1.25, '2.5', 10, 10.5, 1e300),
  unique: fc.oneof(fc.array(fc.constantFrom('a', 'b', 'c', 1), { maxLength: 4 }), fc.constantFrom(null, 'a')),
  record: fc.constantFrom({ a: 1 }, {}, { b: { c: [1] } }, [], 'x', { '\uD800': 1 }),
  intEnum: fc.constantFrom(1, 3, 4, '2', '2.0', 1.5, 'one'),
};

const validSub = (tag: string) =>
  fc.record({ city: fc.constantFrom('Oslo', 'Rome'), [`${tag}Only`]: fc.constant('s'), code: fc.constantFrom('free', 'taken') }, { requiredKeys: ['city', `${tag}Only`] });
/** Values each kind accepts (some only on the wire, after coercion). */
const VALID: Record<Kind, fc.Arbitrary<unknown>> = {
  string: fc.constantFrom('abc', 'x'),
  email: fc.constant('ada@example.com'),
  mailbox: fc.constantFrom('Ada <ada@localhost>', 'ada@mail'),
  emails: fc.array(fc.constantFrom('a@b_c.io', 'ü@x.de'), { minLength: 1, maxLength: 3 }),
  url: fc.constant('https://example.com/a'),
  uuid: fc.constantFrom('f47ac10b-58cc-4372-a567-0e02b2c3d479', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'),
  iso: fc.constantFrom('2024-02-29', '2024-01-01T10:00:00.5+01:00'),
  rfc: fc.constant('2016-12-31T23:59:60Z'),
  int: fc.constantFrom(3, '42', ' 7 '),
  number: fc.constantFrom(1.25, '2.5'),
  bool: fc.constantFrom(true, 'off', 1),
  enum: fc.constantFrom('a', 'c'),
  date: fc.constant('2024-01-01T00:00:00Z'),
  nested: validSub('n'),
  strings: fc.array(fc.constantFrom('a', 'b'), { minLength: 1, maxLength: 3 }),
  nestedArray: fc.array(validSub('a'), { minLength: 1, maxLength: 2 }),
  union: fc.oneof(validSub('u'), validSub('v')),
  custom: fc.constant('ab'),
  async: fc.constant('free'),
  conditional: fc.constant('abcd'),
  throws: fc.constant('y'),
  pattern: fc.constantFrom('abc', 'a'),
  anyUuid: fc.constant('123e4567-e89b-42d3-a456-426614174000'),
  limits: fc.constantFrom(1.5, '2.5', 10),
  unique: fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 3 }).map((items) => [...new Set(items)]),
  record: fc.constantFrom({ a: 1 }, { b: { c: [1] } }),
  intEnum: fc.constantFrom(1, 3, '2'),
};

/** Values the schema lets through and a run-time check refuses (the others: a valid value). */
const PASSES_SCHEMA_ONLY: Partial<Record<Kind, fc.Arbitrary<unknown>>> = {
  email: fc.constantFrom('ada@example.c0', 'a..b@example.com'),
  mailbox: fc.constantFrom('Ada <ada@exa_mple.com>', '"A.B" ada@x'),
  emails: fc.constant(['a@b.io', 'a@b.c0']),
  url: fc.constantFrom('http://example.com', 'https://a.b:0'),
  uuid: fc.constant('6ba7b810-9dad-11d1-80b4-00c04fd430c8'),
  iso: fc.constantFrom('2023-02-29', '2024-02-30T10:00Z'),
  rfc: fc.constant('2024-01-01T10:00:61Z'),
  custom: fc.constant('abc'),
  async: fc.constant('taken'),
  conditional: fc.constant('abc'),
  throws: fc.constant('x'),
};

const hostileKeys = fc.constantFrom('__proto__', 'constructor', 'ambientContext', 'ambient_context', 'amb0', 'f9', 'toString', '\uD800');
const { value: junk } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constantFrom(null, 1, 'skip', '\uDC00', true), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  object: fc.dictionary(fc.oneof(hostileKeys, fc.string({ maxLength: 3 })), tie('value'), { maxKeys: 4 }),
}));

function nest(depth: number, array: boolean): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = array ? [value] : { city: value };
  return value;
}

/** A payload for a contract: each field present (from its candidates) or absent, plus hostile extras. */
function payloadFor(spec: ClassSpec): fc.Arbitrary<unknown> {
  const valid = fc.tuple(...spec.fields.map((field) => VALID[field.kind]));
  // All valid but one field, replaced by any candidate (or left out): validation exercised down to the run-time checks.
  const near = fc.record({ values: valid, at: fc.nat(spec.fields.length - 1) }).chain(({ values, at }) =>
    fc.option(VALUES[spec.fields[at].kind], { nil: undefined, freq: 6 }).map((replacement) => values.map((value, index) => (index === at ? replacement : value))),
  );
  // All valid, except what only a run-time check refuses.
  const runtimeOnly = fc.tuple(...spec.fields.map((field) => fc.oneof(VALID[field.kind], PASSES_SCHEMA_ONLY[field.kind] ?? VALID[field.kind])));
  const dirty = fc.tuple(...spec.fields.map((field) => fc.option(VALUES[field.kind], { nil: undefined, freq: 4 })));
  const fields = fc.oneof({ arbitrary: near, weight: 3 }, { arbitrary: valid, weight: 1 }, { arbitrary: dirty, weight: 2 });
  const extras = fc.oneof({ arbitrary: fc.constant([]), weight: 3 }, fc.array(fc.tuple(hostileKeys, junk), { maxLength: 2 }));
  const deep = fc.option(fc.record({ at: fc.nat(spec.fields.length), depth: fc.integer({ min: 2, max: 12 }), array: fc.boolean() }), { freq: 8 });
  const plain = runtimeOnly.map((fields) => ({ fields, extras: [] as Array<[string, unknown]>, deep: null, shared: 0 }));
  const structured = fc.oneof(fc.record({ fields, extras, deep, shared: fc.integer({ min: 0, max: 30 }) }), plain).map(({ fields, extras, deep, shared }) => {
    const text: string[] = [];
    fields.forEach((value, index) => {
      if (value !== undefined) text.push(`${JSON.stringify(`f${index}`)}:${JSON.stringify(value)}`);
    });
    for (const [key, value] of extras) text.push(`${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}`);
    if (deep) text.push(`"f${deep.at}":${JSON.stringify(nest(deep.depth, deep.array))}`);
    // As a wire payload arrives: JSON text parsed, so "__proto__" is an own key.
    const args = JSON.parse(`{${text.join(',')}}`) as Record<string, unknown>;
    // Past the shape walk's budget: one object shared many times over (in process only).
    if (shared === 30) {
      const one = { city: 'Oslo' };
      args.f0 = Array.from({ length: 1_200 }, () => one);
    }
    return args;
  });
  return fc.oneof({ arbitrary: structured, weight: 6 }, junk);
}

function comparable(result: Result<unknown>) {
  const exception = result.exception as { constructor?: { name?: string }; message?: string } | undefined;
  return {
    ok: result.ok,
    outcome: result.outcome,
    value: result.value,
    error: result.error,
    fieldErrors: result.fieldErrors,
    exception: exception === undefined ? undefined : [exception.constructor?.name, exception.message],
  };
}

describe('the compiled path gives the generic path’s Results', () => {
  beforeAll(() => configure({ onException: () => undefined }));
  afterAll(() => configure({ onException: undefined }));

  it('on random contracts and random, hostile payloads', async () => {
    const outcomes = { ok: 0, failed: 0, residualFailed: 0 };
    await fc.assert(
      fc.asyncProperty(
        classSpec.chain((spec) =>
          fc.record({
            spec: fc.constant(spec),
            payloads: fc.array(payloadFor(spec), { minLength: 1, maxLength: 6 }),
            maxInputDepth: fc.oneof(fc.integer({ min: 2, max: 10 }), { arbitrary: fc.constant(64), weight: 3 }),
            ambient: fc.constantFrom<Record<string, unknown>>({}, { amb0: 't', amb1: 'u', amb2: 'v', amb3: 'w', amb4: 'x', amb5: 'y' }, { amb0: 3, amb1: 'u' }),
            nullMeansAbsent: fc.boolean(),
            rejectUndeclaredInputs: fc.boolean(),
          }),
        ),
        async ({ spec, payloads, maxInputDepth, ambient, nullMeansAbsent, rejectUndeclaredInputs }) => {
          const tool = toolFor(buildClass(spec));
          const generic = new Invoker({ compiled: false, maxInputDepth, rejectUndeclaredInputs, tracing: false });
          const compiled = new Invoker({ maxInputDepth, rejectUndeclaredInputs, tracing: false });
          for (const args of payloads) {
            received.length = 0;
            const expected = await generic.invoke(tool, args, { ambientContext: ambient, nullMeansAbsent });
            const genericInput = received.splice(0);
            const actual = await compiled.invoke(tool, args, { ambientContext: ambient, nullMeansAbsent });
            expect(comparable(actual)).toStrictEqual(comparable(expected));
            expect(received).toStrictEqual(genericInput);
            const [checkedGeneric, checkedCompiled] = [await generic.validate(tool, args, { nullMeansAbsent }), await compiled.validate(tool, args, { nullMeansAbsent })];
            expect(checkedCompiled.ok).toBe(checkedGeneric.ok);
            if (checkedCompiled.ok && checkedGeneric.ok) expect(checkedCompiled.input).toStrictEqual(checkedGeneric.input);
            if (!checkedCompiled.ok && !checkedGeneric.ok) expect(comparable(checkedCompiled.result)).toStrictEqual(comparable(checkedGeneric.result));
            if (expected.ok) outcomes.ok++;
            else outcomes.failed++;
            const runtime = (error: { keyword: string; message: string }) =>
              ['evenLength', 'notTaken', 'throws'].includes(error.keyword) || error.keyword === 'format';
            if (expected.fieldErrors.some(runtime)) outcomes.residualFailed++;
          }
        },
      ),
      { numRuns: Number(process.env.RUNS ?? 150) },
    );
    // Every branch was exercised: calls that pass, calls that fail, and failures of run-time checks.
    expect(outcomes.ok).toBeGreaterThan(20);
    expect(outcomes.failed).toBeGreaterThan(50);
    expect(outcomes.residualFailed).toBeGreaterThan(20);
  }, 120_000); // a few seconds alone; the shared machine can make it many times that
});

describe('the compiled option', () => {
  it('takes true or false only, naming the option', () => {
    expect(() => new Invoker({ compiled: 'no' as never })).toThrow('Invoker: compiled must be true or false; got');
  });
});

describe('configure({ compiled })', () => {
  afterEach(() => configure({ compiled: undefined }));

  it('takes true or false only, naming the setting', () => {
    expect(() => configure({ compiled: 1 as never })).toThrow('configure: compiled must be true or false; got');
  });

  it('turns the compiled path off for invokers that set none, and an invoker’s own option wins', async () => {
    class Named {
      @Field() @Validate(EvenLength) name!: string;
    }
    @Tool()
    @Expects(Named)
    class Greet {
      call(input: Named) {
        received.push(input);
        return input.name;
      }
    }
    // Which path ran shows in when the tool starts: the compiled path runs synchronous run-time checks
    // synchronously and calls the tool before invoke() returns; the generic path awaits each check first.
    const startsAtOnce = (invoker: Invoker) => {
      received.length = 0;
      const call = invoker.invoke(Greet, { name: 'ab' });
      const atOnce = received.length === 1;
      return call.then((result) => {
        expect(result.value).toBe('ab');
        return atOnce;
      });
    };
    expect(await startsAtOnce(new Invoker({ tracing: false }))).toBe(true);
    configure({ compiled: false });
    expect(await startsAtOnce(new Invoker({ tracing: false }))).toBe(false);
    expect(await startsAtOnce(new Invoker({ tracing: false, compiled: true }))).toBe(true);
    configure({ compiled: undefined });
    expect(await startsAtOnce(new Invoker({ tracing: false }))).toBe(true);
    // Same answers either way.
    for (const compiled of [false, true]) {
      expect((await new Invoker({ tracing: false, compiled }).invoke(Greet, { name: 'abc' })).fieldErrors).toEqual([
        { field: 'name', message: 'name must have an even length', keyword: 'evenLength', params: {} },
      ]);
    }
  });
});
