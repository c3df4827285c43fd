/**
 * OpenTelemetry through the SDK's in-memory span exporter and a metric reader: span names and
 * attributes per the GenAI conventions, parent-child links (within a call, and across an MCP call
 * whose client sends `traceparent` in `_meta`), metrics, and nothing sensitive anywhere.
 */
import 'reflect-metadata';
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  AmbientContext,
  audit,
  AuditRecord,
  configure,
  Description,
  Expects,
  fail,
  Field,
  invoke,
  Invoker,
  Middleware,
  Tool,
  ToolContext,
  ToolVersion,
  Tracing,
} from 'toolwright';
import { createMcpServer, serveHttp } from 'toolwright/mcp';
import { RunContext } from '@openai/agents';
import { toAgentsTools } from 'toolwright/agents';
import { toLangChainTools } from 'toolwright/langchain';
import { Toolbox } from 'toolwright/toolbox';
import { Client as ModernClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

const exporter = new InMemorySpanExporter();
const reader = new TestReader();
const SECRET = 'correct-horse-battery-staple';

class LoginInput {
  @Field() user!: string;
  @Field({ sensitive: true }) password!: string;
  @AmbientContext({ key: 'apiKey' }) @Field({ sensitive: true }) apiKey!: string;
}

@Tool({ name: 'login', error: 'Could not log in' })
@ToolVersion(2)
@Description('Logs a user in')
@Expects(LoginInput)
class LoginV2 {
  call(input: LoginInput) {
    Tracing.annotateSpan({ 'app.user': input.user });
    trace.getTracer('app').startActiveSpan('check password', (span) => span.end());
    if (input.password !== SECRET) fail(`wrong password ${input.password}`);
    return undefined;
  }
}

@Tool({ name: 'crash' })
class Crash {
  call() {
    throw new RangeError(`bad ${SECRET}`);
  }
}

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  configure({ onException: () => undefined });
});
afterAll(() => configure({ onException: undefined }));
beforeEach(() => exporter.reset());

const spans = () => exporter.getFinishedSpans();
const callSpan = (name: string) => spans().find((span) => span.name === name)!;
const ambient = { ambientContext: { apiKey: SECRET } };

