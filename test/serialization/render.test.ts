import { Field, isToolwrightError, OutputContractError, UnserializableValueError } from 'toolwright';
import { render } from 'toolwright/kit';

class Owner {
  @Field() name!: string;
}

class Price {
  @Field() amount!: number;
  @Field({ optional: true }) note?: string;
}

class Listing {
  @Field() id!: string;
  @Field() owner!: Owner;
  @Field({ type: () => [Price] }) records!: Price[];
  @Field({ type: () => Object, optional: true }) extra?: Record<string, unknown>;
  @Field({ optional: true }) listedAt?: Date;
  @Field({ optional: true }) big?: string;
  @Field({ optional: true }) count?: number;
}

const base = () => ({ id: 'l1', owner: { name: 'Ada' }, records: [{ amount: 1 }, { amount: 2 }, { amount: 3 }, { amount: 4 }] });

function refusal(value: unknown): UnserializableValueError {
  try {
    render(value, Listing);
  } catch (error) {
    if (error instanceof UnserializableValueError) return error;
    throw error;
  }
  throw new Error('render accepted it');
}

describe('render: always refused, naming where', () => {
  const cases: Array<[string, () => unknown, string, string]> = [
    ['NaN', () => { const v = base(); v.records[3].amount = NaN; return v; }, 'records[3].amount', 'records[3].amount is NaN, which has no JSON form.'],
    ['Infinity', () => ({ ...base(), count: Infinity }), 'count', 'count is Infinity, which has no JSON form.'],
    ['-Infinity in a free-form object', () => ({ ...base(), extra: { deep: { x: -Infinity } } }), 'extra.deep.x', 'extra.deep.x is -Infinity, which has no JSON form.'],
    ['a lone surrogate', () => ({ ...base(), owner: { name: 'Ada \uD800' } }), 'owner.name', 'owner.name is a string with a lone UTF-16 surrogate, which has no JSON form.'],
    ['a lone surrogate in a key', () => ({ ...base(), extra: { ['k\uDC00']: 1 } }), 'extra', 'extra has a key with a lone UTF-16 surrogate, which has no JSON form.'],
    ['a function', () => ({ ...base(), extra: { callback: () => 1 } }), 'extra.callback', 'extra.callback is a function, which has no JSON form.'],
    ['a symbol', () => ({ ...base(), extra: { tag: Symbol('x') } }), 'extra.tag', 'extra.tag is a symbol, which has no JSON form.'],
    ['an unsafe BigInt for a number', () => ({ ...base(), count: 2n ** 60n }), 'count', 'count is the BigInt 1152921504606846976, beyond the safe integer range (declare the field as a string to send it as text), which has no JSON form.'],
    ['an invalid Date', () => ({ ...base(), listedAt: new Date('nope') }), 'listedAt', 'listedAt is an invalid Date, which has no JSON form.'],
    ['a Map with 1 and "1"', () => ({ ...base(), extra: { tags: new Map<unknown, unknown>([[1, 'a'], ['1', 'b']]) } }), 'extra.tags (map key)', "extra.tags (map key) has two keys that render as the one property '1', which has no JSON form."],
    ['undefined inside a free-form array', () => ({ ...base(), extra: { list: [1, undefined] } }), 'extra.list[1]', 'extra.list[1] is undefined, which has no JSON form.'],
  ];

  it.each(cases)('%s', (_label, make, path, message) => {
    const error = refusal(make());
    expect(error.path).toBe(path);
    expect(error.message).toBe(message);
    expect(isToolwrightError(error)).toBe(true);
  });

  it('a cycle', () => {
    const extra: Record<string, unknown> = { a: { b: {} } };
    ((extra.a as Record<string, unknown>).b as Record<string, unknown>).back = extra;
    const error = refusal({ ...base(), extra });
    expect(error.message).toMatch(/refers back to itself \(a cycle\), which has no JSON form\.$/);
    expect(error.path).toMatch(/^extra(\.a\.b\.back)+/);
  });

  it('a cycle through declared shapes', () => {
    class Node {
      @Field() name!: string;
      @Field({ type: () => [Node], optional: true }) children?: Node[];
    }
    const root: { name: string; children: unknown[] } = { name: 'root', children: [] };
    root.children.push(root);
    expect(() => render(root, Node)).toThrow(UnserializableValueError);
  });

  it('a diamond (the same object reached twice) is fine, and so is legitimately deep data', () => {
    const shared = { amount: 1 };
    expect(render({ ...base(), records: [shared, shared] }, Listing)).toMatchObject({ records: [{ amount: 1 }, { amount: 1 }] });
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 500; i++) deep = { next: deep };
    expect(JSON.stringify(render({ ...base(), extra: deep }, Listing))).toContain('"leaf":true');
  });
});

describe('render: what it renders', () => {
  it('dates as ISO-8601, toJSON honoured, Map as object, Set and typed arrays as arrays, absent optionals left out', () => {
    const value = {
      ...base(),
      listedAt: new Date('2026-01-02T03:04:05Z'),
      big: 2n ** 60n,
      extra: {
        money: { toJSON: () => '12.50 EUR' },
        index: new Map([['a', 1], ['b', 2]]),
        seen: new Set(['x', 'y']),
        bytes: new Uint8Array([1, 2, 255]),
        when: new Date(0),
        skipped: undefined,
      },
      note: undefined,
      secret: 'not declared',
    };
    expect(render(value, Listing)).toEqual({
      id: 'l1',
      owner: { name: 'Ada' },
      records: [{ amount: 1 }, { amount: 2 }, { amount: 3 }, { amount: 4 }],
      listedAt: '2026-01-02T03:04:05.000Z',
      big: '1152921504606846976',
      extra: { money: '12.50 EUR', index: { a: 1, b: 2 }, seen: ['x', 'y'], bytes: [1, 2, 255], when: '1970-01-01T00:00:00.000Z' },
    });
  });

  it('a value breaking the contract is an OutputContractError naming every field', () => {
    expect(() => render({ id: 3, records: [{ amount: 'x' }] }, Listing)).toThrow(
      new OutputContractError(
        'Listing returned a value that breaks its @Exposes contract (Listing): id must be a string; owner is required; records[0].amount must be a number conforming to the specified constraints.',
        [],
      ),
    );
  });

  it('a class instance with no toJSON renders generically by default, and is refused with rejectOpaque', () => {
    class Secretive {
      constructor(readonly id = 7) {}
    }
    const value = { ...base(), extra: { thing: new Secretive() } };
    expect((render(value, Listing) as { extra: unknown }).extra).toEqual({ thing: { id: 7 } });
    expect(() => render(value, Listing, { rejectOpaque: true })).toThrow(
      'extra.thing is a Secretive instance with no toJSON() and no declared shape (rejectOpaque is on), which has no JSON form.',
    );
    // A declared shape is not opaque, whatever its class.
    class OwnerRecord {
      constructor(readonly name = 'Grace') {}
    }
    expect(render({ ...base(), owner: new OwnerRecord() }, Listing, { rejectOpaque: true })).toMatchObject({ owner: { name: 'Grace' } });
  });
});
