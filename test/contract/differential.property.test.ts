/**
 * "The schema a model sees is exactly what the runtime accepts", and for a DTO shared with a NestJS
 * controller, what class-validator accepts is the third side of it. For every class-validator
 * decorator toolwright maps (read from its own table, MAPPED_VALIDATORS) with the options it takes,
 * a one-field DTO is tried with hand-picked edge values and fast-check generated ones:
 *
 * - through class-validator as a NestJS ValidationPipe runs it (`transform: true` with
 *   `enableImplicitConversion`: plainToInstance, then validate) and through `invoke()`: any value
 *   one side accepts and the other refuses fails the test, unless it is one of the differences the
 *   documentation lists on purpose (docs/guide/contracts.md, "Deliberate differences"; ALLOWED
 *   below, each with its reason, and each only in the direction where toolwright is the stricter
 *   side);
 * - when both accept, the tool receives the value class-validator's instance holds;
 * - the advertised JSON Schema (ajv with ajv-formats, in each dialect: 2020-12 and draft-07) accepts
 *   every prepared input `invoke()` accepts: the schema shown is never stricter than the runtime.
 *   `format` is read as the Contracts and DTOs page says: `uuid` and a Date field's `date-time` are
 *   asserted; `email`, `uri` and a date string's `date-time` are annotations (class-validator checks
 *   those values, and accepts some the formats refuse: `a@bücher.de`, `example.com`, `2024-01-01`).
 *
 * The baseline is implicit conversion because toolwright coerces wire strings to the field's type
 * ("500" → 500) as class-transformer's implicit conversion does; with `transform: true` alone
 * class-validator refuses every numeric string toolwright coerces (`coerce: false` turns it off).
 */
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate } from 'class-validator';
import { Expects, inputSchema, Invoker, Tool } from 'toolwright';
import { MAPPED_VALIDATORS } from 'toolwright/kit';
import { isolatedRegistry } from 'toolwright/testing';
import { Case, CASES, generated, HAND_PICKED } from './differential-cases';

/** Generated values per DTO (from a fixed seed: the same values every run). */
const GENERATED_PER_CASE = 40;

interface Outcome {
  readonly ok: boolean;
  readonly value?: unknown;
}

interface Trial {
  readonly case: Case;
  readonly value: unknown;
  readonly cv: Outcome;
  readonly tw: Outcome;
}

const DECIMAL = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/;
const NON_FINITE = /^\s*[-+]?(?:Infinity|NaN)\s*$/;
const VARIATION_SELECTOR = /[\uFE0E\uFE0F]/;
const TRUE_WORDS = new Set(['1', 'true', 't', 'yes', 'y', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'f', 'no', 'n', 'off']);

/** Decimal text whose exact value (as a fraction, in BigInt) is an integer of at most 2^53 in magnitude. */
function isExactInteger(text: string): boolean {
  const [, whole, fraction, exponent] = /^\s*[-+]?(\d*)\.?(\d*)(?:[eE]([-+]?\d+))?\s*$/.exec(text)!;
  const numerator = BigInt(whole + fraction || '0');
  const power = Number(exponent ?? 0) - fraction.length;
  if (numerator === 0n) return true;
  if (Math.abs(power) > 1000) return false;
  const scale = 10n ** BigInt(Math.abs(power));
  if (power < 0 && numerator % scale !== 0n) return false;
  return (power < 0 ? numerator / scale : numerator * scale) <= 2n ** 53n;
}

const has = (c: Case, name: string) => caseNames.get(c)!.includes(name);
const isText = (value: unknown): value is string => typeof value === 'string';
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter(isText) : isText(value) ? [value] : []);
const isUnpaired = (value: unknown) => strings(value).some((text) => !(text as string & { isWellFormed(): boolean }).isWellFormed());
const dateTime = addFormats.get('date-time') as unknown as { validate(text: string): boolean };

