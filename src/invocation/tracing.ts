/**
 * OpenTelemetry, when the application has `@opentelemetry/api` (an optional peer): one span per
 * call after the GenAI semantic conventions for tool execution, and two metrics. Nothing here is
 * imported at load time and no OpenTelemetry type reaches the published declarations: without the
 * package a call pays one cached lookup, and with it but no tracer or meter provider registered, two
 * more (a call then opens no span and records nothing: no provider would read them).
 */
import type { ToolDefinition } from '../registry/tool-definition';
import type { Result } from './result';
import { setOwn } from '../util/own-property';
import { VERSION } from '../util/package-info';
import { IN_PROCESS } from './transport';

/** A span attribute value, as OpenTelemetry accepts it. */
export type SpanAttributeValue = string | number | boolean | readonly string[] | readonly number[] | readonly boolean[];
export type SpanAttributes = Readonly<Record<string, SpanAttributeValue>>;

/** The part of an OpenTelemetry `Span` toolwright hands out (the real span, typed structurally). */
export interface TracingSpan {
  setAttribute(key: string, value: SpanAttributeValue): unknown;
  setAttributes(attributes: SpanAttributes): unknown;
  addEvent(name: string, attributes?: SpanAttributes): unknown;
  isRecording(): boolean;
  spanContext(): { traceId: string; spanId: string; traceFlags: number };
}

/** How a transport places a call in a trace: the caller's trace context, and attributes of its own. */
export interface CallTrace {
  /**
   * A carrier of the caller's W3C trace context (`traceparent`, `tracestate`), such as an MCP
   * request's `_meta`: the call's span continues that trace instead of the current one.
   */
  readonly parent?: Readonly<Record<string, unknown>>;
  /** Attributes for the call's span (`mcp.method.name`, `mcp.session.id`, …). */
  readonly attributes?: SpanAttributes;
}

/* Minimal structural views of @opentelemetry/api: this file's own, so consumers never need it. */
interface OtelContext {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): OtelContext;
}
interface OtelSpan extends TracingSpan {
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}
interface OtelSpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote?: boolean;
  traceState?: unknown;
}
interface OtelInstrument {
  record?(value: number, attributes?: SpanAttributes): void;
  add?(value: number, attributes?: SpanAttributes): void;
}
interface OtelMeter {
  createHistogram(name: string, options: { description: string; unit: string; advice?: unknown }): OtelInstrument;
  createCounter(name: string, options: { description: string; unit?: string }): OtelInstrument;
}
interface OtelApi {
  ROOT_CONTEXT: OtelContext;
  /** Deprecated in 1.x (to be removed in 2.0): only used to find the no-op delegate, when present. */
  ProxyTracerProvider?: new () => { getDelegate(): unknown };
  createNoopMeter?(): object;
  SpanKind: { INTERNAL: number; SERVER: number };
  SpanStatusCode: { ERROR: number };
  createContextKey(description: string): symbol;
  createTraceState?(raw: string): unknown;
  isSpanContextValid(context: OtelSpanContext): boolean;
  context: { active(): OtelContext; with<T>(context: OtelContext, fn: () => T): T };
  propagation: { extract(context: OtelContext, carrier: Record<string, string>): OtelContext };
  trace: {
    getTracerProvider(): unknown;
    getTracer(
      name: string,
      version?: string,
    ): {
      startSpan(name: string, options: { kind: number; attributes: Record<string, SpanAttributeValue> }, context: OtelContext): OtelSpan;
    };
    setSpan(context: OtelContext, span: OtelSpan): OtelContext;
    setSpanContext(context: OtelContext, spanContext: OtelSpanContext): OtelContext;
    getSpanContext(context: OtelContext): OtelSpanContext | undefined;
  };
  metrics: { getMeterProvider(): unknown; getMeter(name: string, version?: string): OtelMeter };
}

const NAME = 'toolwright';
// eslint-disable-next-line @typescript-eslint/no-require-imports

let api: OtelApi | null | undefined;

/** @opentelemetry/api when the application has it; looked for once. */
function otel(): OtelApi | undefined {
  if (api === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      api = require('@opentelemetry/api') as OtelApi;
    } catch {
      api = null;
    }
  }
  return api ?? undefined;
}

let callSpanKey: symbol | undefined;

interface Instruments {
  readonly duration: OtelInstrument;
  readonly calls: OtelInstrument;
}
/** The instruments of one meter provider; undefined for the no-op one. */
interface Metered {
  readonly provider: unknown;
  readonly instruments: Instruments | undefined;
}
/** The last meter provider seen, and its instruments. */
let metered: Metered | undefined;
/** The API's own no-op tracer provider: the delegate of its proxy until a provider is registered. */
let noopTracerProvider: unknown;
/** The API's no-op meter class: what a meter provider hands out until one is registered. */
let noopMeterClass: Function | undefined;

