/**
 * Whatever render accepts survives JSON.stringify / JSON.parse unchanged and validates against the
 * tool's outputSchema(). Values are drawn both well-typed and wildly not.
 */
import fc from 'fast-check';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Exposes, Field, Integer, outputSchema, Tool } from 'toolwright';
import { render } from 'toolwright/kit';

class Line {
  @Field() sku!: string;
  @Field({ type: () => Integer, min: 0 }) quantity!: number;
  @Field({ type: () => String, nullable: true }) note!: string | null;
}

class Card {
  @Field({ enum: ['card'] }) kind!: string;
  @Field() last4!: string;
}

class Cash {
  @Field({ enum: ['cash'] }) kind!: string;
}

class Invoice {
  @Field() id!: string;
  @Field() total!: number;
  @Field() paid!: boolean;
  @Field() issuedAt!: Date;
  @Field({ enum: ['draft', 'sent'] }) status!: string;
  @Field({ type: () => [Line] }) lines!: Line[];
  @Field({ optional: true }) memo?: string;
  @Field({ type: () => Object, optional: true }) meta?: Record<string, unknown>;
  @Field({ anyOf: () => [Card, Cash], optional: true }) payment?: Card | Cash;
}

@Tool()
@Exposes(Invoice)
class IssueInvoice {
  call() {
    return {};
  }
}

class Opaque {
  constructor(readonly x = 1) {}
}

const weird = fc.oneof(
  fc.constantFrom(NaN, Infinity, -Infinity, undefined, null, '\uD800', 'ok', -0, 2n ** 70n, 5n),
  fc.constant(new Date('invalid')),
  fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z') }),
  fc.constant(new Map<unknown, unknown>([[1, 'a'], ['1', 'b']])),
  fc.constant(new Map([['a', 1]])),
  fc.constant(new Set([1, 2])),
  fc.constant(new Uint16Array([1, 2])),
  fc.constant(new Opaque()),
  fc.constant({ toJSON: () => 'json' }),
  fc.constant(() => 1),
  fc.constant(Symbol('s')),
);
const { json: loose } = fc.letrec((tie) => ({
  json: fc.oneof({ depthSize: 'small' }, fc.jsonValue(), weird, tie('array'), tie('object')),
  array: fc.array(tie('json'), { maxLength: 3 }),
  object: fc.dictionary(fc.string({ maxLength: 5 }), tie('json'), { maxKeys: 4 }),
}));
const sometimes = <T>(good: fc.Arbitrary<T>) => fc.oneof({ weight: 12, arbitrary: good }, { weight: 1, arbitrary: loose });
const line = fc.record({ sku: sometimes(fc.string()), quantity: sometimes(fc.nat(50)), note: sometimes(fc.option(fc.string(), { nil: null })) });
const invoice = fc.record(
  {
    id: sometimes(fc.string()),
    total: sometimes(fc.double({ noNaN: true, noDefaultInfinity: true })),
    paid: sometimes(fc.boolean()),
    issuedAt: sometimes(fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z') })),
    status: sometimes(fc.constantFrom('draft', 'sent')),
    lines: sometimes(fc.array(line, { maxLength: 3 })),
    memo: sometimes(fc.string()),
    meta: sometimes(fc.dictionary(fc.string({ maxLength: 4 }), loose, { maxKeys: 3 })),
    payment: sometimes(fc.oneof(fc.record({ kind: fc.constant('card'), last4: fc.string() }), fc.record({ kind: fc.constant('cash') }))),
    extra: loose,
  },
  { requiredKeys: ['id', 'total', 'paid', 'issuedAt', 'status', 'lines'] },
);

describe('render, as a property', () => {
  const ajv = addFormats(new Ajv2020({ strict: false }));
  const validate = ajv.compile(outputSchema(IssueInvoice)!);

  it('whatever render accepts round-trips through JSON unchanged and validates against outputSchema()', () => {
    let accepted = 0;
    fc.assert(
      fc.property(invoice, fc.boolean(), (value, rejectOpaque) => {
        let rendered: unknown;
        try {
          rendered = render(value, IssueInvoice, { rejectOpaque });
        } catch (error) {
          expect((error as Error).name).toMatch(/^(UnserializableValueError|OutputContractError)$/);
          return;
        }
        accepted++;
        expect(JSON.parse(JSON.stringify(rendered))).toEqual(rendered);
        if (!validate(rendered)) throw new Error(`accepted but invalid: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(rendered)}`);
      }),
      { numRuns: 1000 },
    );
    // Both sides of the property were exercised (about half the draws are accepted).
    expect(accepted).toBeGreaterThan(100);
    expect(accepted).toBeLessThan(1000);
  });
});