/**
 * The deliberate differences, as the Contracts and DTOs page lists them (docs/guide/contracts.md): each
 * excuses only toolwright refusing a value class-validator accepts (or, for `value`, the two
 * reading one accepted value differently), never toolwright accepting more.
 */
const ALLOWED: ReadonlyArray<{ readonly name: string; readonly reason: string; readonly applies: (t: Trial) => boolean; readonly value?: boolean }> = [
  {
    name: 'not a string',
    reason: "toolwright never turns a number, boolean or object into a string; implicit conversion does (String(42) is '42')",
    applies: (t) => t.case.design === String && t.value !== null && t.value !== undefined && !isText(t.value),
  },
  {
    name: 'number text',
    reason:
      "wire text becomes a number only when it is decimal and, for an integer, exactly an integer of at most 2^53: Number('') is 0, Number('0x10') 16, Number('9007199254740993') another number, Number('1.0000000000000001') 1",
    applies: (t) =>
      t.case.design === Number &&
      t.value !== null &&
      t.value !== undefined &&
      typeof t.value !== 'number' &&
      !(isText(t.value) && DECIMAL.test(t.value) && (!has(t.case, 'isInt') || isExactInteger(t.value))),
  },
  {
    name: 'non-finite',
    reason: 'NaN and ±Infinity are no JSON numbers and never reach a tool, allowNaN/allowInfinity or not',
    applies: (t) =>
      [t.value]
        .flat()
        .some((v) => (typeof v === 'number' ? !Number.isFinite(v) : isText(v) && (DECIMAL.test(v) || NON_FINITE.test(v)) && !Number.isFinite(Number(v)))),
  },
  {
    name: 'boolean words',
    reason: "toolwright reads 'false', 'no', 'off', '0' as false and refuses other text; Boolean('false') is true",
    applies: (t) => t.case.design === Boolean && typeof t.value !== 'boolean',
    value: true,
  },
  {
    name: 'date text',
    reason: "a Date field takes an RFC 3339 date-time that JavaScript can hold, not whatever Date.parse accepts ('Jan 1 2024', numbers)",
    applies: (t) => t.case.design === Date && !(isText(t.value) && dateTime.validate(t.value) && !Number.isNaN(Date.parse(t.value))),
  },
  {
    name: 'empty',
    reason: "a required string, array or object may not be empty (the schema's minLength/minItems/minProperties floor; allowEmpty: true lifts it)",
    applies: (t) =>
      !has(t.case, 'isOptional') &&
      (t.value === '' || (Array.isArray(t.value) && t.value.length === 0) || (t.value !== null && typeof t.value === 'object' && !Array.isArray(t.value) && Object.keys(t.value).length === 0)),
  },
  {
    name: 'required',
    reason: 'a field without @IsOptional() is required, as its TypeScript type says; class-validator lets an absent value through checks that accept undefined (@IsNotIn, @NotEquals)',
    applies: (t) => !has(t.case, 'isOptional') && (t.value === undefined || t.value === null),
  },
  {
    name: 'not an array',
    reason: 'a field declared as an array takes an array: implicit conversion turns an object into [], and { each: true } checks a lone value as it is',
    applies: (t) => t.case.design === Array && !Array.isArray(t.value),
  },
  {
    name: 'optional null',
    reason: '@IsOptional() makes a field optional: absent, not null (null is accepted with nullable: true or nullMeansAbsent)',
    applies: (t) => has(t.case, 'isOptional') && t.value === null,
  },
  {
    name: 'variation selectors',
    reason: 'a maximum length counts every code point, as JSON Schema does; class-validator does not count U+FE0E/U+FE0F, so a megabyte of them passes @MaxLength(3)',
    applies: (t) => (has(t.case, 'maxLength') || has(t.case, 'isLength')) && strings(t.value).some((s) => VARIATION_SELECTOR.test(s)),
  },
  {
    name: 'unpaired surrogate',
    reason: 'text with an unpaired UTF-16 surrogate is not Unicode and is refused before validation',
    applies: (t) => isUnpaired(t.value),
  },
];

