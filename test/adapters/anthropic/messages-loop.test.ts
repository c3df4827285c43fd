/**
 * The Anthropic loop end to end: the real `@anthropic-ai/sdk` client against a scripted Messages API
 * on 127.0.0.1. tool_use blocks → toolCalls → toolbox.invokeAll → toToolResults → the next request,
 * asserting what the server received: parallel calls, an error, an image, an approval (with a
 * sensitive value redacted in its question), ambient values, Anthropic's tool search, and a remote
 * MCP server's tool.
 */
import 'reflect-metadata';
import Anthropic from '@anthropic-ai/sdk';
import { AmbientContext, configure, Content, Expects, Exposes, fail, Field, Tool } from 'toolwright';
import { serveHttp, McpHttpHandle } from 'toolwright/mcp';
import { McpSecurityPolicy } from 'toolwright/mcp-client';
import { Toolbox } from 'toolwright/toolbox';
import { toAnthropicTools, toolCalls, toToolResults } from 'toolwright/anthropic';
import { ScriptedServer, startScriptedServer } from '../openai/scripted-server';

class BalanceInput {
  @Field({ description: 'Which account', enum: ['checking', 'savings'], type: () => String }) account!: string;
  @AmbientContext() customerId!: string;
}

@Tool({ description: 'Balance of one of the customer’s accounts', adapters: { openai: { name: 'check_balance' } } })
@Expects(BalanceInput)
@Exposes({ account: String, cents: Number, customer: String })
class CheckBalance {
  call(input: BalanceInput) {
    return { account: input.account, cents: 12_500, customer: input.customerId };
  }
}

class PayInput {
  @Field({ min: 1 }) cents!: number;
  @Field({ sensitive: true }) pin!: string;
}

const paid: number[] = [];

@Tool({ description: 'Pay a bill', error: 'Could not pay the bill', approval: (input: PayInput) => input.cents > 10_000, adapters: { openai: { name: 'pay_bill' } } })
@Expects(PayInput)
@Exposes({ paid: Number })
class PayBill {
  call(input: PayInput) {
    if (input.cents > 50_000) fail('that is more than the daily limit');
    paid.push(input.cents);
    return { paid: input.cents };
  }
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

@Tool({ description: 'Draws the month’s spending', adapters: { openai: { name: 'draw_chart' } } })
class DrawChart {
  call() {
    return Content.of(Content.text('Spending by week:'), Content.image(PNG, 'image/png'));
  }
}

@Tool({ description: 'Converts cents to euros', adapters: { openai: { name: 'to_euros' } } })
@Expects({ cents: Number })
@Exposes({ euros: Number })
class ToEuros {
  call(input: { cents: number }) {
    return { euros: input.cents / 100 };
  }
}

const toolUse = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input, caller: { type: 'direct' } });
const message = (content: object[], stop_reason: string) => ({
  id: 'msg_scripted',
  type: 'message',
  role: 'assistant',
  model: 'claude-scripted',
  content,
  stop_reason,
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
});

