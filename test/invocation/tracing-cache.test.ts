/**
 * What tracing keeps from call to call (the span attributes per tool and transport, the metric
 * attribute sets per outcome, the tracer and instruments per provider) never outlives what it was
 * made from: a provider replaced by another takes the next call's span and measurements, and a tool
 * called over more transports or failing with more error types than are kept still gets its own
 * attributes on every call. Real SDK providers, registered globally as an application would.
 */
import 'reflect-metadata';
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { configure, Description, Expects, Field, invoke, Tool, Tracing } from 'toolwright';

class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

class PingInput {
  @Field() kind!: string;
}

/** Throws an error of a class named after the input (a new class per kind), or answers. */
@Tool({ name: 'ping' })
@Description('Answers or throws')
@Expects(PingInput)
class Ping {
  call(input: PingInput) {
    Tracing.annotateSpan({ 'app.kind': input.kind });
    if (input.kind === 'ok') return 'pong';
    const Named = { [input.kind]: class extends Error {} }[input.kind];
    throw new Named('no');
  }
}

/** The data points of toolwright's call counter: attributes and value. */
async function counted(reader: MetricReader): Promise<Array<{ attributes: Record<string, unknown>; value: number }>> {
  const { resourceMetrics } = await reader.collect();
  const scope = resourceMetrics.scopeMetrics.find((candidate) => candidate.scope.name === 'toolwright');
  const calls = scope?.metrics.find((metric) => metric.descriptor.name === 'toolwright.tool.calls');
  return (calls?.dataPoints ?? []).map((point) => ({ attributes: point.attributes, value: point.value as number }));
}

function providers() {
  const exporter = new InMemorySpanExporter();
  const reader = new TestReader();
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  return { exporter, reader };
}

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  configure({ onException: () => undefined });
});
afterAll(() => {
  configure({ onException: undefined });
  trace.disable();
  metrics.disable();
  context.disable();
});

describe('what tracing keeps between calls', () => {
  it('a provider replaced by another: the next call’s span and measurements go to the new one only', async () => {
    const first = providers();
    await invoke(Ping, { kind: 'ok' });
    trace.disable();
    metrics.disable();
    const second = providers();
    await invoke(Ping, { kind: 'ok' });
    await invoke(Ping, { kind: 'ok' });
    expect(first.exporter.getFinishedSpans().map((span) => span.name)).toEqual(['execute_tool ping']);
    expect(second.exporter.getFinishedSpans().map((span) => span.name)).toEqual(['execute_tool ping', 'execute_tool ping']);
    expect((await counted(first.reader)).map((point) => point.value)).toEqual([1]);
    expect((await counted(second.reader)).map((point) => point.value)).toEqual([2]);
    trace.disable();
    metrics.disable();
  });

  it('past the transports kept per tool, each call still carries its own transport and call id', async () => {
    const { exporter, reader } = providers();
    const transports = Array.from({ length: 40 }, (_, index) => `transport-${index}`);
    for (const transport of [...transports, ...transports]) await invoke(Ping, { kind: 'ok' }, { transport, callId: `${transport}-call` });
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(80);
    expect(spans.map((span) => [span.attributes['toolwright.transport'], span.attributes['gen_ai.tool.call.id']])).toEqual(
      [...transports, ...transports].map((transport) => [transport, `${transport}-call`]),
    );
    for (const span of spans) {
      expect(span.attributes).toMatchObject({
        'gen_ai.tool.name': 'ping',
        'gen_ai.tool.description': 'Answers or throws',
        'toolwright.tool.id': 'Ping',
        'app.kind': 'ok',
        'toolwright.outcome': 'success',
      });
    }
    const points = await counted(reader);
    expect(points.map((point) => [point.attributes['toolwright.transport'], point.value]).sort()).toEqual(
      transports.map((transport) => [transport, 2]).sort(),
    );
    trace.disable();
    metrics.disable();
  });

  it('past the metric attribute sets kept per tool, each error type is counted apart', async () => {
    const { exporter, reader } = providers();
    const kinds = Array.from({ length: 70 }, (_, index) => `Kind${index}Error`);
    for (const kind of [...kinds, ...kinds]) await invoke(Ping, { kind });
    expect(exporter.getFinishedSpans().map((span) => span.attributes['error.type'])).toEqual([...kinds, ...kinds]);
    const points = await counted(reader);
    expect(points.map((point) => [point.attributes['error.type'], point.attributes['toolwright.outcome'], point.value]).sort()).toEqual(
      kinds.map((kind) => [kind, 'exception', 2]).sort(),
    );
    trace.disable();
    metrics.disable();
  });

});
