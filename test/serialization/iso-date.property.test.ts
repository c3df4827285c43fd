/**
 * Dates render exactly as `toISOString` writes them, whichever path renders them (the generated
 * output renderer, the reference renderer, a free-form value) and whatever the instant: years
 * before 1000 and past 9999, negative years, every millisecond.
 */
import 'reflect-metadata';
import fc from 'fast-check';
import { Exposes, Field, Invoker, Tool } from 'toolwright';
import { declareRejectOpaqueExposedValues, defineAdapterConfig } from 'toolwright/kit';

const adapter = defineAdapterConfig('iso-date-test', { ...declareRejectOpaqueExposedValues({ default: false }) });

class Stamped {
  @Field() at!: Date;
  @Field({ type: () => Object }) free!: Record<string, unknown>;
}

let next = new Date(0);
@Tool()
@Exposes(Stamped)
class Stamp {
  call() {
    return { at: next, free: { also: next } };
  }
}

/** Instants across the whole Date range, and near the four-digit year edges more often. */
const instant = fc.oneof(
  fc.integer({ min: -8.64e15, max: 8.64e15 }),
  fc.integer({ min: -62_198_755_200_000, max: -62_135_596_800_000 }), // years -1 to 1
  fc.integer({ min: 253_370_764_800_000, max: 253_433_923_200_000 }), // years 9999 to 10001
  fc.integer({ min: -30_610_224_000_000, max: 0 }), // years 1000 to 1970
);

describe('dates render as toISOString writes them', () => {
  it.each([
    ['the generated path', new Invoker({ tracing: false })],
    ['the reference path', new Invoker({ tracing: false, compiled: false })],
  ])('on %s, at any instant', async (_path, invoker) => {
    await fc.assert(
      fc.asyncProperty(instant, async (time) => {
        next = new Date(time);
        const rendered = adapter.serializeExposed(await invoker.invoke(Stamp, {})) as { at: string; free: { also: string } };
        expect(rendered.at).toBe(next.toISOString());
        expect(rendered.free.also).toBe(next.toISOString());
      }),
      { numRuns: 2_000 },
    );
  });

  it('an invalid Date is still refused by name', async () => {
    next = new Date(Number.NaN);
    const result = await new Invoker({ tracing: false }).invoke(Stamp, {});
    expect(result.ok).toBe(false);
    expect((result.exception as Error).message).toContain('at is an invalid Date');
  });
});
