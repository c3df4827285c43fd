import { IsDate, IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import {
  AmbientContext,
  configure,
  Expects,
  Field,
  Integer,
  invoke,
  Invoker,
  Tool,
  withAmbientContext,
} from 'toolwright';

const reported: unknown[] = [];
beforeAll(() => configure({ onException: (error) => reported.push(error) }));
afterAll(() => configure({ onException: undefined }));
beforeEach(() => (reported.length = 0));

class Address {
  @IsString() city!: string;
  @Field({ type: () => Integer, optional: true }) floor?: number;
}

class OrderInput {
  @IsString() item!: string;
  @IsInt() @Min(1) @Max(10) quantity!: number;
  @Field({ optional: true }) gift?: boolean;
  @IsOptional() @IsDate() deliverBy?: Date;
  @ValidateNested() @Type(() => Address) address!: Address;
  @AmbientContext() customerId!: string;
  @AmbientContext({ key: 'tenant' }) tenantId!: string;
}

/** Records what the tool received. */
const calls: Array<{ input: OrderInput }> = [];

@Tool({ error: 'Could not place the order' })
@Expects(OrderInput)
class PlaceOrder {
  call(input: OrderInput) {
    calls.push({ input });
    return { ok: true };
  }
}

const valid = { item: 'tea', quantity: 2, address: { city: 'Cork' } };
const ambient = { customerId: 'c-1', tenant: 't-1' };

beforeEach(() => (calls.length = 0));

describe('1. arguments must be an object', () => {
  it.each([null, [], 'tea', 42, true])('refuses %j as an input failure', async (args) => {
    const result = await invoke(PlaceOrder, args, { ambientContext: ambient });
    expect(result.outcome).toBe('failure');
    expect(result.error).toBe('Could not place the order: arguments must be an object');
    expect(result.fieldErrors).toEqual([{ field: 'base', message: 'arguments must be an object', keyword: 'type', params: { type: 'object' } }]);
    expect(Invoker.inputInvalid(result)).toBe(true);
    expect(calls).toHaveLength(0);
  });

  it('treats no arguments at all as an empty object', async () => {
    @Tool() class Ping { call() { return 'pong'; } }
    expect((await invoke(Ping)).value).toBe('pong');
  });
});

describe('2. ambient values come from trusted context only', () => {
  it('drops ambientContext / ambient_context keys the caller sent', async () => {
    const result = await invoke(PlaceOrder, { ...valid, ambientContext: { customerId: 'evil' }, ambient_context: { tenant: 'evil' } }, { ambientContext: ambient });
    expect(result.ok).toBe(true);
    expect(calls[0].input.customerId).toBe('c-1');
    expect(calls[0].input.tenantId).toBe('t-1');
  });

  it('an ambient field name sent at top level is an unknown input', async () => {
    const result = await invoke(PlaceOrder, { ...valid, customerId: 'evil' }, { ambientContext: ambient });
    expect(result.error).toBe('Could not place the order: unknown input: customerId');
    expect(calls).toHaveLength(0);
  });

  it('reads declared keys from a Map, and nothing undeclared reaches the tool', async () => {
    const context = new Map<string, unknown>([['customerId', 'c-2'], ['tenant', 't-2'], ['isAdmin', true]]);
    await invoke(PlaceOrder, valid, { ambientContext: context });
    expect(calls[0].input.customerId).toBe('c-2');
    expect(Object.keys(calls[0].input).sort()).toEqual(['address', 'customerId', 'item', 'quantity', 'tenantId']);
  });

  it('never reads ambient values from the prototype chain', async () => {
    const sneaky = Object.create({ customerId: 'inherited', tenant: 'inherited' });
    const result = await invoke(PlaceOrder, valid, { ambientContext: sneaky });
    expect(result.outcome).toBe('exception');
    expect(calls).toHaveLength(0);
  });

  it('uses the withAmbientContext scope when no explicit value is given, across awaits', async () => {
    const result = await withAmbientContext({ customerId: 'scoped', tenant: 't' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return invoke(PlaceOrder, valid);
    });
    expect(result.ok).toBe(true);
    expect(calls[0].input.customerId).toBe('scoped');
  });

  it('an explicit ambientContext replaces the scope entirely: {} means none', async () => {
    const result = await withAmbientContext(ambient, () => invoke(PlaceOrder, valid, { ambientContext: {} }));
    expect(result.outcome).toBe('exception');
    expect(result.error).toBe('Could not place the order');
    expect((result.exception as Error).message).toBe(
      "place_order (PlaceOrder) needs the ambient value 'customerId' for OrderInput.customerId, and the ambient context has none. " +
        'Pass it with invoke(…, { ambientContext: { customerId } }) or withAmbientContext().',
    );
    expect(reported).toEqual([result.exception]);
  });

  it('a malformed ambient value is developer-facing', async () => {
    const result = await invoke(PlaceOrder, valid, { ambientContext: { customerId: 42, tenant: 't' } });
    expect(result.outcome).toBe('exception');
    expect((result.exception as Error).message).toBe("place_order (PlaceOrder): the ambient value 'customerId' is malformed: customerId must be a string.");
    expect(result.error).toBe('Could not place the order');
  });
});

describe('3. undeclared keys', () => {
  it('are refused by default, each named', async () => {
    const result = await invoke(PlaceOrder, { ...valid, colour: 'red', size: 'L' }, { ambientContext: ambient });
    expect(result.fieldErrors).toEqual([
      { field: 'colour', message: 'unknown input: colour', keyword: 'unknown', params: {} },
      { field: 'size', message: 'unknown input: size', keyword: 'unknown', params: {} },
    ]);
  });

  it('are dropped with rejectUndeclaredInputs: false, and never reach the tool', async () => {
    const result = await invoke(PlaceOrder, { ...valid, colour: 'red' }, { ambientContext: ambient, rejectUndeclaredInputs: false });
    expect(result.ok).toBe(true);
    expect('colour' in calls[0].input).toBe(false);
  });

  it('nested objects follow the contract’s closedness either way, as the schema says', async () => {
    for (const rejectUndeclaredInputs of [true, false]) {
      const result = await invoke(PlaceOrder, { ...valid, address: { city: 'Cork', zip: 'T12' } }, { ambientContext: ambient, rejectUndeclaredInputs });
      expect(result.fieldErrors).toEqual([{ field: 'address.zip', message: 'unknown input: address.zip', keyword: 'unknown', params: {} }]);
    }
  });
});

describe('4. wire coercion and defaults', () => {
  class Wire {
    @Field({ type: () => Integer, optional: true }) count?: number;
    @Field({ optional: true }) ratio?: number;
    @Field({ optional: true }) flag?: boolean;
    @Field({ optional: true }) when?: Date;
    @Field({ type: () => Integer, optional: true, coerce: false }) strict?: number;
    @Field({ type: () => [Integer], optional: true }) ids?: number[];
    @Field({ optional: true }) name?: string;
  }
  const seen: Wire[] = [];
  @Tool() @Expects(Wire) class Echo {
    call(input: Wire) {
      seen.push(input);
      return {};
    }
  }
  beforeEach(() => (seen.length = 0));

  const ok: Array<[string, Record<string, unknown>, Partial<Wire>]> = [
    ['integer from "42"', { count: '42' }, { count: 42 }],
    ['integer from " -7 "', { count: ' -7 ' }, { count: -7 }],
    ['number from "4.5"', { ratio: '4.5' }, { ratio: 4.5 }],
    ['number from "1e3"', { ratio: '1e3' }, { ratio: 1000 }],
    ['number from ".5"', { ratio: '.5' }, { ratio: 0.5 }],
    ...(['1', 'true', 'T', 'yes', 'Y', 'on', 'TRUE'] as const).map((word): [string, Record<string, unknown>, Partial<Wire>] => [`true from "${word}"`, { flag: word }, { flag: true }]),
    ...(['0', 'false', 'f', 'NO', 'n', 'off'] as const).map((word): [string, Record<string, unknown>, Partial<Wire>] => [`false from "${word}"`, { flag: word }, { flag: false }]),
    ['true from the integer 1', { flag: 1 }, { flag: true }],
    ['false from the integer 0', { flag: 0 }, { flag: false }],
    ['array items', { ids: ['1', 2, '3'] }, { ids: [1, 2, 3] }],
    ['a string stays a string', { name: '42' }, { name: '42' }],
  ];

  it.each(ok)('%s', async (_label, args, expected) => {
    const result = await invoke(Echo, args);
    expect(result.ok).toBe(true);
    expect(seen[0]).toMatchObject(expected);
  });

  it('dates arrive as real Dates, from ISO-8601 strings or Date instances', async () => {
    await invoke(Echo, { when: '2024-05-01T10:00:00Z' });
    await invoke(Echo, { when: new Date('2024-05-01T10:00:00Z') });
    for (const input of seen) {
      expect(input.when).toBeInstanceOf(Date);
      expect(input.when!.toISOString()).toBe('2024-05-01T10:00:00.000Z');
    }
    expect(seen[0]).toBeInstanceOf(Wire);
  });

  const refused: Array<[string, Record<string, unknown>, string]> = [
    ['a decimal for an integer', { count: '4.2' }, 'count must be an integer number'],
    ['a word for a number', { ratio: 'many' }, 'ratio must be a number conforming to the specified constraints'],
    ['a blank string is left alone', { count: ' ' }, 'count must be an integer number'],
    ['an unknown boolean word', { flag: 'maybe' }, 'flag must be a boolean value'],
    ['2 is not a boolean', { flag: 2 }, 'flag must be a boolean value'],
    ['a date that is not ISO-8601', { when: 'next tuesday' }, 'when must be a valid ISO 8601 date-time string'],
    ['an epoch number for a date', { when: 1714557600000 }, 'when must be a valid ISO 8601 date-time string'],
    ['an invalid Date instance', { when: new Date('nope') }, 'when must be a valid ISO 8601 date-time string'],
    ["coerce: false wins", { strict: '42' }, 'strict must be an integer number'],
  ];

  it.each(refused)('%s', async (_label, args, message) => {
    const result = await invoke(Echo, args);
    expect(result.fieldErrors).toEqual([expect.objectContaining({ field: Object.keys(args)[0], message })]);
    expect(seen).toHaveLength(0);
  });

  it('never changes the caller’s arguments', async () => {
    const args = { count: '42', ids: ['1'] };
    const frozen = JSON.stringify(args);
    await invoke(Echo, args);
    expect(JSON.stringify(args)).toBe(frozen);
  });

  it('applies literal defaults (fresh each call) and calls function defaults per call', async () => {
    let counter = 0;
    class WithDefaults {
      @Field({ type: () => [String], default: ['a'] }) tags!: string[];
      @Field({ default: () => ++counter }) sequence!: number;
      @Field({ default: new Date('2024-01-01T00:00:00Z') }) since!: Date;
    }
    const inputs: WithDefaults[] = [];
    @Tool() @Expects(WithDefaults) class Defaults {
      call(input: WithDefaults) {
        input.tags.push('mutated');
        inputs.push(input);
        return {};
      }
    }
    await invoke(Defaults, {});
    await invoke(Defaults, {});
    expect(inputs.map((i) => [i.tags, i.sequence])).toEqual([
      [['a', 'mutated'], 1],
      [['a', 'mutated'], 2],
    ]);
    expect(inputs[0].since).toEqual(new Date('2024-01-01T00:00:00Z'));
  });
});

describe('5. validation compiled from the field model', () => {
  it('names every field in one sentence, under the headline', async () => {
    const result = await invoke(PlaceOrder, { item: '', quantity: 11, address: { city: 3 } }, { ambientContext: ambient });
    expect(result.error).toBe(
      'Could not place the order: item should not be empty, quantity must not be greater than 10 and address.city must be a string',
    );
    expect(result.fieldErrors).toEqual([
      { field: 'item', message: 'item should not be empty', keyword: 'minLength', params: { limit: 1 } },
      { field: 'quantity', message: 'quantity must not be greater than 10', keyword: 'maximum', params: { limit: 10 } },
      { field: 'address.city', message: 'address.city must be a string', keyword: 'type', params: { type: 'string' } },
    ]);
  });

  it('reports a missing required field', async () => {
    const result = await invoke(PlaceOrder, { item: 'tea', address: { city: 'Cork' } }, { ambientContext: ambient });
    expect(result.fieldErrors).toEqual([{ field: 'quantity', message: 'quantity is required', keyword: 'required', params: {} }]);
  });

  it('honours class-validator custom messages', async () => {
    class Custom {
      @IsInt({ message: 'give a whole number of $property' }) seats!: number;
    }
    @Tool() @Expects(Custom) class Book { call() { return {}; } }
    const result = await invoke(Book, { seats: 1.5 });
    expect(result.error).toBe('give a whole number of seats');
  });

  it('the tool receives an instance of its DTO class, nested classes as instances', async () => {
    await invoke(PlaceOrder, { ...valid, deliverBy: '2030-01-01T00:00:00Z' }, { ambientContext: ambient });
    const input = calls[0].input;
    expect(input).toBeInstanceOf(OrderInput);
    expect(input.address).toBeInstanceOf(Address);
    expect(input.deliverBy).toBeInstanceOf(Date);
  });

  it('a call that follows the schema is not rejected', async () => {
    const result = await invoke(PlaceOrder, { item: 'x', quantity: 10, gift: false, address: { city: 'c', floor: 0 } }, { ambientContext: ambient });
    expect(result.ok).toBe(true);
  });
});
