/**
 * bench/tracing: what tracing adds to a call, against what one equivalent span made by hand with the
 * same OpenTelemetry SDK adds to the same call. Three contenders, interleaved: the un-traced call
 * (`tracing: false`), toolwright's traced call, and the un-traced call inside one span opened by hand
 * with `startActiveSpan` (the tool's own spans would be its children, as toolwright's span makes
 * them) carrying the same attributes, outcome, error type and status, through the same tracer
 * provider and in-memory exporter; and, for scale, the same hand-made span not made active (what the
 * AsyncLocalStorage context manager costs). The ratio is toolwright's extra time over the hand-made
 * span's. Many short samples, interleaved, timed in the process's CPU time (time spent descheduled on
 * a shared machine is not the contenders'), medians; the range is over consecutive blocks of rounds.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { context, Counter, Histogram, metrics, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Invoker } from 'toolwright';
import { CreateOrder } from '../invoke/create-order';
import { INVALID_ARGS, VALID_ARGS } from '../schema/contracts';
import { fmt, machine, markdownTable, median, sampleAsync, writeReport } from '../lib/stats';

const valid = JSON.stringify(VALID_ARGS);
const invalid = JSON.stringify(INVALID_ARGS);

const exporter = new InMemorySpanExporter();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
const plain = new Invoker({ tracing: false });
const traced = new Invoker({ tracing: true });
const tracer = trace.getTracer('hand-made', '1.0.0');
let spans = 0;
const drain = () => {
  if (++spans % 100 === 0) exporter.reset();
};

/** The attributes toolwright's span carries, read from one of its spans (so the hand-made one matches). */
let handAttributes: Record<string, string | number> = {};

/** The hand-made instruments, made once (second part: a meter provider registered). */
let handInstruments: { duration: Histogram; calls: Counter } | undefined;

/** The un-traced call inside one span made by hand, as an application would write it (and measured, once metrics are on). */
function handMade(payload: string): Promise<boolean> {
  const started = performance.now();
  const id = randomUUID();
  return tracer.startActiveSpan(
    'execute_tool create_order',
    { kind: SpanKind.INTERNAL, attributes: { ...handAttributes, 'gen_ai.tool.call.id': id } },
    async (span) => {
      const result = await plain.invoke(CreateOrder, JSON.parse(payload), { callId: id });
      span.setAttribute('toolwright.outcome', result.outcome);
      if (!result.ok) {
        span.setAttribute('error.type', (result.exception as Error).constructor.name);
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
      if (handInstruments) {
        const measured: Record<string, string | number> = {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': handAttributes['gen_ai.tool.name'],
          'toolwright.tool.version': handAttributes['toolwright.tool.version'],
          'toolwright.transport': handAttributes['toolwright.transport'],
          'toolwright.outcome': result.outcome,
        };
        if (!result.ok) measured['error.type'] = (result.exception as Error).constructor.name;
        handInstruments.duration.record((performance.now() - started) / 1000, measured);
        handInstruments.calls.add(1, measured);
      }
      return result.ok;
    },
  );
}

/** The same span, not made active: what `startActiveSpan`'s context switch adds (for scale). */
async function handMadeInactive(payload: string): Promise<boolean> {
  const id = randomUUID();
  const span = tracer.startSpan('execute_tool create_order', {
    kind: SpanKind.INTERNAL,
    attributes: { ...handAttributes, 'gen_ai.tool.call.id': id },
  });
  const result = await plain.invoke(CreateOrder, JSON.parse(payload), { callId: id });
  span.setAttribute('toolwright.outcome', result.outcome);
  if (!result.ok) {
    span.setAttribute('error.type', (result.exception as Error).constructor.name);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
  return result.ok;
}

type Contender = { key: string; label: string; run: (payload: string) => Promise<boolean> };
const contenders: Contender[] = [
  {
    key: 'untraced',
    label: 'toolwright `invoke()`, `tracing: false`',
    run: async (payload) => (await plain.invoke(CreateOrder, JSON.parse(payload))).ok,
  },
  {
    key: 'toolwright',
    label: 'toolwright `invoke()`, tracing on',
    run: async (payload) => {
      drain();
      return (await traced.invoke(CreateOrder, JSON.parse(payload))).ok;
    },
  },
  {
    key: 'hand',
    label: 'the `tracing: false` call in one span made by hand (`startActiveSpan`)',
    run: (payload) => {
      drain();
      return handMade(payload);
    },
  },
  {
    key: 'inactive',
    label: 'the same hand-made span, not made active (`startSpan`, for scale)',
    run: (payload) => {
      drain();
      return handMadeInactive(payload);
    },
  },
];

const PAYLOADS = ['valid', 'invalid'] as const;
type Payload = (typeof PAYLOADS)[number];
const payloads: Record<Payload, string> = { valid, invalid };

/** One sample: `calls` calls in a row; µs per call in wall time and in the process's CPU time. */
async function sample(contender: Contender, payload: string, calls: number): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await contender.run(payload);
  const wall = Number(process.hrtime.bigint() - start) / 1e3 / calls;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / calls };
}

