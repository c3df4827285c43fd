/**
 * toolwright tools in the Vercel AI SDK: `generateText` with the SDK's own mock language model
 * (`MockLanguageModelV3` from `ai/test`) issuing tool calls.
 */
import 'reflect-metadata';
import { IsInt, IsOptional, Min } from 'class-validator';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { AmbientContext, configure, Expects, Exposes, Field, Tool, ToolwrightError, fail, type ResolveCall, type ToolResolver } from 'toolwright';
import { toAiSdkTools, ToolCallFailedError } from 'toolwright/ai';
import { Toolbox } from 'toolwright/openai';

class PayInput {
  @Field({ description: 'Amount in cents' }) @IsInt() @Min(1) cents!: number;
  @Field({ optional: true }) @IsOptional() reference?: string;
  @AmbientContext() customerId!: string;
}

const paid: number[] = [];

@Tool('openai', { description: 'Pay a bill', error: 'Could not pay the bill' })
@Expects(PayInput)
@Exposes({ paid: Number, by: String, reference: { type: String, optional: true } })
class PayBill {
  call(input: PayInput) {
    if (input.cents > 50_000) fail('that is more than the daily limit');
    paid.push(input.cents);
    return { paid: input.cents, by: input.customerId, reference: input.reference };
  }
}

