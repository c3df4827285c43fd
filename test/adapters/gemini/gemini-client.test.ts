/**
 * The real `@google/genai` client against a scripted Gemini server on 127.0.0.1: the function-calling
 * loop end to end (tools in both dialects, calls in, function responses out), with ambient values,
 * approvals whose question redacts sensitive values, media in function responses, and a remote MCP
 * server's tools, asserting what the server received.
 */
import 'reflect-metadata';
import { IsIn, IsInt, Min } from 'class-validator';
import { GoogleGenAI, type Content as GeminiContent, type GenerateContentResponse, type Part, type Type } from '@google/genai';
import { AmbientContext, configure, Content, Expects, Exposes, Field, Invoker, Tool, fail } from 'toolwright';
import { fromGeminiCalls, toFunctionResponses, toGeminiTools } from 'toolwright/gemini';
import { McpSecurityPolicy } from 'toolwright/mcp-client';
import { serveHttp, type McpHttpHandle } from 'toolwright/mcp';
import { Toolbox, type ToolCallRecord } from 'toolwright/toolbox';
import * as path from 'node:path';
import { loanDeskServer } from '../../../examples/loan-desk/server';
import '../../../examples/loan-desk/tools';
import { functionCallsReply, geminiBaseUrl, startScriptedServer, textReply, type ScriptedServer } from './scripted-gemini';

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
  @Field({ sensitive: true, description: 'The card PIN' }) pin!: string;
  @AmbientContext() customerId!: string;
}

const paid: number[] = [];

@Tool('openai', { description: 'Pay a bill', error: 'Could not pay the bill', approval: (input: PayInput) => input.cents > 10_000 })
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

@Tool('openai', { name: 'draw_chart', description: 'Draws the spending chart' })
class DrawChart {
  call() {
    return Content.image(PNG, 'image/png');
  }
}

const ask = 'Pay my €150 bill (PIN 4321) and show my spending.';

