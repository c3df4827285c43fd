/**
 * bench/invoke: one call of the eight-field tool from a wire payload (JSON.parse per call), valid
 * (the integer sent as "42", the optional boolean omitted) and invalid (three errors), through
 * toolwright's invoke() and side by side with what the peers do:
 * class-transformer plainToInstance + class-validator validate (a NestJS ValidationPipe with
 * transform and implicit conversion), zod 4 safeParse (with coercion and the default), and a bare
 * compiled ajv validator with coercion and defaults.
 */
import 'reflect-metadata';
import { cpus, loadavg } from 'node:os';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { invoke, Invoker, Middleware } from 'toolwright';
import { CreateOrder } from './create-order';
import { decoratedClasses, INVALID_ARGS, TIERS, VALID_ARGS, zodWireContract } from '../schema/contracts';
import { fmt, machine, markdownTable, median, sampleAsync, writeReport } from '../lib/stats';

const valid = JSON.stringify(VALID_ARGS);
const invalid = JSON.stringify(INVALID_ARGS);

// class-validator path: plainToInstance + validate, as a NestJS ValidationPipe does.
const { Input: CvInput } = decoratedClasses(1, false);

// zod 4, with the coercion and the default the wire payload needs.
const zodInput = zodWireContract().input;

// A bare compiled ajv validator with coercion and defaults (the floor of what validation costs).
const ajv = addFormats(new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true }));
const ajvValidate = ajv.compile({
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    email: { type: 'string', format: 'email' },
    tier: { type: 'string', enum: TIERS },
    quantity: { type: 'integer', minimum: 1, maximum: 100 },
    priority: { type: 'integer', minimum: 0, maximum: 10 },
    notify: { type: 'boolean', default: true },
    tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 5 },
    address: {
      type: 'object',
      properties: { street: { type: 'string', minLength: 1 }, city: { type: 'string', minLength: 1 } },
      required: ['street', 'city'],
      additionalProperties: false,
    },
  },
  required: ['name', 'email', 'tier', 'quantity', 'priority', 'tags', 'address'],
  additionalProperties: false,
});

// The call pipeline: the same invoke with three no-op middlewares, and with tracing on through the
// OpenTelemetry SDK (an in-memory exporter, emptied as it goes). The other rows opt out of tracing,
// so the SDK registered here measures only the row that asks for it.
const exporter = new InMemorySpanExporter();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
const plain = new Invoker({ tracing: false });
// The generic path, the reference the compiled one is tested against (`compiled: false`).
const generic = new Invoker({ tracing: false, compiled: false });
const noop: Middleware = (_call, next) => next();
const withMiddleware = new Invoker({ tracing: false, middleware: [noop, noop, noop] });
const traced = new Invoker({ tracing: true });
let spans = 0;

type Contender = { key: string; label: string; run: (payload: string) => Promise<boolean> | boolean };
const contenders: Contender[] = [
  {
    key: 'toolwright',
    label: 'toolwright `invoke()` (compiled path, the default)',
    run: async (payload) => (await plain.invoke(CreateOrder, JSON.parse(payload))).ok,
  },
  {
    key: 'generic',
    label: 'toolwright `invoke()`, generic path (`compiled: false`)',
    run: async (payload) => (await generic.invoke(CreateOrder, JSON.parse(payload))).ok,
  },
  {
    key: 'middleware',
    label: 'toolwright, three no-op middlewares',
    run: async (payload) => (await withMiddleware.invoke(CreateOrder, JSON.parse(payload))).ok,
  },
  {
    key: 'tracing',
    label: 'toolwright, tracing on (OTel SDK, in-memory exporter)',
    run: async (payload) => {
      if (++spans % 10_000 === 0) exporter.reset();
      return (await traced.invoke(CreateOrder, JSON.parse(payload))).ok;
    },
  },
  {
    key: 'class-validator',
    label: 'class-transformer + class-validator',
    run: async (payload) =>
      (await validate(plainToInstance(CvInput, JSON.parse(payload), { enableImplicitConversion: true }) as object)).length === 0,
  },
  { key: 'zod', label: 'zod 4 `safeParse`', run: (payload) => zodInput.safeParse(JSON.parse(payload)).success },
  {
    key: 'parse',
    label: 'JSON.parse alone (what every contender pays first)',
    run: (payload) => typeof JSON.parse(payload) === 'object',
  },
  { key: 'ajv', label: 'ajv compiled (coercion + defaults)', run: (payload) => ajvValidate(JSON.parse(payload)) as boolean },
];

