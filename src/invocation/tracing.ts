/**
 * OpenTelemetry, when the application has `@opentelemetry/api` (an optional peer): one span per
 * call after the GenAI semantic conventions for tool execution, and two metrics. Nothing here is
 * imported at load time and no OpenTelemetry type reaches the published declarations: without the
 * package a call pays one cached lookup, and with it but no tracer or meter provider registered, a
 * few property reads (a call then opens no span and records nothing: no provider would read them).
 * With a provider, a call costs what one span made by hand costs (bench/tracing): the span's
 * attributes and name and the metric attribute sets are built once per tool and transport, the
 * tracer and the instruments once per provider, and the call's context is made active once.
 */
import type { ToolDefinition } from '../registry/tool-definition';
import type { Result } from './result';
import { setOwn } from '../util/own-property';
import { VERSION } from '../util/package-info';
import { IN_PROCESS } from './transport';
import { loadedOtelApi, OtelApi, OtelInstrument, otelApi, OtelTracer, parentContext } from './otel-api';

/** A span attribute value, as OpenTelemetry accepts it. */
export type SpanAttributeValue = string | number | boolean | readonly string[] | readonly number[] | readonly boolean[];
/** Span attributes by name, as OpenTelemetry accepts them. */
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
  /**
   * The span's name when the transport's conventions name it otherwise than `execute_tool <name>`
   * (MCP: `prompts/get <prompt>`, `resources/read`).
   */
  readonly spanName?: string;
}

const NAME = 'toolwright';
const CALL_ID = 'gen_ai.tool.call.id';

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
/** The tracer of one tracer provider; undefined for the no-op one. */
interface Tracer {
  readonly provider: unknown;
  readonly tracer: OtelTracer | undefined;
}
/** The last meter provider seen, and its instruments. */
let metered: Metered | undefined;
/** The last tracer provider seen, and toolwright's tracer from it. */
let tracing: Tracer | undefined;
/** The API's own no-op tracer provider: the delegate of its proxy until a provider is registered. */
let noopTracerProvider: unknown;
/** The API's no-op meter class: what a meter provider hands out until one is registered. */
let noopMeterClass: Function | undefined;

/**
 * toolwright's tracer from the registered tracer provider, or undefined while none is registered.
 * Until one is, the API's global provider is a proxy whose delegate is the no-op provider, and a
 * span would be a non-recording one nobody reads. Asked per call (two property reads and one
 * comparison), so a provider registered later (or `trace.disable()`) takes effect at the next call;
 * the tracer is asked of a provider once. Should the API stop offering the proxy, every call is
 * traced, as before.
 */
function tracerOf(otel: OtelApi): OtelTracer | undefined {
  const global = otel.trace.getTracerProvider() as { getDelegate?: () => unknown } | undefined;
  const proxied = typeof global?.getDelegate === 'function';
  const provider = proxied ? global!.getDelegate!() : global;
  let current = tracing;
  if (current === undefined || current.provider !== provider) {
    noopTracerProvider ??= otel.ProxyTracerProvider ? new otel.ProxyTracerProvider().getDelegate() : null;
    const noop = proxied && provider === noopTracerProvider;
    current = tracing = { provider, tracer: noop ? undefined : otel.trace.getTracer(NAME, VERSION) };
  }
  return current.tracer;
}

/**
 * The metric instruments of the current global meter provider (made once per provider, re-made
 * when the application installs another), or undefined when that provider is the no-op one.
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

/** @internal What a call records now: the tracer and the instruments of the registered providers. */
export interface Telemetry {
  readonly tracer: OtelTracer | undefined;
  readonly instruments: Instruments | undefined;
}
let telemetry: Telemetry | undefined;

/**
 * @internal What a call would record now, or undefined for nothing: only when `@opentelemetry/api`
 * is there and a tracer or a meter provider is registered; otherwise a call does no telemetry work
 * at all. Read once per call, so a provider registered or removed takes effect at the next call.
 */
export function telemetryNow(): Telemetry | undefined {
  const otel = otelApi();
  if (otel === undefined) return undefined;
  const tracer = tracerOf(otel);
  const instruments = metricsOf(otel);
  if (tracer === undefined && instruments === undefined) return undefined;
  let current = telemetry;
  if (current === undefined || current.tracer !== tracer || current.instruments !== instruments)
    current = telemetry = { tracer, instruments };
  return current;
}

/** Transports of the adapters over the function-calling Toolbox, whose models call the tools by their OpenAI names. */
const TOOLBOX_TRANSPORTS: ReadonlySet<string> = new Set(['ai', 'langchain', 'agents']);