describe('function calling with the @google/genai client', () => {
  let server: ScriptedServer | undefined;
  let http: McpHttpHandle | undefined;
  beforeAll(() => configure({ onException: () => undefined }));
  afterAll(() => configure({ onException: undefined }));
  beforeEach(() => (paid.length = 0));
  afterEach(async () => {
    await server?.close();
    await http?.close();
    server = http = undefined;
  });

  const client = (baseURL: string) => new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: geminiBaseUrl(baseURL) } });

  it('generateContent → invokeAll (approvals asked of a person) → function responses → generateContent', async () => {
    server = await startScriptedServer([
      () =>
        functionCallsReply([
          { id: 'fc_balance', name: 'check_balance', args: { account: 'checking' } },
          { id: 'fc_pay', name: 'pay_bill', args: { cents: 15_000, pin: '4321' } },
          { id: 'fc_big', name: 'pay_bill', args: { cents: 90_000, pin: '4321' } },
          { id: 'fc_sneaky', name: 'check_balance', args: { account: 'savings', customerId: 'someone-else' } },
          { name: 'pay_bills', args: { cents: 1 } },
          { id: 'fc_chart', name: 'draw_chart' },
        ]),
      () => textReply('Paid €150; the €900 payment was refused. Here is your chart.'),
    ]);
    const ai = client(server.baseURL);
    const toolbox = new Toolbox([CheckBalance, PayBill, DrawChart], { ambientContext: { customerId: 'cust-42' } });
    const contents: GeminiContent[] = [{ role: 'user', parts: [{ text: ask }] }];
    const tools = toGeminiTools(toolbox);
    const questions: string[] = [];
    const person = async (record: ToolCallRecord): Promise<ToolCallRecord> => {
      questions.push(record.question!);
      return (record.arguments as PayInput).cents <= 50_000 ? toolbox.approve(record) : toolbox.deny(record, 'over the daily limit');
    };

    let response: GenerateContentResponse = await ai.models.generateContent({ model: 'gemini-test', contents, config: { tools } });
    while (response.functionCalls?.length) {
      contents.push(response.candidates![0].content!);
      const records = await toolbox.invokeAll(fromGeminiCalls(response));
      const answered = await Promise.all(records.map((record) => (record.status === 'approval_required' ? person(record) : record)));
      contents.push({ role: 'user', parts: toFunctionResponses(answered) satisfies Part[] });
      response = await ai.models.generateContent({ model: 'gemini-test', contents, config: { tools } });
    }

    expect(response.text).toBe('Paid €150; the €900 payment was refused. Here is your chart.');
    expect(paid).toEqual([15_000]);
    // The person saw every argument, the PIN redacted.
    expect(questions).toEqual([
      'Allow the tool pay_bill to run with these arguments?\ncents: 15000\npin: "[redacted]"',
      'Allow the tool pay_bill to run with these arguments?\ncents: 90000\npin: "[redacted]"',
    ]);

    // What the server received: the path, and the tools exactly as toGeminiTools listed them, on both requests.
    expect(server.requests.map((request) => [request.method, request.path.split('?')[0]])).toEqual([
      ['POST', '/v1/models/gemini-test:generateContent'],
      ['POST', '/v1/models/gemini-test:generateContent'],
    ]);
    expect(server.requests[0].body.tools).toEqual(tools);
    expect(server.requests[1].body.tools).toEqual(tools);
    expect(tools[0].functionDeclarations[0]).toEqual({
      name: 'check_balance',
      description: 'Balance of one of the customer’s accounts',
      parametersJsonSchema: {
        type: 'object',
        properties: { account: { type: 'string', enum: ['checking', 'savings'], description: 'Which account' } },
        required: ['account'],
        additionalProperties: false,
      },
    });

    // The second request: the model's turn, then one function response per call, in order, by id.
    const sent = server.requests[1].body.contents;
    expect(sent[1]).toMatchObject({ role: 'model', parts: expect.arrayContaining([{ functionCall: expect.objectContaining({ id: 'fc_balance' }) }]) });
    expect(sent[2].role).toBe('user');
    expect(sent[2].parts).toEqual([
      { functionResponse: { id: 'fc_balance', name: 'check_balance', response: { output: { account: 'checking', cents: 12_500, customer: 'cust-42' } } } },
      { functionResponse: { id: 'fc_pay', name: 'pay_bill', response: { output: { paid: 15_000 } } } },
      {
        functionResponse: {
          id: 'fc_big',
          name: 'pay_bill',
          response: { error: 'The call to pay_bill was not approved: over the daily limit. It did not run.' },
        },
      },
      { functionResponse: { id: 'fc_sneaky', name: 'check_balance', response: { error: 'Invalid tool arguments: unknown input: customerId' } } },
      // The Gemini API's calls may come without an id: their responses go back without one.
      {
        functionResponse: {
          name: 'pay_bills',
          response: { error: "Unknown tool 'pay_bills'. Available tools: check_balance, pay_bill and draw_chart." },
        },
      },
      {
        functionResponse: {
          id: 'fc_chart',
          name: 'draw_chart',
          response: { output: '[attached: image/png]' },
          parts: [{ inlineData: { mimeType: 'image/png', data: PNG.toString('base64') } }],
        },
      },
    ]);
  });

  it("the 'openapi' dialect reaches the server as Gemini's Schema, and a remote MCP server's tools run in the loop", async () => {
    http = await serveHttp(loanDeskServer, { port: 0 });
    const toolbox = new Toolbox([PayBill], { ambientContext: { customerId: 'cust-42' } });
    const security = new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['127.0.0.1'] });
    await toolbox.addMcpServer('desk', { url: http.url, headers: { 'x-officer-id': 'gemini-officer' } }, { security });
    server = await startScriptedServer([
      () => functionCallsReply([{ id: 'fc_credit', name: 'mcp__desk__check_credit', args: { applicant: 'Grace Hopper' } }]),
      () => textReply('Grace Hopper’s credit is excellent.'),
    ]);
    const ai = client(server.baseURL);
    const tools = toGeminiTools<Type>(toolbox, { dialect: 'openapi', only: ['pay_bill', 'mcp__desk__check_credit'] });
    const contents: GeminiContent[] = [{ role: 'user', parts: [{ text: 'How is Grace Hopper’s credit?' }] }];

    const first = await ai.models.generateContent({ model: 'gemini-test', contents, config: { tools } });
    const records = await toolbox.invokeAll(fromGeminiCalls(first.candidates![0].content!.parts!));
    contents.push(first.candidates![0].content!, { role: 'user', parts: toFunctionResponses(records) });
    const second = await ai.models.generateContent({ model: 'gemini-test', contents, config: { tools } });

    expect(second.text).toBe('Grace Hopper’s credit is excellent.');
    expect(server.requests[0].body.tools).toEqual(tools);
    expect(tools[0].functionDeclarations[0]).toEqual({
      name: 'pay_bill',
      description: 'Pay a bill',
      parameters: {
        type: 'OBJECT',
        properties: { cents: { type: 'INTEGER', minimum: 1 }, pin: { type: 'STRING', description: 'The card PIN', minLength: '1' } },
        propertyOrdering: ['cents', 'pin'],
        required: ['cents', 'pin'],
      },
    });
    expect(server.requests[1].body.contents[2].parts).toEqual([
      { functionResponse: { id: 'fc_credit', name: 'mcp__desk__check_credit', response: { output: { score: 768, band: 'excellent' } } } },
    ]);
    await toolbox.close();
  });

  it("a remote server's secrets are redacted in the question the person is asked; a schema too big to inline is refused in the 'openapi' dialect", async () => {
    const fixture = path.join(__dirname, '..', '..', 'fixtures', 'mcp', 'fixture-server.cjs');
    const security = new McpSecurityPolicy({ allowCommands: true, commandAllowlist: ['node'] });
    // Destructive tools wait for a person's approval.
    const toolbox = new Toolbox([], { invoker: new Invoker({ requireApprovalForDestructive: true }) });
    await toolbox.addMcpServer('fx', { command: 'node', args: [fixture], env: { FIXTURE_TOOLS: 'dag' } }, { security });
    try {
      expect(() => toGeminiTools(toolbox, { dialect: 'openapi', only: ['mcp__fx__wide'] })).toThrow(
        "toGeminiTools: mcp__fx__wide: its parameters would make more than 5000 schema nodes once their definitions are inlined; Gemini's 'openapi' dialect cannot say it. Use the default dialect, { dialect: 'json-schema' }.",
      );
      server = await startScriptedServer([
        () => functionCallsReply([{ id: 'fc_login', name: 'mcp__fx__login', args: { user: 'ada', password: 'hunter2', keys: [{ id: 'k1', token: 'tok-9' }] } }]),
        () => textReply('Logged in.'),
      ]);
      const ai = client(server.baseURL);
      const tools = toGeminiTools(toolbox);
      expect(tools[0].functionDeclarations.find((declaration) => declaration.name === 'mcp__fx__wide')?.parametersJsonSchema).toMatchObject({ $defs: { L1: expect.any(Object) } });
      const contents: GeminiContent[] = [{ role: 'user', parts: [{ text: 'Log in as ada.' }] }];
      const first = await ai.models.generateContent({ model: 'gemini-test', contents, config: { tools } });
      const [pending] = await toolbox.invokeAll(fromGeminiCalls(first));
      expect(pending.status).toBe('approval_required');
      expect(pending.question).toBe('Allow the tool mcp__fx__login to run with these arguments?\nuser: "ada"\npassword: "[redacted]"\nkeys: [{ id: "k1", token: "[redacted]" }]');
      const answered = await toolbox.approve(pending);
      contents.push(first.candidates![0].content!, { role: 'user', parts: toFunctionResponses([answered]) });
      expect((await ai.models.generateContent({ model: 'gemini-test', contents, config: { tools } })).text).toBe('Logged in.');
      expect(server.requests[1].body.contents[2].parts[0].functionResponse).toMatchObject({ id: 'fc_login', name: 'mcp__fx__login', response: { output: expect.anything() } });
    } finally {
      await toolbox.close();
    }
  });
});