describe('the Anthropic Messages loop with the real client', () => {
  let server: ScriptedServer | undefined;
  let mcp: McpHttpHandle | undefined;
  beforeAll(() => configure({ onException: () => undefined }));
  afterAll(() => configure({ onException: undefined }));
  beforeEach(() => (paid.length = 0));
  afterEach(async () => {
    await server?.close();
    await mcp?.close();
    server = mcp = undefined;
  });

  const client = (baseURL: string) => new Anthropic({ apiKey: 'sk-ant-test', baseURL: baseURL.replace(/\/v1$/, ''), maxRetries: 0 });

  it('parallel calls, an error, an image, an approval and ambient values: tool_use → tool_result → final text', async () => {
    server = await startScriptedServer([
      () =>
        message(
          [
            { type: 'text', text: 'Let me look.' },
            toolUse('toolu_balance', 'check_balance', { account: 'checking' }),
            toolUse('toolu_chart', 'draw_chart', {}),
            toolUse('toolu_bad', 'check_balance', { account: 'brokerage' }),
            toolUse('toolu_pay', 'pay_bill', { cents: 20_000, pin: '4321' }),
          ],
          'tool_use',
        ),
      () => message([{ type: 'text', text: 'Paid, and here is your chart.' }], 'end_turn'),
    ]);
    const anthropic = client(server.baseURL);
    const toolbox = new Toolbox([CheckBalance, PayBill, DrawChart], { ambientContext: { customerId: 'cust-7' } });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Pay my bill and show my spending.' }];
    const tools: Anthropic.Tool[] = toAnthropicTools(toolbox);

    let response = await anthropic.messages.create({ model: 'claude-scripted', max_tokens: 1024, messages, tools });
    const asked: string[] = [];
    while (response.stop_reason === 'tool_use') {
      const records = await toolbox.invokeAll(toolCalls(response.content));
      const answered = await Promise.all(
        records.map((record) => {
          if (record.status !== 'approval_required') return record;
          asked.push(record.question!);
          return toolbox.approve(record);
        }),
      );
      messages.push({ role: 'assistant', content: response.content }, { role: 'user', content: toToolResults(answered) });
      response = await anthropic.messages.create({ model: 'claude-scripted', max_tokens: 1024, messages, tools });
    }

    expect(response.content).toEqual([{ type: 'text', text: 'Paid, and here is your chart.' }]);
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/messages', '/v1/messages']);
    // The tools as sent: the ambient field is never the model's to fill.
    const sentTools = server.requests[0].body.tools;
    expect(sentTools.map((tool: { name: string }) => tool.name)).toEqual(['check_balance', 'pay_bill', 'draw_chart']);
    expect(sentTools[0].input_schema.properties).not.toHaveProperty('customerId');
    expect(sentTools[0]).not.toHaveProperty('strict');

    // The approval's question shows the arguments, the sensitive one redacted; approving ran it.
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('20000');
    expect(asked[0]).not.toContain('4321');
    expect(paid).toEqual([20_000]);

    const [, last] = server.requests[1].body.messages.slice(-2);
    expect(last.role).toBe('user');
    expect(last.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_balance', content: JSON.stringify({ account: 'checking', cents: 12_500, customer: 'cust-7' }) },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_chart',
        content: [
          { type: 'text', text: 'Spending by week:' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.toString('base64') } },
        ],
      },
      { type: 'tool_result', tool_use_id: 'toolu_bad', content: expect.stringContaining('Invalid tool arguments'), is_error: true },
      { type: 'tool_result', tool_use_id: 'toolu_pay', content: JSON.stringify({ paid: 20_000 }) },
    ]);
  });

  it('a denied approval and a failing tool reach the model as is_error results', async () => {
    server = await startScriptedServer([
      () => message([toolUse('toolu_big', 'pay_bill', { cents: 60_000, pin: '1' }), toolUse('toolu_huge', 'pay_bill', { cents: 90_000, pin: '2' })], 'tool_use'),
      () => message([{ type: 'text', text: 'I could not pay.' }], 'end_turn'),
    ]);
    const anthropic = client(server.baseURL);
    const toolbox = new Toolbox([PayBill]);
    const first = await anthropic.messages.create({ model: 'claude-scripted', max_tokens: 64, messages: [{ role: 'user', content: 'Pay' }], tools: toAnthropicTools(toolbox) });
    const [big, huge] = await toolbox.invokeAll(toolCalls(first));
    expect(() => toToolResults([big])).toThrow('toToolResults: record 0 (pay_bill) is waiting for approval. Show a person record.question');
    const results = toToolResults([await toolbox.approve(big), await toolbox.deny(huge, 'over the limit')]);
    await anthropic.messages.create({
      model: 'claude-scripted',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Pay' }, { role: 'assistant', content: first.content }, { role: 'user', content: results }],
    });
    expect(server.requests[1].body.messages[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_big', content: 'Could not pay the bill: that is more than the daily limit', is_error: true },
      { type: 'tool_result', tool_use_id: 'toolu_huge', content: 'The call to pay_bill was not approved: over the limit. It did not run.', is_error: true },
    ]);
    expect(paid).toEqual([]);
  });

  it("Anthropic's tool search: deferred tools and the search tool in the request; the found tool's tool_use runs, the server's search blocks are passed over", async () => {
    server = await startScriptedServer([
      () =>
        message(
          [
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'tool_search_tool_bm25', input: { query: 'pay a bill' }, caller: { type: 'direct' } },
            { type: 'tool_search_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'pay_bill' }] } },
            toolUse('toolu_found', 'pay_bill', { cents: 500, pin: '9' }),
          ],
          'tool_use',
        ),
    ]);
    const toolbox = new Toolbox([CheckBalance, PayBill, DrawChart], { ambientContext: { customerId: 'cust-7' } });
    const tools = toAnthropicTools(toolbox, { toolSearch: 'bm25', core: ['check_balance'] });
    const response = await client(server.baseURL).messages.create({ model: 'claude-scripted', max_tokens: 64, messages: [{ role: 'user', content: 'Pay 5 €' }], tools });
    expect(server.requests[0].body.tools).toEqual([
      expect.not.objectContaining({ defer_loading: true }),
      expect.objectContaining({ name: 'pay_bill', defer_loading: true }),
      expect.objectContaining({ name: 'draw_chart', defer_loading: true }),
      { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
    ]);
    expect(toolCalls(response)).toEqual([{ id: 'toolu_found', name: 'pay_bill', arguments: { cents: 500, pin: '9' } }]);
    expect(toToolResults(await toolbox.invokeAll(toolCalls(response)))).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_found', content: '{"paid":500}' }]);
    expect(paid).toEqual([500]);
  });

  it("a remote MCP server's tool, mounted in the toolbox, answers the model's tool_use", async () => {
    mcp = await serveHttp({ name: 'fx', version: '1.0.0', tools: [ToEuros] }, { port: 0 });
    server = await startScriptedServer([
      () => message([toolUse('toolu_fx', 'mcp__fx__to_euros', { cents: 250 })], 'tool_use'),
      () => message([{ type: 'text', text: '2.50 €' }], 'end_turn'),
    ]);
    const toolbox = new Toolbox();
    const security = new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['127.0.0.1'] });
    try {
      await toolbox.addMcpServer('fx', { url: mcp.url }, { security });
      const anthropic = client(server.baseURL);
      const tools = toAnthropicTools(toolbox);
      const first = await anthropic.messages.create({ model: 'claude-scripted', max_tokens: 64, messages: [{ role: 'user', content: '250 cents?' }], tools });
      const results = toToolResults(await toolbox.invokeAll(toolCalls(first)));
      await anthropic.messages.create({
        model: 'claude-scripted',
        max_tokens: 64,
        messages: [{ role: 'user', content: '250 cents?' }, { role: 'assistant', content: first.content }, { role: 'user', content: results }],
        tools,
      });
      expect(server.requests[0].body.tools.map((tool: { name: string }) => tool.name)).toEqual(['mcp__fx__to_euros']);
      expect(server.requests[1].body.messages[2].content).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_fx', content: expect.stringContaining('2.5') }]);
    } finally {
      await toolbox.close();
    }
  });
});