async function main(): Promise<void> {
  // Each contender must agree on what is valid.
  for (const contender of contenders) {
    if (!(await contender.run(valid))) throw new Error(`${contender.key} rejects the valid payload`);
    if (contender.key !== 'parse' && (await contender.run(invalid))) throw new Error(`${contender.key} accepts the invalid payload`);
  }
  const invalidResult = await invoke(CreateOrder, JSON.parse(invalid));
  // All three, whichever checker found each (the email is class-validator's own isEmail).
  if (invalidResult.fieldErrors.length !== 3) throw new Error(`expected three errors, got ${JSON.stringify(invalidResult.fieldErrors)}`);

  const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 9);
  const MIN_MS = Number(process.env.BENCH_MIN_MS ?? 150);
  const startLoad = loadavg()
    .map((load) => load.toFixed(1))
    .join(' / ');
  const times = new Map<string, number[]>();
  for (let round = 0; round < SAMPLES; round++) {
    for (const [payloadName, payload] of [
      ['valid', valid],
      ['invalid', invalid],
    ] as const) {
      // The order turns each round, so no contender always pays for the garbage the one before it left.
      const order = [...contenders.slice(round % contenders.length), ...contenders.slice(0, round % contenders.length)];
      for (const contender of order) {
        const [perCall] = await sampleAsync(() => contender.run(payload), { samples: 1, minMs: MIN_MS });
        const id = `${contender.key}:${payloadName}`;
        times.set(id, [...(times.get(id) ?? []), perCall]);
      }
    }
  }
  const opsPerSecond = (id: string) => 1e6 / median(times.get(id)!);
  const rows = contenders.map((contender) => {
    const cells = [contender.label];
    for (const payloadName of ['valid', 'invalid']) {
      const ops = opsPerSecond(`${contender.key}:${payloadName}`);
      const ours = opsPerSecond(`toolwright:${payloadName}`);
      cells.push(
        `${fmt(ops / 1000)}k`,
        `${fmt(median(times.get(`${contender.key}:${payloadName}`)!))} µs`,
        contender.key === 'toolwright' ? '1.00×' : `${fmt(ours / ops)}×`,
      );
    }
    return cells;
  });
  const table = markdownTable(
    ['contender', 'valid ops/s', 'valid median', 'toolwright speed ×', 'invalid ops/s', 'invalid median', 'toolwright speed ×'],
    rows,
  );
  const ratio = (peer: string, payload: string, ours = 'toolwright') =>
    opsPerSecond(`${ours}:${payload}`) / opsPerSecond(`${peer}:${payload}`);
  /** The middle half of the per-round ratios (the contenders of a round ran side by side): its 25th to 75th percentile. */
  const range = (peer: string, payload: string, ours = 'toolwright') => {
    const mine = times.get(`${ours}:${payload}`)!;
    const theirs = times.get(`${peer}:${payload}`)!;
    const each = mine.map((time, round) => theirs[round] / time).sort((a, b) => a - b);
    const at = (q: number) => each[Math.min(each.length - 1, Math.floor(q * each.length))];
    return `${fmt(at(0.25))}–${fmt(at(0.75))}×`;
  };
  /** One line per peer: the compiled path's and the generic path's speed against it, medians and per-round ranges. */
  const sideBySide = (peer: string, label: string) => {
    const line = (ours: string) =>
      `${fmt(ratio(peer, 'valid', ours))}× valid (middle half of rounds ${range(peer, 'valid', ours)}), ` +
      `${fmt(ratio(peer, 'invalid', ours))}× invalid (middle half of rounds ${range(peer, 'invalid', ours)})`;
    return `- ${label}: compiled ${line('toolwright')}${peer === 'generic' ? '' : `; generic ${line('generic')}`}.`;
  };
  const verdict = (peer: string, goal: number, label: string) => {
    const valid = ratio(peer, 'valid');
    const invalid = ratio(peer, 'invalid');
    const met = valid >= goal && invalid >= goal;
    return `- ${label} (goal ≥ ${goal}×): **${met ? 'met' : 'not met'}**, ${fmt(valid)}× on the valid payload and ${fmt(invalid)}× on the invalid one.`;
  };
  /** The pipeline rows: how much longer a call takes than the plain `invoke()` row (goal: at most `limit`). */
  const overhead = (key: string, label: string, limit?: number, invalidNote = '') => {
    const extra = (payload: string) => median(times.get(`${key}:${payload}`)!) / median(times.get(`toolwright:${payload}`)!) - 1;
    const [valid, invalid] = [extra('valid'), extra('invalid')];
    const pct = (value: number) => `${value >= 0 ? '+' : ''}${fmt(value * 100)}%`;
    const goal = limit === undefined ? '' : ` (goal: at most +${limit * 100}% on a valid call): **${valid <= limit ? 'met' : 'not met'}**,`;
    return `- ${label}${goal} ${pct(valid)} on the valid payload (${pct(invalid)} on the invalid one${invalidNote}).`;
  };
  const parse = median(times.get('parse:valid')!);
  const cvMicroseconds = median(times.get('class-validator:valid')!);
  const report = [
    '## Invocation (`bench/invoke`)',
    '',
    `${machine()}; median of ${SAMPLES} samples of ≥${MIN_MS} ms each, contenders interleaved (the order turning each round); ` +
      `load average ${startLoad} at the start and ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' / ')} at the end (1, 5, 15 min) on ${cpus().length} cores: on a busy machine read the ratios, not the times.`,
    '',
    'One call of the eight-field tool from a wire payload parsed with JSON.parse per call: valid (the',
    'integer sent as "42", the optional boolean omitted) and invalid (three errors, all three named in one answer: the',
    "email by class-validator's isEmail rule, which runs on the fields the schema accepted even when others failed). toolwright `invoke()`",
    'also resolves the tool through DI, runs it, and checks its output against `@Exposes`; the peers only',
    'validate. "toolwright speed ×" is toolwright\'s ops/s divided by the contender\'s: above 1× means',
    'toolwright is faster. The toolwright rows run with `tracing: false` except the tracing row; the',
    'pipeline rows are compared with the first row.',
    '',
    'The compiled path (the default) against the generic one (`compiled: false`) and the peers, in the same run:',
    '',
    sideBySide('generic', 'Against the generic path'),
    sideBySide('class-validator', 'Against class-transformer + class-validator'),
    sideBySide('zod', 'Against zod 4 `safeParse`'),
    sideBySide('ajv', 'Against the bare ajv validator'),
    '',
    `Where a valid call's time goes: JSON.parse alone takes ${fmt(parse)} µs of every contender's; beyond it, toolwright's call takes ` +
      `${fmt(median(times.get('toolwright:valid')!) - parse)} µs (the input contract's generated function, class-validator's \`isEmail\` answered by its fast check, ` +
      `the DTO, DI resolution, the call, the output checked and rendered) and zod's \`safeParse\` ${fmt(median(times.get('zod:valid')!) - parse)} µs (validation only).`,
    '',
    verdict('class-validator', 8, 'Against class-transformer + class-validator'),
    verdict('zod', 1, 'Against zod 4 `safeParse`'),
    overhead('middleware', 'Three no-op middlewares', 0.1, ', which never reaches middleware'),
    overhead(
      'tracing',
      'Tracing on:',
      undefined,
      '; its goal is against one equivalent span made by hand with the same SDK, in `bench/tracing`',
    ),
    '',
    `The class-validator path takes ${fmt(cvMicroseconds)} µs here; eight times faster would be ${fmt(cvMicroseconds / 8)} µs, of which`,
    `JSON.parse alone is ${fmt(parse)} µs, before anything \`invoke()\` does (coercion, unknown-key and`,
    'ambient checks, validation, DTO instances, DI resolution, the call, the output check).',
    '',
    table,
    '',
  ].join('\n');
  writeReport('invoke', report);
}

void main();