/**
 * Is a tracer provider registered? Until one is, the API's global provider is a proxy whose
 * delegate is the no-op provider, and a span would be a non-recording one nobody reads. Asked per
 * call (two property reads), so a provider registered later (or `trace.disable()`) takes effect at
 * the next call. Should the API stop offering the proxy, every call is traced, as before.
 */
function tracerRegistered(otel: OtelApi): boolean {
  const provider = otel.trace.getTracerProvider() as { getDelegate?: () => unknown } | undefined;
  if (typeof provider?.getDelegate !== 'function') return true;
  noopTracerProvider ??= otel.ProxyTracerProvider ? new otel.ProxyTracerProvider().getDelegate() : null;
  return provider.getDelegate() !== noopTracerProvider;
}

/**
 * The metric instruments of the current global meter provider (re-made when the application
 * installs another), or undefined when that provider is the no-op one.
 */
function metricsOf(otel: OtelApi): Instruments | undefined {
  const provider = otel.metrics.getMeterProvider();
  let current: Metered | undefined = metered;
  if (current === undefined || current.provider !== provider) {
    const meter = otel.metrics.getMeter(NAME, VERSION);
    noopMeterClass ??= otel.createNoopMeter?.().constructor;
    const noop = noopMeterClass !== undefined && meter instanceof noopMeterClass;
    current = metered = {
      provider,
      instruments: noop
        ? undefined
        : {
            duration: meter.createHistogram('toolwright.tool.call.duration', {
              description: 'Duration of tool calls, from arguments to Result.',
              unit: 's',
              advice: { explicitBucketBoundaries: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] },
            }),
            calls: meter.createCounter('toolwright.tool.calls', { description: 'Tool calls, by outcome.', unit: '{call}' }),
          },
    };
  }
  return current.instruments;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-[0-9a-f-]*)?$/;
const MAX_TRACESTATE = 512;

/** The caller's trace context from an untrusted carrier: only well-formed W3C strings are read. */
function parentContext(otel: OtelApi, carrier: Readonly<Record<string, unknown>>): OtelContext | undefined {
  let traceparent: unknown;
  let tracestate: unknown;
  try {
    traceparent = Object.prototype.hasOwnProperty.call(carrier, 'traceparent') ? carrier.traceparent : undefined;
    tracestate = Object.prototype.hasOwnProperty.call(carrier, 'tracestate') ? carrier.tracestate : undefined;
  } catch {
    return undefined; // a hostile carrier is no trace context
  }
  if (typeof traceparent !== 'string' || traceparent.length > 128) return undefined;
  const clean: Record<string, string> = { traceparent };
  if (typeof tracestate === 'string' && tracestate.length <= MAX_TRACESTATE) clean.tracestate = tracestate;
  // The application's propagator first (it may read more than W3C); W3C by hand when it read nothing.
  const extracted = otel.propagation.extract(otel.ROOT_CONTEXT, clean);
  if (otel.trace.getSpanContext(extracted)) return extracted;
  const match = TRACEPARENT.exec(traceparent);
  if (!match || match[1] === 'ff') return undefined;
  const spanContext: OtelSpanContext = {
    traceId: match[2],
    spanId: match[3],
    traceFlags: parseInt(match[4], 16) & 1,
    isRemote: true,
    ...(clean.tracestate && otel.createTraceState ? { traceState: otel.createTraceState(clean.tracestate) } : {}),
  };
  return otel.isSpanContextValid(spanContext) ? otel.trace.setSpanContext(otel.ROOT_CONTEXT, spanContext) : undefined;
}

/** The adapter whose tool name a transport shows (the AI SDK adapter shows the OpenAI names). */
function adapterOf(transport: string): string | undefined {
  return transport === 'ai' ? 'openai' : transport === IN_PROCESS ? undefined : transport;
}

/** `error.type` of a Result that is not a success: the class of the error behind it. */
function errorType(result: Result): string {
  try {
    const error = result.exception as { constructor?: { name?: unknown } } | null;
    const name = typeof error === 'object' && error !== null ? error.constructor?.name : undefined;
    return typeof name === 'string' && name !== '' && name !== 'Object' ? name : '_OTHER';
  } catch {
    return '_OTHER';
  }
}

/** What one traced call knows. */
export interface TracedCall {
  readonly tool: ToolDefinition;
  readonly transport: string;
  readonly id: string;
  readonly trace?: CallTrace;
}

/**
 * @internal Would a call record anything now? Only when `@opentelemetry/api` is there and a
 * tracer or a meter provider is registered: otherwise a call does no telemetry work at all.
 */
