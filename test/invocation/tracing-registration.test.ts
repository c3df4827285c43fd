/**
 * With `@opentelemetry/api` installed but no tracer provider registered, a call opens no span (the
 * no-op span work was most of a trivial call's cost); metrics are recorded when only a meter
 * provider is registered; a provider registered later, or removed, takes effect at the next call.
 * Real SDK providers, registered globally as an application would. The steps share global state,
 * so they run in order within one file.
 */
import 'reflect-metadata';
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Expects, Field, invoke, Tool, Tracing } from 'toolwright';

class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

class EchoInput {
  @Field() text!: string;
}

/** What the tool saw of the tracing seam during its call. */
const seen: Array<{ span: boolean; recording: boolean; annotated: boolean }> = [];

@Tool({ name: 'echo' })
@Expects(EchoInput)
class Echo {
  call(input: EchoInput) {
    const span = Tracing.currentSpan();
    seen.push({ span: span !== undefined, recording: span?.isRecording() ?? false, annotated: Tracing.annotateSpan({ 'app.echo': input.text }) });
    return input.text;
  }
}

const exporter = new InMemorySpanExporter();
const reader = new TestReader();

async function countedCalls(): Promise<number> {
  const { resourceMetrics } = await reader.collect();
  const scope = resourceMetrics.scopeMetrics.find((s) => s.scope.name === 'toolwright');
  const calls = scope?.metrics.find((metric) => metric.descriptor.name === 'toolwright.tool.calls');
  return (calls?.dataPoints ?? []).reduce((sum, point) => sum + (point.value as number), 0);
}

beforeAll(() => {
  // A context manager is there (as in any traced application), so an opened span would be visible.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(() => {
  trace.disable();
  metrics.disable();
  context.disable();
});
beforeEach(() => {
  seen.length = 0;
  exporter.reset();
});

describe('OpenTelemetry providers registered, absent, late and removed', () => {
  it('no provider registered: the call opens no span at all (not even a non-recording one)', async () => {
    expect(await invoke(Echo, { text: 'a' })).toMatchObject({ ok: true, value: 'a' });
    expect(seen).toEqual([{ span: false, recording: false, annotated: false }]);
  });

  it('only a meter provider: the call is measured, still without a span', async () => {
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    await invoke(Echo, { text: 'b' });
    await invoke(Echo, { text: 'c' });
    expect(seen).toEqual([
      { span: false, recording: false, annotated: false },
      { span: false, recording: false, annotated: false },
    ]);
    expect(await countedCalls()).toBe(2);
  });

  it('a tracer provider registered later: the next call has its span, annotated by the tool', async () => {
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    await invoke(Echo, { text: 'd' });
    expect(seen).toEqual([{ span: true, recording: true, annotated: true }]);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual(['execute_tool echo']);
    expect(spans[0].attributes).toMatchObject({ 'app.echo': 'd', 'toolwright.outcome': 'success' });
    expect(await countedCalls()).toBe(3);
  });

  it('the tracer provider removed (trace.disable()): calls stop opening spans, metrics go on', async () => {
    trace.disable();
    await invoke(Echo, { text: 'e' });
    expect(seen).toEqual([{ span: false, recording: false, annotated: false }]);
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(await countedCalls()).toBe(4);
  });

  it('the meter provider removed too: nothing is recorded, and calls keep succeeding', async () => {
    metrics.disable();
    expect(await invoke(Echo, { text: 'f' })).toMatchObject({ ok: true, value: 'f' });
    expect(await countedCalls()).toBe(4);
    expect(seen).toEqual([{ span: false, recording: false, annotated: false }]);
  });
});
