/**
 * The real `openai` client against a scripted OpenAI-compatible server on 127.0.0.1: a full
 * function-calling loop, asserting what the server received.
 */
import 'reflect-metadata';
import { IsIn, IsInt, IsOptional, Min } from 'class-validator';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseFunctionToolCall, ResponseInputItem } from 'openai/resources/responses/responses';
import { AmbientContext, configure, Expects, Exposes, Field, Tool, fail } from 'toolwright';
import { Toolbox, toMessages } from 'toolwright/openai';
import { responsesResponse, ScriptedServer, startScriptedServer, textCompletion, toolCallsCompletion } from './scripted-server';

class BalanceInput {
  @Field({ description: 'Which account' }) @IsIn(['checking', 'savings']) account!: string;
  @AmbientContext() customerId!: string;
}

@Tool('openai', { description: 'Balance of one of the customer’s accounts' })
@Expects(BalanceInput)
@Exposes({ account: String, cents: Number, customer: String })
class CheckBalance {
  call(input: BalanceInput) {
    return { account: input.account, cents: input.account === 'checking' ? 12_500 : 90_000, customer: input.customerId };
  }
}

class PayInput {
  @Field() @IsInt() @Min(1) cents!: number;
  @Field({ optional: true, description: 'Shown on the statement' }) @IsOptional() reference?: string;
  @AmbientContext() customerId!: string;
}

@Tool('openai', { description: 'Pay a bill', error: 'Could not pay the bill' })
@Expects(PayInput)
@Exposes({ paid: Number, reference: { type: String, nullable: true } })
class PayBill {
  call(input: PayInput) {
    if (input.cents > 50_000) fail('that is more than the daily limit');
    return { paid: input.cents, reference: input.reference ?? null };
  }
}