@Tool('openai', { description: 'Today’s exchange rate', success: 'The rate was logged' })
class LogRate {
  call() {}
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** One model turn that calls tools. */
function toolCalls(...calls: Array<[id: string, name: string, input: string]>) {
  return {
    content: calls.map(([toolCallId, toolName, input]) => ({ type: 'tool-call' as const, toolCallId, toolName, input })),
    finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

function text(value: string) {
  return { content: [{ type: 'text' as const, text: value }], finishReason: { unified: 'stop' as const, raw: 'stop' }, usage, warnings: [] };
}

/** The tool results the model was shown in the prompt of a later call. */
function toolResultsIn(prompt: Array<{ role: string; content: unknown }>) {
  return prompt
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content as Array<{ toolCallId: string; toolName: string; output: unknown }>)
    .map(({ toolCallId, toolName, output }) => ({ toolCallId, toolName, output }));
}

describe('toAiSdkTools with generateText', () => {
  beforeAll(() => configure({ onException: () => undefined }));
  afterAll(() => configure({ onException: undefined }));
  beforeEach(() => (paid.length = 0));

  const toolbox = () => new Toolbox([PayBill, LogRate], { ambientContext: { customerId: 'cust-1' } });

  it('the model sees the tool’s schema; the tool runs through the invoker and its output reaches the next step', async () => {
    const model = new MockLanguageModelV3({ doGenerate: [toolCalls(['call-1', 'pay_bill', '{"cents":"1999"}']), text('Paid.')] });
    const result = await generateText({ model, tools: toAiSdkTools(toolbox()), prompt: 'Pay my bill', stopWhen: stepCountIs(3) });

    expect(result.text).toBe('Paid.');
    expect(paid).toEqual([1999]); // "1999" was coerced by the invoker
    expect(model.doGenerateCalls[0].tools).toEqual([
      {
        type: 'function',
        name: 'pay_bill',
        description: 'Pay a bill',
        inputSchema: {
          type: 'object',
          properties: { cents: { type: 'integer', minimum: 1, description: 'Amount in cents' }, reference: { type: 'string' } },
          required: ['cents'],
          additionalProperties: false,
        },
      },
      { type: 'function', name: 'log_rate', description: 'Today’s exchange rate', inputSchema: { type: 'object', properties: {}, additionalProperties: false } },
    ]);
    expect(result.steps[0].toolResults.map(({ toolCallId, output }) => ({ toolCallId, output }))).toEqual([
      { toolCallId: 'call-1', output: { paid: 1999, by: 'cust-1' } },
    ]);
    expect(toolResultsIn(model.doGenerateCalls[1].prompt)).toEqual([
      { toolCallId: 'call-1', toolName: 'pay_bill', output: { type: 'json', value: { paid: 1999, by: 'cust-1' } } },
    ]);
  });

  it('parallel calls all run; failures and invalid arguments reach the model as error text', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCalls(
          ['call-a', 'pay_bill', '{"cents":100,"reference":"gas"}'],
          ['call-b', 'pay_bill', '{"cents":90000}'],
          ['call-c', 'pay_bill', '{"cents":-5,"memo":"x"}'],
          ['call-d', 'log_rate', ''],
        ),
        text('Some payments failed.'),
      ],
    });
    const result = await generateText({ model, tools: toAiSdkTools(toolbox()), prompt: 'Pay everything', stopWhen: stepCountIs(3) });

    expect(paid).toEqual([100]);
    expect(toolResultsIn(model.doGenerateCalls[1].prompt)).toEqual([
      { toolCallId: 'call-a', toolName: 'pay_bill', output: { type: 'json', value: { paid: 100, by: 'cust-1', reference: 'gas' } } },
      { toolCallId: 'call-b', toolName: 'pay_bill', output: { type: 'error-text', value: 'Could not pay the bill: that is more than the daily limit' } },
      {
        toolCallId: 'call-c',
        toolName: 'pay_bill',
        output: { type: 'error-text', value: 'Invalid tool arguments: unknown input: memo and cents must not be less than 1' },
      },
      { toolCallId: 'call-d', toolName: 'log_rate', output: { type: 'text', value: 'The rate was logged' } },
    ]);

    const errors = result.steps[0].content.filter((part) => part.type === 'tool-error');
    expect(errors.map((part) => part.toolCallId)).toEqual(['call-b', 'call-c']);
    const error = errors[0].error as ToolCallFailedError;
    expect(error).toBeInstanceOf(ToolCallFailedError);
    expect(error).toBeInstanceOf(ToolwrightError);
    expect(error.message).toBe('Could not pay the bill: that is more than the daily limit');
    expect(error.record).toMatchObject({ id: 'call-b', name: 'pay_bill', status: 'failed' });
    expect(error.record.result?.outcome).toBe('failure');
  });

  it('ambient values come from the application: the toolbox, or the options; a model that sends one gets "unknown input"', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [toolCalls(['call-1', 'pay_bill', '{"cents":5}'], ['call-2', 'pay_bill', '{"cents":6,"customerId":"someone-else"}']), text('ok')],
    });
    const tools = toAiSdkTools(toolbox(), { ambientContext: { customerId: 'cust-9' } });
    await generateText({ model, tools, prompt: 'Pay', stopWhen: stepCountIs(3) });
    expect(toolResultsIn(model.doGenerateCalls[1].prompt).map((r) => r.output)).toEqual([
      { type: 'json', value: { paid: 5, by: 'cust-9' } },
      { type: 'error-text', value: 'Invalid tool arguments: unknown input: customerId' },
    ]);
    expect(paid).toEqual([5]);
  });

  it('strict: strict schemas with strict: true, and null for a left-out optional field means absent', async () => {
    const model = new MockLanguageModelV3({ doGenerate: [toolCalls(['call-1', 'pay_bill', '{"cents":7,"reference":null}']), text('ok')] });
    const result = await generateText({ model, tools: toAiSdkTools(toolbox(), { strict: true, only: ['pay_bill'] }), prompt: 'Pay', stopWhen: stepCountIs(3) });
    expect(model.doGenerateCalls[0].tools).toEqual([
      {
        type: 'function',
        name: 'pay_bill',
        description: 'Pay a bill',
        inputSchema: {
          type: 'object',
          properties: { cents: { type: 'integer', minimum: 1, description: 'Amount in cents' }, reference: { type: ['string', 'null'] } },
          required: ['cents', 'reference'],
          additionalProperties: false,
        },
        strict: true,
      },
    ]);
    expect(result.steps[0].toolResults[0].output).toEqual({ paid: 7, by: 'cust-1' });
  });

  it('takes a list of tools too, in a toolbox of its own', async () => {
    const tools = toAiSdkTools([PayBill, LogRate]);
    expect(Object.keys(tools)).toEqual(['pay_bill', 'log_rate']);
    const model = new MockLanguageModelV3({ doGenerate: [toolCalls(['call-1', 'pay_bill', '{"cents":5}']), text('ok')] });
    await generateText({ model, tools, prompt: 'Pay', stopWhen: stepCountIs(3) });
    // No ambient value anywhere: the server's problem, so the model reads only the headline.
    expect(toolResultsIn(model.doGenerateCalls[1].prompt)[0].output).toEqual({ type: 'error-text', value: 'Could not pay the bill' });
    expect(paid).toEqual([]);
  });

  it('checks its options', () => {
    expect(() => toAiSdkTools(toolbox(), { ambient: {} } as never)).toThrow(
      new TypeError("toAiSdkTools: unknown option 'ambient'. Known options: only, strict, ambientContext, container, resolver, context."),
    );
    expect(() => toAiSdkTools(toolbox(), { ambientContext: 'cust-1' as never })).toThrow(
      new TypeError("toAiSdkTools: 'ambientContext' must be a Map or an object keyed by ambient key; got 'cust-1'."),
    );
    expect(() => toAiSdkTools(toolbox(), { strict: 'yes' as never })).toThrow(new TypeError("Toolbox.functions: 'strict' must be true or false; got 'yes'."));
    expect(() => toAiSdkTools(toolbox(), { only: ['pay'] })).toThrow(
      new TypeError("Toolbox.functions: no function named 'pay' in this toolbox. Registered: pay_bill and log_rate."),
    );
  });
});

