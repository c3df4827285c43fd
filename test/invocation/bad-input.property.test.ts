/**
 * Bad input, proven: arbitrary JSON thrown at a tool never makes invoke reject, the tool never
 * runs with input that breaks its contract, and Object.prototype is never touched. Concurrent
 * calls in different ambient scopes never see each other's values. Input nested thousands deep or
 * thousands of keys wide, and a tool throwing hostile values, never make it reject either.
 */
import fc from 'fast-check';
import { ArrayMaxSize, IsEmail, IsIn, IsInt, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { AmbientContext, configure, Expects, Field, invoke, Invoker, Tool, withAmbientContext } from 'toolwright';

class Address {
  @IsString() @MaxLength(40) city!: string;
  @Field({ optional: true }) floor?: number;
}

class SignupInput {
  @IsString() @MaxLength(60) name!: string;
  @IsEmail() email!: string;
  @IsIn(['free', 'pro']) plan!: string;
  @IsInt() @Min(13) @Max(120) age!: number;
  @Field({ optional: true, default: false }) newsletter!: boolean;
  @IsString({ each: true }) @ArrayMaxSize(3) tags!: string[];
  @ValidateNested() @Type(() => Address) address!: Address;
  @AmbientContext() tenantId!: string;
}

const received: SignupInput[] = [];

@Tool()
@Expects(SignupInput)
class Signup {
  call(input: SignupInput) {
    received.push(input);
    return {};
  }
}

/** The contract, checked by hand: what the tool may ever see. */
function keepsContract(input: SignupInput): boolean {
  const keys = Object.keys(input).sort();
  const allowed = ['address', 'age', 'email', 'name', 'newsletter', 'plan', 'tags', 'tenantId'];
  return (
    input instanceof SignupInput &&
    keys.every((key) => allowed.includes(key)) &&
    typeof input.name === 'string' && input.name.length >= 1 && [...input.name].length <= 60 &&
    typeof input.email === 'string' && input.email.includes('@') &&
    ['free', 'pro'].includes(input.plan) &&
    Number.isInteger(input.age) && input.age >= 13 && input.age <= 120 &&
    typeof input.newsletter === 'boolean' &&
    Array.isArray(input.tags) && input.tags.length >= 1 && input.tags.length <= 3 && input.tags.every((t) => typeof t === 'string') &&
    input.address instanceof Address &&
    Object.keys(input.address).every((key) => ['city', 'floor'].includes(key)) &&
    typeof input.address.city === 'string' &&
    (input.address.floor === undefined || typeof input.address.floor === 'number') &&
    input.tenantId === 'tenant-1'
  );
}

const dangerousKeys = fc.constantFrom('__proto__', 'constructor', 'prototype', 'ambientContext', 'ambient_context', 'tenantId', 'toString', 'valueOf');
const fieldKeys = fc.constantFrom('name', 'email', 'plan', 'age', 'newsletter', 'tags', 'address', 'city', 'floor');
const key = fc.oneof(dangerousKeys, fieldKeys, fc.string({ maxLength: 8 }));
const leaf = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 20 }),
  fc.constantFrom('42', ' 42 ', 'true', 'off', '', 'a@b.co', 'pro', '2024-01-01T00:00:00Z'),
  fc.string({ minLength: 5_000, maxLength: 20_000 }),
  fc.constantFrom('\uD800', 'a\uDC00b', '\uDBFF'), // lone surrogates, as JSON "\ud800" delivers them
);
const { value: wireValue } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 8 }),
}));
/** Values a field accepts (some on the wire only, after coercion). */
const validValues: Record<string, fc.Arbitrary<unknown>> = {
  name: fc.string({ minLength: 1, maxLength: 60 }),
  email: fc.constantFrom('ada@example.com', 'x@y.co'),
  plan: fc.constantFrom('free', 'pro'),
  age: fc.oneof(fc.integer({ min: 13, max: 120 }), fc.integer({ min: 13, max: 120 }).map(String)),
  newsletter: fc.oneof(fc.boolean(), fc.constantFrom('yes', 'off', '1', 0)),
  tags: fc.array(fc.string({ maxLength: 10 }), { minLength: 1, maxLength: 3 }),
  address: fc.record({ city: fc.string({ minLength: 1, maxLength: 40 }) }),
  city: fc.string({ minLength: 1, maxLength: 40 }),
  floor: fc.double({ noNaN: true, noDefaultInfinity: true }),
};
/** Mostly-valid arguments with one field replaced (by a valid or an arbitrary value), so that validation is exercised deep down. */
const nearlyValid = fieldKeys.chain((field) => fc.record({ field: fc.constant(field), replacement: fc.oneof(validValues[field], wireValue) })).map(({ field, replacement }) => {
  const base: Record<string, unknown> = { name: 'Ada', email: 'ada@example.com', plan: 'pro', age: 36, tags: ['x'], address: { city: 'London' } };
  if (field === 'city' || field === 'floor') (base.address as Record<string, unknown>)[field] = replacement;
  else base[field] = replacement;
  return base;
});
/**
 * Far deeper than any stack allows recursion over: objects or arrays thousands deep, as JSON text
 * (the text itself: JSON.stringify of such a value would overflow the stack first).
 */
const veryDeepText = fc
  .record({ depth: fc.integer({ min: 60, max: 5_000 }), array: fc.boolean(), under: fc.constantFrom('address', 'tags', 'junk', '') })
  .map(({ depth, array, under }) => {
    const inner = (array ? '[' : '{"address":').repeat(depth) + '1' + (array ? ']' : '}').repeat(depth);
    return under
      ? `{"name":"Ada","email":"ada@example.com","plan":"pro","age":36,"tags":["x"],"address":{"city":"London"},"${under}":${inner}}`
      : inner;
  });