describe('tracing', () => {
  it('one execute_tool span per call with the GenAI attributes and toolwright’s own', async () => {
    await invoke(LoginV2, { user: 'ada', password: SECRET }, { ...ambient, callId: 'call-1' });
    const span = callSpan('execute_tool login');
    expect(span.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'login',
      'gen_ai.tool.call.id': 'call-1',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Logs a user in',
      'toolwright.tool.id': 'LoginV2',
      'toolwright.tool.version': 2,
      'toolwright.transport': 'inprocess',
      'toolwright.version': expect.any(String),
      'toolwright.outcome': 'success',
      'app.user': 'ada', // Tracing.annotateSpan from inside the tool
    });
    expect(span.status.code).toBe(0);
    const child = callSpan('check password');
    expect(child.parentSpanContext?.spanId).toBe(span.spanContext().spanId); // the tool's own spans are children
  });

  it('failures and exceptions set error.type and an error status, never their text', async () => {
    await invoke(LoginV2, { user: 'ada', password: 'nope-guess' }, ambient);
    await invoke(Crash);
    await invoke(LoginV2, { user: 'ada' }, ambient);
    const [failed, crashed, invalid] = spans().filter((span) => span.name.startsWith('execute_tool'));
    expect(failed.attributes).toMatchObject({ 'toolwright.outcome': 'failure', 'error.type': 'ToolFailure' });
    expect(crashed.attributes).toMatchObject({ 'toolwright.outcome': 'exception', 'error.type': 'RangeError' });
    expect(invalid.attributes).toMatchObject({ 'toolwright.outcome': 'failure', 'error.type': 'InputValidationError' });
    expect([failed, crashed, invalid].map((span) => [span.status.code, span.status.message])).toEqual([
      [2, undefined],
      [2, undefined],
      [2, undefined],
    ]);
    expect(JSON.stringify(spans().map(everything))).not.toMatch(/nope-guess|correct-horse/);
  });

  it('records a duration histogram and an outcome counter per tool and version', async () => {
    await invoke(LoginV2, { user: 'ada', password: SECRET }, ambient);
    await invoke(LoginV2, { user: 'ada', password: 'wrong' }, ambient);
    const { resourceMetrics } = await reader.collect();
    const found = resourceMetrics.scopeMetrics.find((scope) => scope.scope.name === 'toolwright')!.metrics;
    const calls = found.find((metric) => metric.descriptor.name === 'toolwright.tool.calls')!;
    const duration = found.find((metric) => metric.descriptor.name === 'toolwright.tool.call.duration')!;
    expect(duration.descriptor.unit).toBe('s');
    const login = (point: { attributes: Record<string, unknown> }) => point.attributes['gen_ai.tool.name'] === 'login';
    expect(calls.dataPoints.filter(login).map((point) => [point.attributes['toolwright.outcome'], point.attributes['toolwright.tool.version'], point.value])).toEqual(
      expect.arrayContaining([
        ['success', 2, expect.any(Number)],
        ['failure', 2, expect.any(Number)],
      ]),
    );
    expect(duration.dataPoints.filter(login).length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(resourceMetrics)).not.toMatch(/correct-horse|wrong/);
  });

  it('continues the trace an MCP client sends in _meta.traceparent, with the MCP attributes', async () => {
    const server = createMcpServer({ name: 'auth', version: '1.0.0', tools: [LoginV2], ambientContext: () => ({ apiKey: SECRET }) });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientTransport);
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    await client.callTool({ name: 'login', arguments: { user: 'ada', password: SECRET }, _meta: { traceparent: `00-${traceId}-${parentId}-01` } });
    await client.callTool({ name: 'login', arguments: { user: 'ada', password: SECRET }, _meta: { traceparent: 'garbage', tracestate: 'x'.repeat(10_000) } });
    await client.close();

    const [continued, fresh] = spans().filter((span) => span.name === 'execute_tool login');
    expect(continued.spanContext().traceId).toBe(traceId);
    expect(continued.parentSpanContext?.spanId).toBe(parentId);
    expect(continued.kind).toBe(1); // SERVER
    expect(continued.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'jsonrpc.request.id': expect.any(String),
      'gen_ai.tool.call.id': continued.attributes['jsonrpc.request.id'],
      'toolwright.transport': 'mcp',
      'toolwright.outcome': 'success',
      'mcp.protocol.version': '2025-11-25',
    });
    expect(fresh.spanContext().traceId).not.toBe(traceId); // a malformed traceparent starts a new trace
    expect(fresh.parentSpanContext).toBeUndefined();
    expect(JSON.stringify(spans().map(everything))).not.toContain(SECRET);
  });

  it('a 2026-07-28 call (no session) continues the trace too, and names its protocol version', async () => {
    const http = await serveHttp({ name: 'auth', version: '1.0.0', tools: [LoginV2], ambientContext: () => ({ apiKey: SECRET }) }, { port: 0 });
    const client = new ModernClient({ name: 'test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      const traceId = '5bf92f3577b34da6a3ce929d0e0e4737';
      const parentId = '10f067aa0ba902b8';
      await client.callTool({ name: 'login', arguments: { user: 'ada', password: SECRET }, _meta: { traceparent: `00-${traceId}-${parentId}-01` } });
    } finally {
      await client.close();
      await http.close();
    }
    const [span] = spans().filter((each) => each.name === 'execute_tool login');
    expect(span.spanContext().traceId).toBe('5bf92f3577b34da6a3ce929d0e0e4737');
    expect(span.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'mcp.protocol.version': '2026-07-28', 'toolwright.outcome': 'success' });
    expect(span.attributes['mcp.session.id']).toBeUndefined();
    expect(JSON.stringify(spans().map(everything))).not.toContain(SECRET);
  });

  it('Tracing.currentSpan() is undefined outside a call; tracing: false opens no span', async () => {
    expect(Tracing.currentSpan()).toBeUndefined();
    expect(Tracing.annotateSpan({ a: 1 })).toBe(false);
    await new Invoker({ tracing: false }).invoke(Crash);
    expect(spans()).toHaveLength(0);
  });
});