describe('toAiSdkTools: resolver', () => {
  beforeAll(() => configure({ onException: () => undefined }));
  afterAll(() => configure({ onException: undefined }));
  beforeEach(() => (paid.length = 0));

  /** PayBill made by a resolver that records the calls it is handed. */
  function recording(): ToolResolver & { seen: ResolveCall[] } {
    const seen: ResolveCall[] = [];
    return { seen, resolve: (target, call) => (seen.push(call), new (target as new () => object)()) };
  }

  it("its resolver makes every call's tool (replacing the toolbox's) and is handed the call", async () => {
    const own = recording();
    const given = recording();
    const toolbox = new Toolbox([PayBill], { ambientContext: { customerId: 'cust-1' }, resolver: own });
    const model = new MockLanguageModelV3({ doGenerate: [toolCalls(['call-1', 'pay_bill', '{"cents":3}']), text('ok')] });
    const result = await generateText({ model, tools: toAiSdkTools(toolbox, { resolver: given }), prompt: 'Pay', stopWhen: stepCountIs(3) });
    expect(result.steps[0].toolResults[0].output).toEqual({ paid: 3, by: 'cust-1' });
    expect(own.seen).toEqual([]);
    expect(given.seen.map((call) => [call.definition.target, call.transport])).toEqual([[PayBill, 'ai']]);
    // Without one of its own, the toolbox's applies.
    const again = new MockLanguageModelV3({ doGenerate: [toolCalls(['call-2', 'pay_bill', '{"cents":4}']), text('ok')] });
    await generateText({ model: again, tools: toAiSdkTools(toolbox), prompt: 'Pay', stopWhen: stepCountIs(3) });
    expect(own.seen).toHaveLength(1);
    expect(paid).toEqual([3, 4]);
  });

  it('refuses a resolver without resolve(), naming the option', () => {
    expect(() => toAiSdkTools([PayBill], { resolver: { make: () => ({}) } as never })).toThrow(
      new TypeError("toAiSdkTools: 'resolver' must be an object with a resolve(target, call) method (a ToolResolver); got {}."),
    );
    expect(() => toAiSdkTools([PayBill], { resolver: null as never })).toThrow(/toAiSdkTools: 'resolver' must be an object with a resolve\(target, call\) method/);
  });
});
