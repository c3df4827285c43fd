/**
 * Issue 23, finding 7: a remote MCP tool mounted in a Toolbox runs through the same pipeline as a
 * local one (approvals from its annotations, middleware, rate limits, audit), against a real MCP
 * server started as a child process. Its ledger tool shows what the server actually ran.
 */
import * as path from 'node:path';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { audit, AuditRecord, Invoker, Middleware, rateLimit, ToolCall } from 'toolwright';
import { toAiSdkTools } from 'toolwright/ai';
import { McpSecurityPolicy } from 'toolwright/mcp-client';
import { Toolbox } from 'toolwright/openai';

const fixture = path.resolve(__dirname, '..', '..', 'fixtures', 'mcp', 'fixture-server.cjs');
const security = new McpSecurityPolicy({ allowCommands: true, commandAllowlist: ['node'] });

interface Seen {
  readonly tool: string;
  readonly id: string;
  readonly transport: string;
  readonly input: unknown;
  readonly hints: readonly string[];
}

/** A toolbox over a fresh fixture server, with an audit and a middleware that record what they see (but the ledger's reads). */
async function mounted(options: { destructiveApproval?: boolean; middleware?: Middleware[] } = {}) {
  const records: AuditRecord[] = [];
  const seen: Seen[] = [];
  const watch: Middleware = (call: ToolCall, next) => {
    if (call.tool.toolName() !== 'mcp__fx__ledger') {
      seen.push({ tool: call.tool.toolName(), id: call.id, transport: call.transport, input: call.input, hints: call.tool.hints });
    }
    return next();
  };
  const invoker = new Invoker({
    requireApprovalForDestructive: options.destructiveApproval ?? true,
    middleware: [audit((record) => void (record.tool !== 'mcp__fx__ledger' && records.push(record))), watch, ...(options.middleware ?? [])],
  });
  const toolbox = new Toolbox([], { invoker });
  await toolbox.addMcpServer('fx', { command: 'node', args: [fixture] }, { security });
  // The server's own record of what it ran, read through a tool no middleware refuses.
  const ledger = async () => JSON.parse((await toolbox.invoke({ name: 'mcp__fx__ledger', arguments: {} })).output) as unknown[];
  return { toolbox, records, seen, ledger };
}

const transfer = (id: string, args: object) => ({ id, type: 'function' as const, function: { name: 'mcp__fx__transfer', arguments: JSON.stringify(args) } });