/** Wide: thousands of unknown keys, or a long array of bad items, beside valid fields. */
const wide = fc.record({ count: fc.integer({ min: 1, max: 5_000 }), keys: fc.boolean() }).map(({ count, keys }) => {
  const base: Record<string, unknown> = { name: 'Ada', email: 'ada@example.com', plan: 'pro', age: 36, tags: ['x'], address: { city: 'London' } };
  if (keys) for (let i = 0; i < count; i++) base[`extra${i}`] = i;
  else base.tags = Array.from({ length: count }, (_, i) => i);
  return base;
});
/** Deep nesting, beyond what the contract allows anywhere. */
const deep = fc.integer({ min: 50, max: 400 }).map((depth) => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? { address: value, tags: ['x'] } : [value];
  return value;
});

describe('arbitrary input never breaks invoke', () => {
  beforeAll(() => configure({ onException: () => undefined }));
  afterAll(() => configure({ onException: undefined }));

  it('never rejects, never runs the tool with input that breaks the contract, never touches Object.prototype', async () => {
    const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
    const outcomes = { success: 0, failure: 0 };
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.oneof(wireValue, { arbitrary: nearlyValid, weight: 3 }, deep, wide).map((value) => JSON.stringify(value) ?? 'null'), veryDeepText), async (text) => {
        // As a wire payload arrives: JSON text parsed, so "__proto__" is an own key.
        const args = JSON.parse(text);
        received.length = 0;
        const result = await invoke(Signup, args, { ambientContext: { tenantId: 'tenant-1' } });
        expect(['success', 'failure']).toContain(result.outcome);
        outcomes[result.outcome as 'success' | 'failure']++;
        if (result.ok) {
          expect(received).toHaveLength(1);
          expect(keepsContract(received[0])).toBe(true);
        } else {
          expect(received).toHaveLength(0);
          expect(result.error).toEqual(expect.any(String));
          // The answer is bounded whatever the input's size: a few problems named, the rest counted.
          expect(result.error!.length).toBeLessThan(10_000);
          expect(result.fieldErrors.length).toBeLessThanOrEqual(27);
          expect(result.error).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
        }
        expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: Number(process.env.RUNS ?? 400) },
    );
    // Both branches of the property were exercised.
    expect(outcomes.success).toBeGreaterThan(20);
    expect(outcomes.failure).toBeGreaterThan(100);
  });

  it('a valid call goes through (the property is not vacuous)', async () => {
    received.length = 0;
    const result = await invoke(Signup, { name: 'Ada', email: 'ada@example.com', plan: 'pro', age: '36', tags: ['x'], address: { city: 'London' } }, { ambientContext: { tenantId: 'tenant-1' } });
    expect(result.ok).toBe(true);
    expect(keepsContract(received[0])).toBe(true);
  });
});

describe('hostile values thrown by a tool never break invoke', () => {
  const SECRET = 'hostile-secret';
  const thrower = (): never => {
    throw new Error(SECRET);
  };
  const everyTrap = { get: thrower, getPrototypeOf: thrower, has: thrower, ownKeys: thrower, getOwnPropertyDescriptor: thrower, apply: thrower };
  const hostile = fc.oneof(
    fc.constant(() => new Proxy(new Error(SECRET), everyTrap)),
    fc.constant(() => new Proxy(function target() {}, everyTrap)),
    fc.constant(() => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    }),
    fc.constantFrom('message', 'name', 'stack', 'constructor', 'reason', 'standalone').map((key) => () => {
      const error = new Error(SECRET);
      Object.defineProperty(error, key, { get: thrower });
      Object.defineProperty(error, Symbol.toPrimitive, { value: thrower });
      return error;
    }),
    fc.constant(() => ({ toString: thrower, valueOf: thrower, get then() { return thrower(); } })),
    wireValue.map((value) => () => value), // plain junk: strings, numbers, null, objects
  );

  it('the outcome is an exception with the generic message; the thrown text never reaches the caller', async () => {
    let next: () => unknown = () => undefined;
    @Tool() @Expects({}) class Hostile {
      async call(_input: unknown, { signal }: { signal: AbortSignal }) {
        if (signal.aborted) throw next();
        throw next();
      }
    }
    const invoker = new Invoker({ onException: () => undefined });
    await fc.assert(
      fc.asyncProperty(hostile, fc.boolean(), async (make, aborted) => {
        next = make;
        const controller = new AbortController();
        const pending = invoker.invoke(Hostile, {}, { signal: controller.signal });
        if (aborted) controller.abort();
        const result = await pending;
        expect(result.outcome).toBe(aborted ? 'failure' : 'exception');
        expect(result.error).toBe(aborted ? 'The call was cancelled.' : 'Something went wrong');
        expect(JSON.stringify(result.toJSON())).not.toContain(SECRET);
      }),
      { numRuns: 200 },
    );
  });
});

describe('ambient scopes under concurrency', () => {
  it('interleaved calls in different scopes never see each other’s values', async () => {
    class Probe {
      @AmbientContext() userId!: string;
    }
    @Tool() @Expects(Probe) class WhoAmI {
      async call(input: Probe) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
        return input.userId;
      }
    }
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 12 }), async (users) => {
        const results = await Promise.all(
          users.map((userId, index) =>
            withAmbientContext({ userId }, async () => {
              await new Promise((resolve) => setTimeout(resolve, (index * 7) % 4));
              const result = await invoke(WhoAmI, {});
              return result.value;
            }),
          ),
        );
        expect(results).toEqual(users);
      }),
      { numRuns: 25 },
    );
  });
});
