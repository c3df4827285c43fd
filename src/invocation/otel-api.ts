/**
 * The part of `@opentelemetry/api` toolwright uses, typed structurally (this file's own, so no
 * OpenTelemetry type reaches the published declarations), the lazy loader of the package (an
 * optional peer), and the reading of a caller's trace context from an untrusted carrier.
 */

/** An attribute set as OpenTelemetry takes it (toolwright's own types narrow the values). */
type Attributes = Readonly<Record<string, unknown>>;

export interface OtelContext {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): OtelContext;
}
export interface OtelSpan {
  setAttribute(key: string, value: unknown): unknown;
  setAttributes(attributes: Attributes): unknown;
  addEvent(name: string, attributes?: Attributes): unknown;
  isRecording(): boolean;
  spanContext(): { traceId: string; spanId: string; traceFlags: number };
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
export interface OtelTracer {
  startSpan(name: string, options: { kind: number; attributes: Attributes }, context: OtelContext): OtelSpan;
}
export interface OtelInstrument {
  record?(value: number, attributes?: Attributes): void;
  add?(value: number, attributes?: Attributes): void;
}
export interface OtelMeter {
  createHistogram(name: string, options: { description: string; unit: string; advice?: unknown }): OtelInstrument;
  createCounter(name: string, options: { description: string; unit?: string }): OtelInstrument;
}
export interface OtelApi {
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
    getTracer(name: string, version?: string): OtelTracer;
    setSpan(context: OtelContext, span: OtelSpan): OtelContext;
    setSpanContext(context: OtelContext, spanContext: OtelSpanContext): OtelContext;
    getSpanContext(context: OtelContext): OtelSpanContext | undefined;
  };
  metrics: { getMeterProvider(): unknown; getMeter(name: string, version?: string): OtelMeter };
}

let api: OtelApi | null | undefined;

/** @opentelemetry/api when the application has it; looked for once. */
export function otelApi(): OtelApi | undefined {
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

/** @opentelemetry/api if it was loaded already (no attempt to load it). */
export function loadedOtelApi(): OtelApi | undefined {
  return api ?? undefined;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-[0-9a-f-]*)?$/;
const MAX_TRACESTATE = 512;

/** The caller's trace context from an untrusted carrier: only well-formed W3C strings are read. */
export function parentContext(otel: OtelApi, carrier: Readonly<Record<string, unknown>>): OtelContext | undefined {
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