describe('a destructive remote tool under requireApprovalForDestructive', () => {
  it('waits for approval: nothing reaches the server; approve() runs it once, through middleware and the audit', async () => {
    const { toolbox, records, seen, ledger } = await mounted();
    try {
      const pending = await toolbox.invoke(transfer('t1', { cents: 500, to: 'alice' }));
      expect(pending).toMatchObject({ id: 't1', status: 'approval_required', arguments: { cents: 500, to: 'alice' }, result: undefined });
      expect(await ledger()).toEqual([]);
      expect(seen.filter((call) => call.tool === 'mcp__fx__transfer')).toEqual([]);

      const answered = await toolbox.approve(pending);
      expect(answered).toMatchObject({ id: 't1', status: 'completed', output: 'sent 500 to alice', data: 'sent 500 to alice' });
      expect(answered.result?.ok).toBe(true);
      expect(await ledger()).toEqual([{ cents: 500, to: 'alice' }]);
      expect(seen.find((call) => call.tool === 'mcp__fx__transfer')).toEqual({
        tool: 'mcp__fx__transfer',
        id: 't1',
        transport: 'openai',
        input: { cents: 500, to: 'alice' },
        hints: ['destructive'],
      });
      expect(records.filter((record) => record.tool === 'mcp__fx__transfer')).toEqual([
        expect.objectContaining({ toolId: 'mcp:fx/transfer', callId: 't1', transport: 'openai', outcome: 'success', input: { cents: 500, to: 'alice' } }),
      ]);
    } finally {
      await toolbox.close();
    }
  });

  it('deny() refuses it: the server never runs it, the model is told why, the audit records the denial', async () => {
    const { toolbox, records, ledger } = await mounted();
    try {
      const pending = await toolbox.invoke(transfer('t2', { cents: 900, to: 'bob' }));
      const denied = await toolbox.deny(pending, 'over budget');
      expect(denied).toMatchObject({ status: 'failed', output: 'The call to mcp__fx__transfer was not approved: over budget. It did not run.' });
      expect(await ledger()).toEqual([]);
      expect(records.find((record) => record.callId === 't2')).toMatchObject({ outcome: 'failure', errorType: 'ToolApprovalError', input: { cents: 900, to: 'bob' } });
      // An approve option answers at once, with the call as the approver sees it.
      let asked: ToolCall | undefined;
      const refused = await toolbox.invoke(transfer('t3', { cents: 1, to: 'eve' }), { approve: (call) => ((asked = call), false) });
      expect(refused.status).toBe('failed');
      expect([asked?.tool.toolName(), asked?.tool.hints, asked?.redactedInput()]).toEqual(['mcp__fx__transfer', ['destructive'], { cents: 1, to: 'eve' }]);
      expect(await ledger()).toEqual([]);
    } finally {
      await toolbox.close();
    }
  });

  it('approve() runs what the record showed, even when the caller’s own arguments object changes afterwards', async () => {
    const { toolbox, ledger } = await mounted();
    try {
      const args: Record<string, any> = { cents: 500, to: 'alice', memo: { note: 'rent' } };
      const pending = await toolbox.invoke({ id: 't4', name: 'mcp__fx__transfer', arguments: args });
      args.cents = 99999;
      args.to = 'mallory';
      args.memo.note = 'stolen';
      expect(() => ((pending.arguments as any).memo.note = 'stolen')).toThrow(TypeError);
      await toolbox.approve(pending);
      expect(await ledger()).toEqual([{ cents: 500, to: 'alice', memo: { note: 'rent' } }]);
    } finally {
      await toolbox.close();
    }
  });

  it('the annotations are the hints, with the MCP defaults: read-only runs at once, unannotated counts as destructive', async () => {
    const { toolbox } = await mounted();
    try {
      expect((await toolbox.invoke({ name: 'mcp__fx__pid', arguments: {} })).status).toBe('completed');
      expect((await toolbox.invoke({ name: 'mcp__fx__echo', arguments: { text: 'hi' } })).status).toBe('approval_required');
      // The AI SDK adapter asks the same question of the same pipeline.
      const tools = toAiSdkTools(toolbox);
      const ask = (name: string) => (tools[name].needsApproval as (input: unknown, options: object) => Promise<boolean>)({}, { toolCallId: 'a', messages: [] });
      expect([await ask('mcp__fx__transfer'), await ask('mcp__fx__echo'), await ask('mcp__fx__ledger')]).toEqual([true, true, false]);
    } finally {
      await toolbox.close();
    }
    // Without the setting, a destructive remote tool runs at once (as a local one would).
    const plain = await mounted({ destructiveApproval: false });
    try {
      expect((await plain.toolbox.invoke(transfer('t5', { cents: 5, to: 'carol' }))).status).toBe('completed');
      expect(await plain.ledger()).toEqual([{ cents: 5, to: 'carol' }]);
    } finally {
      await plain.toolbox.close();
    }
  });
});

describe('middleware around remote calls', () => {
  it('a middleware refusal and a rate limit stop remote calls before they reach the server; remote failures are failures', async () => {
    const noTransfers: Middleware = (call, next) => (call.tool.toolName() === 'mcp__fx__transfer' ? call.fail('No transfers today') : next());
    const limit = rateLimit({ points: 1, per: 'hour', key: (call) => (call.tool.toolName() === 'mcp__fx__pid' ? 'pid' : call.id) });
    const { toolbox, records, ledger } = await mounted({ destructiveApproval: false, middleware: [noTransfers, limit] });
    try {
      expect(await toolbox.invoke(transfer('m1', { cents: 5, to: 'carol' }))).toMatchObject({ status: 'failed', output: 'No transfers today' });
      expect(await ledger()).toEqual([]);
      expect((await toolbox.invoke({ name: 'mcp__fx__pid', arguments: {} })).status).toBe('completed');
      expect((await toolbox.invoke({ name: 'mcp__fx__pid', arguments: {} })).output).toMatch(/^Too many calls to mcp__fx__pid: the limit is 1 per hour\. Retry in/);
      const refused = await toolbox.invoke({ id: 'm2', name: 'mcp__fx__refuse', arguments: {} });
      expect(refused).toMatchObject({ status: 'failed', output: 'The fixture refuses.' });
      expect(records.find((record) => record.callId === 'm2')).toMatchObject({ tool: 'mcp__fx__refuse', outcome: 'failure', error: 'The fixture refuses.' });
      expect(records.map((record) => [record.tool, record.outcome])).toEqual([
        ['mcp__fx__transfer', 'failure'],
        ['mcp__fx__pid', 'success'],
        ['mcp__fx__pid', 'failure'],
        ['mcp__fx__refuse', 'failure'],
      ]);
    } finally {
      await toolbox.close();
    }
  });
});