describe('function calling with the openai client', () => {
  let server: ScriptedServer | undefined;
  beforeAll(() => configure({ onException: () => undefined }));
  afterAll(() => configure({ onException: undefined }));
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const client = (baseURL: string) => new OpenAI({ apiKey: 'sk-test', baseURL, maxRetries: 0 });

  it('Chat Completions: request → invokeAll → tool messages → second request', async () => {
    server = await startScriptedServer([
      () =>
        toolCallsCompletion([
          { id: 'call_balance', name: 'check_balance', arguments: '{"account":"checking"}' },
          { id: 'call_pay', name: 'pay_bill', arguments: '{"cents":90000}' },
          { id: 'call_typo', name: 'pay_bills', arguments: '{"cents":1}' },
          { id: 'call_json', name: 'check_balance', arguments: '{"account":' },
          { id: 'call_sneaky', name: 'check_balance', arguments: '{"account":"savings","customerId":"someone-else"}' },
        ]),
      () => textCompletion('You have €125.00 in checking; the payment was over the daily limit.'),
    ]);
    const openai = client(server.baseURL);
    const toolbox = new Toolbox([CheckBalance, PayBill], { ambientContext: { customerId: 'cust-42' } });
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Pay my €900 bill if I can afford it.' }];

    const first = await openai.chat.completions.create({ model: 'scripted-model', messages, tools: toolbox.schemas() });
    const message = first.choices[0].message;
    const records = await toolbox.invokeAll(message.tool_calls ?? []);
    messages.push(message, ...toMessages(records));
    const second = await openai.chat.completions.create({ model: 'scripted-model', messages, tools: toolbox.schemas() });

    expect(second.choices[0].message.content).toBe('You have €125.00 in checking; the payment was over the daily limit.');
    expect(records.map((r) => r.status)).toEqual(['completed', 'failed', 'failed', 'failed', 'failed']);

    // What the server received: the advertised tools are exactly schemas(), on both requests.
    expect(server.requests.map((r) => [r.method, r.path])).toEqual([
      ['POST', '/v1/chat/completions'],
      ['POST', '/v1/chat/completions'],
    ]);
    expect(server.requests[0].body.tools).toEqual(toolbox.schemas());
    expect(server.requests[1].body.tools).toEqual(toolbox.schemas());
    expect(server.requests[0].body.tools[0]).toEqual({
      type: 'function',
      function: {
        name: 'check_balance',
        description: 'Balance of one of the customer’s accounts',
        parameters: {
          type: 'object',
          properties: { account: { type: 'string', enum: ['checking', 'savings'], description: 'Which account' } },
          required: ['account'],
          additionalProperties: false,
        },
      },
    });

    // The second request carries the assistant's calls and one tool message per call, by id.
    const sent = server.requests[1].body.messages;
    expect(sent[1]).toMatchObject({ role: 'assistant', tool_calls: expect.arrayContaining([expect.objectContaining({ id: 'call_balance' })]) });
    expect(sent.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'call_balance', content: '{"account":"checking","cents":12500,"customer":"cust-42"}' },
      { role: 'tool', tool_call_id: 'call_pay', content: 'Could not pay the bill: that is more than the daily limit' },
      { role: 'tool', tool_call_id: 'call_typo', content: "Unknown tool 'pay_bills'. Available tools: check_balance and pay_bill." },
      {
        role: 'tool',
        tool_call_id: 'call_json',
        content: "Invalid tool arguments: the arguments are not valid JSON. Send one JSON object that follows the tool's parameters schema.",
      },
      { role: 'tool', tool_call_id: 'call_sneaky', content: 'Invalid tool arguments: unknown input: customerId' },
    ]);
  });

  it('strict mode: strict schemas are advertised, and the nulls the model sends for left-out fields mean absent', async () => {
    server = await startScriptedServer([
      () => toolCallsCompletion([{ id: 'call_1', name: 'pay_bill', arguments: '{"cents":1999,"reference":null}' }]),
      () => textCompletion('Paid.'),
    ]);
    const openai = client(server.baseURL);
    const toolbox = new Toolbox([PayBill], { strict: true, ambientContext: { customerId: 'cust-42' } });
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Pay the €19.99 bill.' }];

    const first = await openai.chat.completions.create({ model: 'scripted-model', messages, tools: toolbox.schemas() });
    const records = await toolbox.invokeAll(first.choices[0].message.tool_calls ?? []);
    messages.push(first.choices[0].message, ...toMessages(records));
    await openai.chat.completions.create({ model: 'scripted-model', messages, tools: toolbox.schemas() });

    expect(server.requests[0].body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'pay_bill',
          description: 'Pay a bill',
          parameters: {
            type: 'object',
            properties: {
              cents: { type: 'integer', minimum: 1 },
              reference: { type: ['string', 'null'], description: 'Shown on the statement' },
            },
            required: ['cents', 'reference'],
            additionalProperties: false,
          },
          strict: true,
        },
      },
    ]);
    expect(server.requests[1].body.messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '{"paid":1999,"reference":null}' });
  });

  it('Responses API: function_call items in, function_call_output items back', async () => {
    server = await startScriptedServer([
      () =>
        responsesResponse([
          { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'check_balance', arguments: '{"account":"savings"}', status: 'completed' },
          { type: 'function_call', id: 'fc_2', call_id: 'call_2', name: 'pay_bill', arguments: '{"cents":"many"}', status: 'completed' },
        ]),
      () =>
        responsesResponse([
          {
            type: 'message',
            id: 'msg_1',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: 'You have €900.00 in savings.', annotations: [] }],
          },
        ]),
    ]);
    const openai = client(server.baseURL);
    const toolbox = new Toolbox([CheckBalance, PayBill], { ambientContext: { customerId: 'cust-7' } });
    const input: ResponseInputItem[] = [{ role: 'user', content: 'How much is in savings?' }];

    const first = await openai.responses.create({ model: 'scripted-model', input, tools: toolbox.schemas({ api: 'responses' }) });
    const calls = first.output.filter((item): item is ResponseFunctionToolCall => item.type === 'function_call');
    const records = await toolbox.invokeAll(calls);
    input.push(...calls, ...toMessages(records));
    const second = await openai.responses.create({ model: 'scripted-model', input, tools: toolbox.schemas({ api: 'responses' }) });

    expect(second.output_text).toBe('You have €900.00 in savings.');
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/responses', '/v1/responses']);
    expect(server.requests[0].body.tools).toEqual(toolbox.schemas({ api: 'responses' }));
    expect(server.requests[0].body.tools[1]).toMatchObject({ type: 'function', name: 'pay_bill', strict: false });
    expect(server.requests[1].body.input.slice(3)).toEqual([
      { type: 'function_call_output', call_id: 'call_1', output: '{"account":"savings","cents":90000,"customer":"cust-7"}' },
      { type: 'function_call_output', call_id: 'call_2', output: 'Invalid tool arguments: cents must be an integer number' },
    ]);
  });
});