describe('one name for the transport', () => {
  @Tool({ name: 'which_transport' })
  @Expects({})
  class WhichTransport {
    call(_input: unknown, context: ToolContext) {
      return { transport: context.call.transport };
    }
  }

  /** What the middleware, the audit record, the tool and the span each said the transport was. */
  function sayings(middlewareSaw: string[], records: AuditRecord[], toolSaw: unknown[]) {
    const span = spans().filter((candidate) => candidate.name === 'execute_tool which_transport');
    return {
      middleware: middlewareSaw,
      audit: records.map((record) => record.transport),
      tool: toolSaw,
      span: span.map((candidate) => candidate.attributes['toolwright.transport']),
    };
  }

  function recorders() {
    const middlewareSaw: string[] = [];
    const records: AuditRecord[] = [];
    const seen: Middleware = (call, next) => (middlewareSaw.push(call.transport), next());
    return { middlewareSaw, records, middleware: [seen, audit((record) => void records.push(record))] };
  }

  it('invoke(): middleware, audit, context.call.transport and the span all say inprocess', async () => {
    const { middlewareSaw, records, middleware } = recorders();
    const invoker = new Invoker({ middleware });
    const toolSaw = [
      ((await invoker.invoke(WhichTransport)).value as { transport: string }).transport,
      // With a context of handlers but no transport named: still the one name.
      ((await invoker.invoke(WhichTransport, {}, { context: { log: () => undefined } })).value as { transport: string }).transport,
    ];
    expect(sayings(middlewareSaw, records, toolSaw)).toEqual({
      middleware: ['inprocess', 'inprocess'],
      audit: ['inprocess', 'inprocess'],
      tool: ['inprocess', 'inprocess'],
      span: ['inprocess', 'inprocess'],
    });
  });

  it('a transport named in the call options, or only in the context, is the one name everywhere', async () => {
    const { middlewareSaw, records, middleware } = recorders();
    const invoker = new Invoker({ middleware });
    const toolSaw = [
      ((await invoker.invoke(WhichTransport, {}, { transport: 'queue' })).value as { transport: string }).transport,
      ((await invoker.invoke(WhichTransport, {}, { context: { transport: 'grpc' } })).value as { transport: string }).transport,
    ];
    expect(sayings(middlewareSaw, records, toolSaw)).toEqual({
      middleware: ['queue', 'grpc'],
      audit: ['queue', 'grpc'],
      tool: ['queue', 'grpc'],
      span: ['queue', 'grpc'],
    });
  });

  it('MCP: the SDK Client’s call is mcp to the middleware, the audit, the tool and the span', async () => {
    const { middlewareSaw, records, middleware } = recorders();
    const server = createMcpServer({ name: 'which', version: '1.0.0', tools: [WhichTransport], invoker: { middleware } });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientTransport);
    const answer = await client.callTool({ name: 'which_transport', arguments: {} });
    await client.close();
    const toolSaw = [(JSON.parse((answer.content as Array<{ text: string }>)[0].text) as { transport: string }).transport];
    expect(sayings(middlewareSaw, records, toolSaw)).toEqual({ middleware: ['mcp'], audit: ['mcp'], tool: ['mcp'], span: ['mcp'] });
  });
});

describe('the adapters over the Toolbox (LangChain.js, the OpenAI Agents SDK)', () => {
  @Tool({ name: 'plain_name', adapters: { openai: { name: 'fc_name' } } })
  @Expects({})
  class NamedForModels {
    call(_input: unknown, context: ToolContext) {
      return { transport: context.call.transport };
    }
  }

  it("name the span's tool as the model called it (its OpenAI name), under the adapter's own transport", async () => {
    const [lc] = toLangChainTools(new Toolbox([NamedForModels]));
    await lc.invoke({ type: 'tool_call', id: 't1', name: 'fc_name', args: {} });
    const [agent] = toAgentsTools(new Toolbox([NamedForModels]));
    await agent.invoke(new RunContext(), '{}', { toolCall: { type: 'function_call', callId: 't2', name: 'fc_name', arguments: '{}' } });
    const named = spans().map((span) => [span.attributes['gen_ai.tool.name'], span.attributes['toolwright.transport'], span.attributes['gen_ai.tool.call.id']]);
    expect(named).toEqual([
      ['fc_name', 'langchain', 't1'],
      ['fc_name', 'agents', 't2'],
    ]);
  });
});

/** Everything a span carries, for "nothing sensitive anywhere" checks. */
function everything(span: ReadableSpan) {
  return { name: span.name, attributes: span.attributes, events: span.events, status: span.status, links: span.links };
}