const caseNames = new Map<Case, string[]>();

function dtoFor(c: Case, index: number): Function {
  const Dto = { [`Dto${index}`]: class {} }[`Dto${index}`];
  Reflect.defineMetadata('design:type', c.design, Dto.prototype, 'value');
  for (const decorate of [...c.decorators].reverse()) decorate(Dto.prototype, 'value');
  caseNames.set(
    c,
    getMetadataStorage()
      .getTargetValidationMetadatas(Dto, '', true, false)
      .map((m) => m.name ?? m.type),
  );
  return Dto;
}

/** JSON-comparable form of what a tool or class-validator's instance holds. */
function normal(value: unknown): string {
  // The holder's own value: JSON.stringify has already called a Date's toJSON on `v`.
  const replacer = function (this: Record<string, unknown>, key: string, v: unknown) {
    const raw = this[key];
    return raw instanceof Date ? `Date(${raw.getTime()})` : v;
  };
  return JSON.stringify(value, replacer) ?? 'undefined';
}

const contractsPage = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'guide', 'contracts.md'), 'utf8');

const AJV_OPTIONS = { strict: false, strictNumbers: true, multipleOfPrecision: 12, allErrors: false } as const;
/** The formats the advertised input schema shows as annotations only (on a Date field, date-time is asserted). */
const ANNOTATIONS = ['email', 'uri', 'date-time'];

/** ajv in both dialects, with ajv-formats; the annotation-only formats read as annotations unless `dates`. */
function schemaValidators(dates: boolean): { ajv: Ajv2020; ajvDraft07: Ajv } {
  const ajv = new Ajv2020(AJV_OPTIONS);
  const ajvDraft07 = new Ajv(AJV_OPTIONS);
  for (const validator of [ajv, ajvDraft07]) {
    addFormats(validator);
    for (const format of ANNOTATIONS) if (!(dates && format === 'date-time')) validator.addFormat(format, true);
  }
  return { ajv, ajvDraft07 };
}
const forStrings = schemaValidators(false);
const forDates = schemaValidators(true);

