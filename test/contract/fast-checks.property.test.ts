/**
 * The built-ins class-validator re-checks at call time (`@IsEmail`, `@IsUrl`, `@IsUUID`,
 * `@IsISO8601`, `@IsDateString`, `@IsRFC3339`) run on the compiled path as fast checks that hand
 * anything unusual to validator.js. The verdict is class-validator's: for every option set, on the
 * corpus of real-world values and look-alikes and on generated texts (each grammar's pieces and
 * edge cases, then mutated), a field is refused exactly when class-validator's exported check with
 * the same options says false. bench/fast-checks runs millions more and measures the speed.
 */
import 'reflect-metadata';
import * as cv from 'class-validator';
import { Expects, Field, Invoker, Tool } from 'toolwright';
import { FastCase, fastCases } from '../fixtures/fast-checks/cases';
import { email, sample, seeded } from '../fixtures/fast-checks/grammar';

/** Fields per class: one validate() call gives the verdicts on this many values (an answer lists up to 20 problems). */
const WIDTH = 20;
const GENERATED = Number(process.env.FAST_CHECK_VALUES ?? 1_200);
const LONE_SURROGATE = /\p{Surrogate}/u;

let count = 0;
function toolFor(decorate: (target: object, key: string) => void, width: number, design: unknown = String): Function {
  const Input = { [`Input${++count}`]: class {} }[`Input${count}`];
  for (let i = 0; i < width; i++) {
    Reflect.defineMetadata('design:type', design, Input.prototype, `v${i}`);
    decorate(Input.prototype, `v${i}`);
    Field()(Input.prototype, `v${i}`);
  }
  const Checked = {
    [`Checked${count}`]: class {
      call() {
        return 'ok';
      }
    },
  }[`Checked${count}`];
  Expects(Input as new () => object)(Checked);
  Tool()(Checked);
  return Checked;
}

const invoker = new Invoker({ tracing: false });

/** Which of the values the tool's fields accept: one field per value. */
async function accepted(tool: Function, values: readonly unknown[]): Promise<boolean[]> {
  const args: Record<string, unknown> = {};
  for (let i = 0; i < WIDTH; i++) args[`v${i}`] = values[i % values.length];
  const checked = await invoker.validate(tool, args);
  if (checked.ok) return values.map(() => true);
  const refused = new Set(checked.result.fieldErrors.map((error) => error.field));
  return values.map((_, i) => !refused.has(`v${i}`));
}

function verdict(reference: (value: unknown) => boolean, value: unknown): boolean {
  try {
    return reference(value);
  } catch {
    return false; // a check that throws refuses the value
  }
}

async function disagreements(tool: Function, reference: (value: unknown) => boolean, values: readonly unknown[]): Promise<unknown[]> {
  const found: unknown[] = [];
  for (let start = 0; start < values.length; start += WIDTH) {
    const batch = values.slice(start, start + WIDTH);
    const answers = await accepted(tool, batch);
    batch.forEach((value, i) => {
      if (answers[i] !== verdict(reference, value)) found.push(value);
    });
  }
  return found;
}

describe('fast checks answer as class-validator', () => {
  const cases = fastCases();
  it.each(cases.map((c) => [c.label, c] as const))('%s', async (_label, c: FastCase) => {
    const tool = toolFor(c.decorator() as (target: object, key: string) => void, WIDTH);
    const r = seeded(0x5eed ^ count);
    // Text with an unpaired surrogate is refused before any check runs (bench/fast-checks checks those too).
    const values = [...c.corpus, ...Array.from({ length: GENERATED }, () => sample(r, c.generate))].filter((value) => !LONE_SURROGATE.test(value));
    const accepted = values.filter((value) => verdict(c.reference, value)).length;
    expect(await disagreements(tool, c.reference, values)).toEqual([]);
    // Not vacuous: the values hold both verdicts (an option set that refuses every URL aside).
    if (!c.label.includes('host_whitelist')) expect(accepted).toBeGreaterThanOrEqual(10);
    expect(accepted).toBeLessThan(values.length);
  });

  it('each item of an array with { each: true }, and the array refused at the first item refused', async () => {
    const tool = toolFor(cv.IsEmail(undefined, { each: true }) as (target: object, key: string) => void, WIDTH, Array);
    const r = seeded(7);
    const lists = Array.from({ length: 400 }, () => Array.from({ length: 1 + Math.floor(r() * 3) }, () => sample(r, email)))
      .map((list) => list.filter((value) => !LONE_SURROGATE.test(value)))
      .filter((list) => list.length > 0); // an empty list is refused before any check runs
    const every = (list: unknown) => (list as string[]).every((value) => verdict((v) => cv.isEmail(v), value));
    expect(await disagreements(tool, every, lists)).toEqual([]);
  });
});
