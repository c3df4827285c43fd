import 'reflect-metadata';
import { Validate, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { Expects, Field, Integer, invoke, Invoker, Tool } from 'toolwright';

@ValidatorConstraint({ name: 'even' })
class Even implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return typeof value === 'number' && value % 2 === 0;
  }
  defaultMessage() {
    return 'count must be even';
  }
}

class Order {
  @Field({ type: Integer }) @Validate(Even) count!: number;
  @Field({ optional: true, default: 'standard' }) tier?: string;
  @Field({ type: Date }) due!: Date;
}

let calls = 0;

@Tool()
@Expects(Order)
class PlaceOrder {
  call(input: Order) {
    calls++;
    return input.count;
  }
}

describe('Invoker.validate', () => {
  const invoker = new Invoker();

  it('gives the prepared wire input (coerced, defaulted, JSON) without calling the tool', async () => {
    const checked = await invoker.validate(PlaceOrder, { count: '4', due: new Date('2026-01-02T00:00:00Z') });
    expect(checked).toEqual({ ok: true, input: { count: 4, tier: 'standard', due: '2026-01-02T00:00:00.000Z' } });
    expect(calls).toBe(0);
    // The prepared input is a valid call as it is.
    expect((await invoke(PlaceOrder, checked.ok ? checked.input : {})).value).toBe(4);
  });

  it('fails exactly as invoke does: schema problems, unknown keys and run-time-only constraints', async () => {
    for (const args of [{ count: 'x', due: 'soon', extra: 1 }, { count: 3, due: '2026-01-02T00:00:00Z' }, 'not an object']) {
      const checked = await invoker.validate(PlaceOrder, args);
      const invoked = await invoke(PlaceOrder, args);
      expect(checked.ok).toBe(false);
      if (!checked.ok) expect(checked.result.toJSON()).toEqual(invoked.toJSON());
    }
    expect(calls).toBe(1);
  });
});