const CALLS = 250;
const BLOCKS = 8;

/** `count` rounds: in each, every contender runs `CALLS` calls per payload, the order turning each round. */
async function rounds(list: Contender[], count: number): Promise<{ wall: Map<string, number[]>; cpu: Map<string, number[]> }> {
  // Warm-up: every contender runs long enough for the JIT to settle before anything is timed.
  for (const contender of list)
    for (const payload of PAYLOADS) await sampleAsync(() => contender.run(payloads[payload]), { samples: 1, minMs: 500 });
  const wall = new Map<string, number[]>();
  const cpu = new Map<string, number[]>();
  for (let round = 0; round < count; round++) {
    for (const payload of PAYLOADS) {
      // The order turns each round, so no contender always pays for the garbage the one before it left.
      const turn = round % list.length;
      for (const contender of [...list.slice(turn), ...list.slice(0, turn)]) {
        const timed = await sample(contender, payloads[payload], CALLS);
        const id = `${contender.key}:${payload}`;
        (wall.get(id) ?? wall.set(id, []).get(id)!).push(timed.wall);
        (cpu.get(id) ?? cpu.set(id, []).get(id)!).push(timed.cpu);
      }
    }
  }
  return { wall, cpu };
}

async function main(): Promise<void> {
  // The spans must match: same name, kind, attributes (but the call id), outcome and status.
  exporter.reset();
  await traced.invoke(CreateOrder, JSON.parse(invalid));
  const [reference] = exporter.getFinishedSpans();
  handAttributes = Object.fromEntries(
    Object.entries(reference.attributes).filter(([key]) => !['gen_ai.tool.call.id', 'toolwright.outcome', 'error.type'].includes(key)),
  ) as Record<string, string | number>;
  for (const payload of [valid, invalid]) {
    exporter.reset();
    const oks = [await contenders[1].run(payload), await contenders[2].run(payload), await contenders[3].run(payload)];
    if (new Set(oks).size !== 1) throw new Error('the calls disagree');
    const [ours, ...theirs] = exporter.getFinishedSpans();
    const shape = (span: typeof ours) =>
      JSON.stringify({
        name: span.name,
        kind: span.kind,
        status: span.status,
        attributes: Object.entries({ ...span.attributes, 'gen_ai.tool.call.id': typeof span.attributes['gen_ai.tool.call.id'] }).sort(),
        events: span.events.length,
      });
    for (const hand of theirs) {
      if (shape(ours) !== shape(hand)) throw new Error(`a hand-made span differs from toolwright's:\n${shape(ours)}\n${shape(hand)}`);
    }
  }
  exporter.reset();

  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 400);
  const loadBefore = loadavg();
  const { wall, cpu } = await rounds(contenders, ROUNDS);
  // Second part: a meter provider registered too (a reader exporting once a minute, so never during the
  // run): toolwright records its two instruments, the hand-made span records the same two by hand.
  metrics.setGlobalMeterProvider(
    new MeterProvider({
      readers: [
        new PeriodicExportingMetricReader({
          exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
          exportIntervalMillis: 60_000,
        }),
      ],
    }),
  );
  const meter = metrics.getMeter('hand-made', '1.0.0');
  handInstruments = {
    duration: meter.createHistogram('hand.tool.call.duration', {
      unit: 's',
      advice: { explicitBucketBoundaries: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] },
    }),
    calls: meter.createCounter('hand.tool.calls', { unit: '{call}' }),
  };
  const METRIC_ROUNDS = Math.max(BLOCKS, Math.round(ROUNDS / 2));
  const measured = await rounds(contenders.slice(0, 3), METRIC_ROUNDS);
  const loadAfter = loadavg();
  type Times = Map<string, number[]>;
  const at = (times: Times, key: string, payload: Payload, block?: number) => {
    const all = times.get(`${key}:${payload}`)!;
    const size = Math.floor(all.length / BLOCKS);
    return median(block === undefined ? all : all.slice(block * size, (block + 1) * size));
  };
  const extra = (times: Times, key: string, payload: Payload, block?: number) =>
    at(times, key, payload, block) - at(times, 'untraced', payload, block);
  const ratio = (times: Times, payload: Payload, block?: number) =>
    extra(times, 'toolwright', payload, block) / extra(times, 'hand', payload, block);
  const blocks = (times: Times, payload: Payload) => Array.from({ length: BLOCKS }, (_, block) => ratio(times, payload, block));
  const range = (values: number[]) => `${fmt(Math.min(...values))}–${fmt(Math.max(...values))}`;
  const rows = (times: Times, clock: string, list: Contender[]) =>
    PAYLOADS.map((payload) => [
      `${payload}, ${clock}`,
      ...list.map((contender) => `${fmt(at(times, contender.key, payload))} µs`),
      `${fmt(extra(times, 'toolwright', payload))} µs`,
      `${fmt(extra(times, 'hand', payload))} µs`,
      `**${fmt(ratio(times, payload))}×** (${range(blocks(times, payload))})`,
    ]);
  const header = (list: Contender[]) => [
    'payload, clock',
    ...list.map((contender) => contender.label),
    "toolwright's extra",
    "hand-made span's extra",
    'ratio (block range)',
  ];
  const verdict = PAYLOADS.map((payload) => ratio(cpu, payload));
  const met = verdict.every((value) => value <= 1.25);
  const measuredVerdict = PAYLOADS.map((payload) => ratio(measured.cpu, payload));
  const loads = (load: number[]) => load.map((value) => value.toFixed(1)).join(' / ');
  const raw = (times: Times, list: Contender[]) =>
    list.flatMap((contender) =>
      PAYLOADS.map(
        (payload) =>
          `- ${contender.key}, ${payload}: ` +
          Array.from({ length: BLOCKS }, (_, block) => fmt(at(times, contender.key, payload, block))).join(', '),
      ),
    );
  const report = [
    '## Tracing (`bench/tracing`)',
    '',
    `${machine()}; ${ROUNDS} rounds of ${CALLS} calls per contender and payload, contenders interleaved (the order turning ` +
      `each round), after a warm-up; load average ${loads(loadBefore)} before and ${loads(loadAfter)} after (1, 5, 15 min) on ${cpus().length} cores.`,
    '',
    'The call of `bench/invoke` (the eight-field tool from a wire payload, valid or with three errors) with the',
    'OpenTelemetry SDK registered (`BasicTracerProvider`, `SimpleSpanProcessor`, `InMemorySpanExporter` emptied every',
    '100 spans, the `AsyncLocalStorage` context manager): `tracing: false`; tracing on; the `tracing: false` call inside',
    "one span made by hand with `startActiveSpan` (active, as toolwright's is, so the tool's own spans are its children),",
    "with the same name, kind, attributes, outcome, error type and status (checked against toolwright's span before",
    'timing); and that span not made active, for scale. "extra" is a row\'s median minus the `tracing: false` median;',
    "the ratio is toolwright's extra over the hand-made span's (medians of all rounds; in brackets, the lowest and",
    `highest over ${BLOCKS} consecutive blocks of rounds). CPU time is the process's (user + system, all threads),`,
    'so time spent waiting for a core on the shared machine is left out; wall time is shown too. No meter provider is',
    'registered in this part (metrics: below).',
    '',
    `- Tracing costs what one hand-made span costs (goal: ratio ≤ 1.25×, CPU time): **${met ? 'met' : 'not met'}**, ` +
      `${fmt(verdict[0])}× on the valid payload and ${fmt(verdict[1])}× on the invalid one.`,
    '',
    'Before toolwright built the span attributes and name once per tool and transport and asked for its tracer once per',
    'provider (at b8af626, in a run of this benchmark on 2026-12-01, load average about 9 on 2 cores), the ratio was 1.81× on',
    'the valid payload and 1.29× on the invalid one (CPU time; 35.8 µs and 16.4 µs extra against 19.9 µs and 12.7 µs).',
    '',
    markdownTable(header(contenders), [...rows(cpu, 'CPU', contenders), ...rows(wall, 'wall', contenders)]),
    '',
    `With a meter provider registered too (${METRIC_ROUNDS} more rounds, same method): toolwright also records its duration`,
    'histogram and call counter; the hand-made span row records the same two instruments by hand, with the same',
    `attributes, built per call as an application would. Ratio (CPU time): ${fmt(measuredVerdict[0])}× on the valid payload and`,
    `${fmt(measuredVerdict[1])}× on the invalid one.`,
    '',
    markdownTable(header(contenders.slice(0, 3)), [
      ...rows(measured.cpu, 'CPU', contenders.slice(0, 3)),
      ...rows(measured.wall, 'wall', contenders.slice(0, 3)),
    ]),
    '',
    `Raw medians per block of ${Math.floor(ROUNDS / BLOCKS)} rounds (µs per call, CPU time), spans only:`,
    '',
    ...raw(cpu, contenders),
    '',
    `With metrics, per block of ${Math.floor(METRIC_ROUNDS / BLOCKS)} rounds:`,
    '',
    ...raw(measured.cpu, contenders.slice(0, 3)),
    '',
  ].join('\n');
  writeReport('tracing', report);
}

void main();