/** The adapter whose tool name a transport shows (the adapters over the Toolbox show the OpenAI names). */
function adapterOf(transport: string): string | undefined {
  return TOOLBOX_TRANSPORTS.has(transport) ? 'openai' : transport === IN_PROCESS ? undefined : transport;
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

/** What the telemetry of one tool over one transport keeps from call to call. */
interface ToolTelemetry {
  readonly name: string;
  readonly spanName: string;
  readonly server: boolean;
  /** The span's attributes, the call id a placeholder (a copy of this object keeps its shape). */
  readonly attributes: Readonly<Record<string, SpanAttributeValue>>;
  /** The metric attributes, by outcome and error type. */
  readonly measured: Map<string, Readonly<Record<string, SpanAttributeValue>>>;
}

/** Transports kept per tool, and metric attribute sets per tool and transport: past these, built per call. */
const MAX_TRANSPORTS = 32;
const MAX_MEASURED = 64;
const byTool = new WeakMap<ToolDefinition, Map<string, ToolTelemetry>>();

/** The per-tool part of a call's telemetry, built at the tool's first traced call over a transport. */
function toolTelemetry(tool: ToolDefinition, transport: string): ToolTelemetry {
  let byTransport = byTool.get(tool);
  const known = byTransport?.get(transport);
  if (known !== undefined) return known;
  const name = tool.toolName(adapterOf(transport));
  const attributes: Record<string, SpanAttributeValue> = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': name,
    [CALL_ID]: '',
    'gen_ai.tool.type': 'function',
    'toolwright.tool.id': tool.id,
    'toolwright.tool.version': tool.version,
    'toolwright.transport': transport,
    'toolwright.version': VERSION,
  };
  const description = tool.description;
  if (description !== undefined) attributes['gen_ai.tool.description'] = description;
  const made: ToolTelemetry = { name, spanName: `execute_tool ${name}`, server: transport === 'mcp', attributes, measured: new Map() };
  if (byTransport === undefined) byTool.set(tool, (byTransport = new Map()));
  if (byTransport.size < MAX_TRANSPORTS) byTransport.set(transport, made);
  return made;
}

/**
 * @internal Runs `run` inside the call's span (active, so the tool's own spans are its children),
 * then records the outcome on the span and the metrics: each only when its provider is registered
 * (`telemetry`, from `telemetryNow()` at the start of the call). `run` never rejects.
 */
export function traced(telemetry: Telemetry, call: TracedCall, run: () => Promise<Result>): Promise<Result> {
  const { tracer, instruments } = telemetry;
  const tool = toolTelemetry(call.tool, call.transport);
  if (tracer === undefined) return measuredOnly(tool, call, instruments!, run);
  const otel = loadedOtelApi()!;
  const attributes = { ...tool.attributes };
  attributes[CALL_ID] = call.id;
  const extra = call.trace?.attributes;
  if (extra) for (const key of Object.keys(extra)) setOwn(attributes, key, extra[key]);
  const parent = (call.trace?.parent && parentContext(otel, call.trace.parent)) || otel.context.active();
  const span = tracer.startSpan(call.trace?.spanName ?? tool.spanName, { kind: tool.server ? otel.SpanKind.SERVER : otel.SpanKind.INTERNAL, attributes }, parent);
  const key = (callSpanKey ??= otel.createContextKey('toolwright call span'));
  // One context for the call, made active once: the tool, the middleware and the seam below read it.
  const context = otel.trace.setSpan(parent, span).setValue(key, span);
  const started = instruments ? performance.now() : 0;
  return settle(otel.context.with(context, run), (result) => {
    const outcome = result?.outcome ?? 'exception';
    const type = outcome === 'success' ? undefined : result ? errorType(result) : '_OTHER';
    span.setAttribute('toolwright.outcome', outcome);
    if (type !== undefined) {
      span.setAttribute('error.type', type);
      // No description: a failure's text may be built from the input.
      span.setStatus({ code: otel.SpanStatusCode.ERROR });
    }
    span.end();
    if (instruments) record(instruments, tool, call.transport, started, outcome, type);
  });
}

/** A call measured without a span: a meter provider is registered, a tracer provider is not. */
function measuredOnly(tool: ToolTelemetry, call: TracedCall, instruments: Instruments, run: () => Promise<Result>): Promise<Result> {
  const started = performance.now();
  return settle(run(), (result) => {
    const outcome = result?.outcome ?? 'exception';
    record(instruments, tool, call.transport, started, outcome, outcome === 'success' ? undefined : result ? errorType(result) : '_OTHER');
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

/** Records one call on both instruments, with the tool's attribute set for this outcome (made once). */
function record(
  instruments: Instruments,
  tool: ToolTelemetry,
  transport: string,
  started: number,
  outcome: string,
  type: string | undefined,
): void {
  const key = type === undefined ? outcome : `${outcome}\u0000${type}`;
  let measured = tool.measured.get(key);
  if (measured === undefined) {
    const made: Record<string, SpanAttributeValue> = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': tool.name,
      'toolwright.tool.version': tool.attributes['toolwright.tool.version'],
      'toolwright.transport': transport,
      'toolwright.outcome': outcome,
    };
    if (type !== undefined) made['error.type'] = type;
    measured = Object.freeze(made);
    if (tool.measured.size < MAX_MEASURED) tool.measured.set(key, measured);
  }
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
    const otel = loadedOtelApi();
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