export function tracingAvailable(): boolean {
  const otel = otelApi();
  return otel !== undefined && (tracerRegistered(otel) || metricsOf(otel) !== undefined);
}

function otelApi(): OtelApi | undefined {
  return api === undefined ? otel() : (api ?? undefined);
}

/**
 * @internal Runs `run` inside the call's span (active, so the tool's own spans are its children),
 * then records the outcome on the span and the metrics: each only when its provider is registered.
 * `run` never rejects.
 */
export function traced(call: TracedCall, run: () => Promise<Result>): Promise<Result> {
  const otel = api!;
  const instruments = metricsOf(otel);
  if (!tracerRegistered(otel)) return instruments ? measuredOnly(call, instruments, run) : run();
  const { tool, transport, id } = call;
  const name = tool.toolName(adapterOf(transport));
  const attributes: Record<string, SpanAttributeValue> = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': name,
    'gen_ai.tool.call.id': id,
    'gen_ai.tool.type': 'function',
    'toolwright.tool.id': tool.id,
    'toolwright.tool.version': tool.version,
    'toolwright.transport': transport,
    'toolwright.version': VERSION,
  };
  const description = tool.description;
  if (description !== undefined) attributes['gen_ai.tool.description'] = description;
  const extra = call.trace?.attributes;
  if (extra) for (const key of Object.keys(extra)) setOwn(attributes, key, extra[key]);
  const parent = (call.trace?.parent && parentContext(otel, call.trace.parent)) || otel.context.active();
  const span = otel.trace
    .getTracer(NAME, VERSION)
    .startSpan(`execute_tool ${name}`, { kind: transport === 'mcp' ? otel.SpanKind.SERVER : otel.SpanKind.INTERNAL, attributes }, parent);
  const key = (callSpanKey ??= otel.createContextKey('toolwright call span'));
  const context = otel.trace.setSpan(parent, span).setValue(key, span);
  const started = performance.now();
  const finish = (result: Result | undefined): void => {
    const { outcome, type } = outcomeOf(result);
    span.setAttribute('toolwright.outcome', outcome);
    if (type !== undefined) {
      span.setAttribute('error.type', type);
      // No description: a failure's text may be built from the input.
      span.setStatus({ code: otel.SpanStatusCode.ERROR });
    }
    span.end();
    if (instruments) record(instruments, call, name, started, outcome, type);
  };
  return settle(otel.context.with(context, run), finish);
}

/** A call measured without a span: a meter provider is registered, a tracer provider is not. */
function measuredOnly(call: TracedCall, instruments: Instruments, run: () => Promise<Result>): Promise<Result> {
  const started = performance.now();
  const name = call.tool.toolName(adapterOf(call.transport));
  return settle(run(), (result) => {
    const { outcome, type } = outcomeOf(result);
    record(instruments, call, name, started, outcome, type);
  });
}

/** Calls `finish` with the Result (or undefined when `run` rejected), keeping the outcome. */
function settle(running: Promise<Result>, finish: (result: Result | undefined) => void): Promise<Result> {
  return running.then(
    (result) => {
      finish(result);
      return result;
    },
    (error: unknown) => {
      finish(undefined);
      throw error;
    },
  );
}

function outcomeOf(result: Result | undefined): { outcome: string; type: string | undefined } {
  const outcome = result?.outcome ?? 'exception';
  return { outcome, type: outcome === 'success' ? undefined : result ? errorType(result) : '_OTHER' };
}

function record(
  instruments: Instruments,
  { tool, transport }: TracedCall,
  name: string,
  started: number,
  outcome: string,
  type: string | undefined,
): void {
  const measured: Record<string, SpanAttributeValue> = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': name,
    'toolwright.tool.version': tool.version,
    'toolwright.transport': transport,
    'toolwright.outcome': outcome,
  };
  if (type !== undefined) measured['error.type'] = type;
  instruments.duration.record!((performance.now() - started) / 1000, measured);
  instruments.calls.add!(1, measured);
}

/**
 * The seam for adapter and tool authors: the span toolwright opened for the call running now
 * (not whatever span happens to be current), to add attributes only the caller knows.
 */
export const Tracing = {
  /** The span of the tool call running now, or undefined (outside a call, or without `@opentelemetry/api`). */
  currentSpan(): TracingSpan | undefined {
    const otel = api;
    if (!otel || callSpanKey === undefined) return undefined;
    return otel.context.active().getValue(callSpanKey) as TracingSpan | undefined;
  },

  /**
   * Adds attributes to the span of the tool call running now; false when there is none. Never put
   * a `sensitive` value here: toolwright keeps input out of spans, and so should you.
   */
  annotateSpan(attributes: SpanAttributes): boolean {
    const span = Tracing.currentSpan();
    if (!span) return false;
    span.setAttributes(attributes);
    return true;
  },
};