describe('differential: class-validator (as a NestJS ValidationPipe runs it) = invoke() ⊆ the advertised schema', () => {
  const trials: Trial[] = [];
  const schemaTooStrict: string[] = [];
  let values = 0;

  beforeAll(async () => {
    isolatedRegistry();
    const invoker = new Invoker();
    for (const [index, c] of CASES.entries()) {
      const Dto = dtoFor(c, index);
      let received: unknown;
      const ToolClass = {
        [`Differential${index}`]: class {
          call(input: { value?: unknown }) {
            received = input.value;
            return null;
          }
        },
      }[`Differential${index}`];
      Expects(Dto as new () => object)(ToolClass);
      Tool({ name: `differential_${index}`, description: c.label })(ToolClass);
      const { ajv, ajvDraft07 } = c.design === Date ? forDates : forStrings;
      const check = ajv.compile(inputSchema(ToolClass));
      const checkDraft07 = ajvDraft07.compile(inputSchema(ToolClass, { dialect: 'draft-07' }));
      for (const value of [...HAND_PICKED, ...generated(c.kind, 1000 + index, GENERATED_PER_CASE)]) {
        values++;
        const args = value === undefined ? {} : { value };
        const instance = plainToInstance(Dto as new () => { value?: unknown }, args, { enableImplicitConversion: true });
        // A check that throws (isEmail's decodeURIComponent on some text) fails the request in NestJS too.
        const cvOk = await (async () => (await validate(instance)).length === 0)().catch(() => false);
        received = undefined;
        const result = await invoker.invoke(ToolClass, args);
        const trial: Trial = { case: c, value, cv: { ok: cvOk, value: instance.value }, tw: { ok: result.ok, value: received } };
        trials.push(trial);
        if (result.ok) {
          const prepared = await invoker.validate(ToolClass, args);
          if (!prepared.ok || !check(prepared.input) || !checkDraft07(prepared.input)) schemaTooStrict.push(`${c.label}: ${normal(value).slice(0, 80)}`);
        }
      }
    }
  }, 60_000);

  it('covers every decorator toolwright maps (a newly mapped one needs a case in differential-cases.ts)', () => {
    const covered = new Set(CASES.flatMap((c) => caseNames.get(c) ?? []));
    expect(MAPPED_VALIDATORS.length).toBeGreaterThan(30);
    expect(MAPPED_VALIDATORS.filter((name) => !covered.has(name))).toEqual([]);
  });

  it('invoke() accepts exactly what class-validator accepts, apart from the documented differences', () => {
    const unexplained: string[] = [];
    const counts = new Map<string, number>();
    for (const t of trials) {
      const accepts = t.cv.ok === t.tw.ok;
      const same = !accepts || !t.cv.ok || normal(t.cv.value) === normal(t.tw.value);
      if (accepts && same) continue;
      // Toolwright accepting what class-validator refuses is never excused.
      const allowed = t.tw.ok && !t.cv.ok ? undefined : ALLOWED.find((a) => (accepts ? a.value === true : true) && a.applies(t));
      if (allowed) counts.set(allowed.name, (counts.get(allowed.name) ?? 0) + 1);
      else
        unexplained.push(
          `${t.case.label} ${normal(t.value).slice(0, 80)}: class-validator ${t.cv.ok ? `accepts (${normal(t.cv.value).slice(0, 40)})` : 'refuses'}, invoke() ${t.tw.ok ? `accepts (${normal(t.tw.value).slice(0, 40)})` : 'refuses'}`,
        );
    }
    if (process.env.DIFFERENTIAL_REPORT) {
      const diverging = new Set(unexplained.map((line) => line.split(' ').slice(0, 1)[0]));
      console.log(
        `${CASES.length} DTOs, ${values} values; ${unexplained.length} unexplained divergences, allowed: ${JSON.stringify(Object.fromEntries(counts))}; ${diverging.size}\n` +
          unexplained.join('\n'),
      );
    }
    expect(unexplained).toEqual([]);
    // An excuse nothing needs is a hole waiting to be used: each one must explain a real difference.
    expect(ALLOWED.filter((a) => !counts.has(a.name)).map((a) => a.name)).toEqual([]);
  });

  it('the Security guide (docs/guide/security.md) states the number of combinations tried', () => {
    const security = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'guide', 'security.md'), 'utf8');
    expect(security).toContain(`a differential test runs ${CASES.length} class-validator decorator/option combinations`);
  });

  it("the Contracts and DTOs page's class-validator table names every mapped decorator", () => {
    const start = contractsPage.indexOf('\n## class-validator, exactly\n');
    expect(start).toBeGreaterThan(0);
    const table = contractsPage.slice(start, contractsPage.indexOf('\n## ', start + 1)).toLowerCase();
    // Registered names are the decorators' in camel case, but for @Length (isLength).
    const decorator = (name: string) => `@${name === 'isLength' ? 'length' : name.toLowerCase()}`;
    expect(MAPPED_VALIDATORS.filter((name) => !new RegExp(`\`${decorator(name)}[\`(]`).test(table))).toEqual([]);
  });

  it('the advertised schema accepts every prepared input invoke() accepts', () => {
    expect(schemaTooStrict).toEqual([]);
  });

  it('really tries both answers: every DTO has values both sides accept and values both refuse', () => {
    for (const c of CASES) {
      const own = trials.filter((t) => t.case === c);
      // class-validator divides by parseInt(0.5), which is 0: nothing is divisible by it.
      const acceptsNothing = c.label === '@IsDivisibleBy(0.5)';
      expect([c.label, own.some((t) => t.cv.ok && t.tw.ok)]).toEqual([c.label, !acceptsNothing]);
      expect([c.label, own.some((t) => !t.cv.ok && !t.tw.ok)]).toEqual([c.label, true]);
    }
  });
});