describe('the input a remote call carries', () => {
  it('is the arguments as JSON, within the depth limit: deeper or non-JSON arguments never reach the server', async () => {
    const { toolbox, ledger, records } = await mounted({ destructiveApproval: false });
    try {
      let deep: Record<string, unknown> = { note: 'bottom' };
      for (let i = 0; i < 70; i++) deep = { memo: deep };
      expect(await toolbox.invoke({ name: 'mcp__fx__transfer', arguments: { cents: 1, to: 'x', memo: deep } })).toMatchObject({
        status: 'failed',
        output: 'Invalid tool arguments: the input is nested deeper than 64 levels',
      });
      const notJson = await toolbox.invoke({ name: 'mcp__fx__transfer', arguments: { cents: 10n, to: 'x' } });
      expect(notJson.status).toBe('failed');
      expect(notJson.output).toMatch(/^Invalid tool arguments: the arguments are not JSON \(.*BigInt.*\)$/);
      expect(await toolbox.invoke({ name: 'mcp__fx__transfer', arguments: '[1]' })).toMatchObject({ output: 'Invalid tool arguments: arguments must be an object' });
      expect(await ledger()).toEqual([]);
      expect(records).toEqual([]); // refused input never reaches middleware, as for a local tool
    } finally {
      await toolbox.close();
    }
  });
});

describe('the time limit and cancellation', () => {
  it("a remote call past the invoker's time limit, or cancelled by the caller, ends as a failure; the connection stays usable", async () => {
    const toolbox = new Toolbox([], { invoker: new Invoker({ defaultTimeoutMs: 200 }) });
    try {
      await toolbox.addMcpServer('fx', { command: 'node', args: [fixture] }, { security });
      expect(await toolbox.invoke({ name: 'mcp__fx__hang', arguments: {} })).toMatchObject({ status: 'failed', output: 'mcp__fx__hang took longer than 200 ms' });
      const controller = new AbortController();
      const cancelled = toolbox.invoke({ name: 'mcp__fx__hang', arguments: {} }, { signal: controller.signal });
      controller.abort();
      expect(await cancelled).toMatchObject({ status: 'failed', output: 'The call was cancelled.' });
      expect((await toolbox.invoke({ name: 'mcp__fx__pid', arguments: {} })).status).toBe('completed');
    } finally {
      await toolbox.close();
    }
  });
});

describe('tracing', () => {
  const exporter = new InMemorySpanExporter();
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  });

  it('a remote call is an execute_tool span like a local one, with its outcome', async () => {
    const toolbox = new Toolbox();
    try {
      await toolbox.addMcpServer('fx', { command: 'node', args: [fixture] }, { security });
      await toolbox.invoke({ id: 's1', name: 'mcp__fx__echo', arguments: { text: 'hi' } });
      await toolbox.invoke({ id: 's2', name: 'mcp__fx__refuse', arguments: {} });
      const [echo, refuse] = exporter.getFinishedSpans().filter((span) => span.name.startsWith('execute_tool'));
      expect([echo.name, refuse.name]).toEqual(['execute_tool mcp__fx__echo', 'execute_tool mcp__fx__refuse']);
      expect(echo.attributes).toMatchObject({
        'gen_ai.tool.name': 'mcp__fx__echo',
        'gen_ai.tool.call.id': 's1',
        'gen_ai.tool.description': 'Echoes a text',
        'toolwright.tool.id': 'mcp:fx/echo',
        'toolwright.transport': 'openai',
        'toolwright.outcome': 'success',
      });
      expect(refuse.attributes).toMatchObject({ 'toolwright.outcome': 'failure', 'error.type': 'ToolFailure' });
    } finally {
      await toolbox.close();
    }
  });
});

describe("a remote tool's secrets", () => {
  it('values its schema marks writeOnly read [redacted] in the audit record and the approval question, at any depth; keys it closes out are left out; the server gets them all', async () => {
    const { toolbox, records, ledger } = await mounted();
    try {
      const args = { user: 'ada', password: 'hunter2', keys: [{ id: 'k1', token: 'tok-1' }], extra: { otp: '424242' }, stray: 'hunter2' };
      const asked: string[] = [];
      const record = await toolbox.invoke(
        { id: 'l1', type: 'function', function: { name: 'mcp__fx__login', arguments: JSON.stringify(args) } },
        { approve: (call) => (asked.push(call.approvalQuestion().text), true) },
      );
      expect(record.output).toBe('logged in');
      expect(asked).toEqual([
        'Allow the tool mcp__fx__login to run with these arguments?\nuser: "ada"\npassword: "[redacted]"\nkeys: [{ id: "k1", token: "[redacted]" }]\nextra: { otp: "[redacted]" }',
      ]);
      const shown = { user: 'ada', password: '[redacted]', keys: [{ id: 'k1', token: '[redacted]' }], extra: { otp: '[redacted]' } };
      expect(records.find((each) => each.tool === 'mcp__fx__login')?.input).toEqual(shown);
      expect(JSON.stringify([asked, records])).not.toMatch(/hunter2|tok-1|424242/);
      expect(await ledger()).toEqual([args]);
    } finally {
      await toolbox.close();
    }
  });
});
