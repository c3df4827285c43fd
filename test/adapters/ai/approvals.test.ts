/**
 * Approvals through the AI SDK: a tool that needs approval becomes the SDK's own `needsApproval`
 * flow; the tool runs only after the application answers the SDK's approval request.
 */
import 'reflect-metadata';
import { generateText, ModelMessage, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { audit, AuditRecord, Expects, Field, Invoker, Tool } from 'toolwright';
import { approvalQuestionOf, toAiSdkTools } from 'toolwright/ai';
import { Toolbox } from 'toolwright/openai';
import { paid, Pay } from '../../fixtures/mcp-rounds/tools';

class DeleteInput {
  @Field() path!: string;
}

const deleted: string[] = [];

@Tool('openai', { name: 'delete_file', approval: (input: DeleteInput) => input.path.startsWith('/etc') })
@Expects(DeleteInput)
class DeleteFile {
  call(input: DeleteInput) {
    deleted.push(input.path);
  }
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const toolCall = (toolCallId: string, path: string) => ({
  content: [{ type: 'tool-call' as const, toolCallId, toolName: 'delete_file', input: JSON.stringify({ path }) }],
  finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
  usage,
  warnings: [],
});
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }], finishReason: { unified: 'stop' as const, raw: 'stop' }, usage, warnings: [] });

beforeEach(() => (deleted.length = 0));

describe('AI SDK approvals', () => {
  it('needsApproval stops the call until the application approves it; then it runs once, as transport ai', async () => {
    const records: AuditRecord[] = [];
    const toolbox = new Toolbox([DeleteFile], { invoker: new Invoker({ middleware: [audit((record) => void records.push(record))] }) });
    const tools = toAiSdkTools(toolbox);
    const model = new MockLanguageModelV3({ doGenerate: [toolCall('call-1', '/etc/passwd'), text('Deleted.')] });
    const first = await generateText({ model, tools, prompt: 'Delete it', stopWhen: stepCountIs(3) });
    const requests = first.content.filter((part) => part.type === 'tool-approval-request');
    expect(requests).toHaveLength(1);
    expect(deleted).toEqual([]);
    // The question to show a person: the one an MCP client is asked; nothing for a call not asked about.
    expect(approvalQuestionOf(tools, requests[0].toolCall)).toBe('Allow the tool delete_file to run with these arguments?\npath: "/etc/passwd"');
    expect(approvalQuestionOf(tools, { toolCallId: 'call-404' })).toBeUndefined();
    expect(approvalQuestionOf(toAiSdkTools([DeleteFile]), requests[0].toolCall)).toBeUndefined();

    const messages: ModelMessage[] = [
      { role: 'user', content: 'Delete it' },
      ...first.response.messages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: requests[0].approvalId, approved: true }] },
    ];
    const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(3) });
    expect(second.text).toBe('Deleted.');
    expect(deleted).toEqual(['/etc/passwd']);
    expect(records).toEqual([expect.objectContaining({ transport: 'ai', callId: 'call-1', outcome: 'success' })]);
  });

  it('a call the rule does not flag runs at once; a denied one never runs', async () => {
    const tools = toAiSdkTools([DeleteFile]);
    const model = new MockLanguageModelV3({ doGenerate: [toolCall('call-2', '/tmp/x'), text('Done.')] });
    await generateText({ model, tools, prompt: 'Clean up', stopWhen: stepCountIs(3) });
    expect(deleted).toEqual(['/tmp/x']);

    const denyModel = new MockLanguageModelV3({ doGenerate: [toolCall('call-3', '/etc/hosts'), text('Not deleted.')] });
    const first = await generateText({ model: denyModel, tools, prompt: 'Delete hosts', stopWhen: stepCountIs(3) });
    const request = first.content.find((part) => part.type === 'tool-approval-request')!;
    await generateText({
      model: denyModel,
      tools,
      messages: [
        { role: 'user', content: 'Delete hosts' },
        ...first.response.messages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: false }] },
      ],
      stopWhen: stepCountIs(3),
    });
    expect(deleted).toEqual(['/tmp/x']);
  });
});

// Issue 23, finding 15, in the AI SDK: the SDK runs an approved call with the input it finds in the
// messages the application passes back, so that input must be the one that was shown.
describe('AI SDK approvals run the input that was shown', () => {
  const approve = (messages: ModelMessage[], approvalId: string): ModelMessage[] => [
    ...messages,
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true }] },
  ];

  /** The messages with the tool call's input changed, in place or as a replaced part. */
  function tampered(messages: ModelMessage[], how: 'in place' | 'replaced'): ModelMessage[] {
    return messages.map((message) => {
      if (message.role !== 'assistant' || typeof message.content === 'string') return message;
      const content = message.content.map((part) => {
        if (part.type !== 'tool-call') return part;
        if (how === 'replaced') return { ...part, input: { path: '/etc/shadow' } };
        (part.input as { path: string }).path = '/etc/shadow';
        return part;
      });
      return { ...message, content };
    });
  }

  for (const how of ['in place', 'replaced'] as const) {
    it(`a tool-call input changed after the approval request (${how}) does not run; the model is told why`, async () => {
      const tools = toAiSdkTools([DeleteFile]);
      const model = new MockLanguageModelV3({ doGenerate: [toolCall('call-9', '/etc/passwd'), text('Done.')] });
      const first = await generateText({ model, tools, prompt: 'Delete it', stopWhen: stepCountIs(3) });
      const request = first.content.find((part) => part.type === 'tool-approval-request')!;
      const history: ModelMessage[] = [{ role: 'user', content: 'Delete it' }, ...first.response.messages];
      const second = await generateText({ model, tools, messages: approve(tampered(history, how), request.approvalId), stopWhen: stepCountIs(3) });
      expect(deleted).toEqual([]);
      expect(JSON.stringify(second.response.messages)).toContain(
        'The arguments of this call changed after its approval was requested, so it did not run. Ask for approval again.',
      );
    });
  }

  it('the same call, unchanged, runs once as approved', async () => {
    const tools = toAiSdkTools([DeleteFile]);
    const model = new MockLanguageModelV3({ doGenerate: [toolCall('call-10', '/etc/passwd'), text('Done.')] });
    const first = await generateText({ model, tools, prompt: 'Delete it', stopWhen: stepCountIs(3) });
    const request = first.content.find((part) => part.type === 'tool-approval-request')!;
    const history: ModelMessage[] = [{ role: 'user', content: 'Delete it' }, ...first.response.messages];
    await generateText({ model, tools, messages: approve(history, request.approvalId), stopWhen: stepCountIs(3) });
    expect(deleted).toEqual(['/etc/passwd']);
  });

  it('remembers at most 1,000 unanswered requests: past that the oldest is forgotten (then only the SDK binds it)', async () => {
    const tool = toAiSdkTools([DeleteFile]).delete_file as unknown as {
      needsApproval(input: unknown, options: object): Promise<boolean>;
      execute(input: unknown, options: object): Promise<unknown>;
    };
    const options = (toolCallId: string) => ({ toolCallId, messages: [] });
    for (let i = 0; i <= 1000; i++) expect(await tool.needsApproval({ path: `/etc/${i}` }, options(`c${i}`))).toBe(true);
    await expect(tool.execute({ path: '/etc/other' }, options('c1000'))).rejects.toThrow('changed after its approval was requested');
    await expect(tool.execute({ path: '/etc/1' }, options('c1'))).resolves.toBeDefined();
    await tool.execute({ path: '/etc/forgotten' }, options('c0'));
    expect(deleted).toEqual(['/etc/1', '/etc/forgotten']);
  });
});

// Issue 36, finding 1, in the AI SDK: a call whose arguments cannot be shown in the question is never put to a person.
describe('AI SDK approvals of arguments that cannot be shown', () => {
  beforeEach(() => (paid.length = 0));

  it('asks for no approval, and the call is refused when it runs, saying why', async () => {
    const tool = toAiSdkTools([Pay]).pay as unknown as {
      needsApproval(input: unknown, options: object): Promise<boolean>;
      execute(input: unknown, options: object): Promise<unknown>;
    };
    const options = (toolCallId: string) => ({ toolCallId, messages: [] });
    // A long memo is shortened, not refused: it is asked.
    expect(await tool.needsApproval({ memo: 'invoice-'.repeat(300), to: 'mallory-offshore', cents: 99999900 }, options('c-long'))).toBe(true);
    const notes = Array.from({ length: 400 }, (_, index) => `note ${index} `.padEnd(30, '.'));
    const huge = { memo: 'rent', to: 'alice', cents: 500, notes };
    expect(await tool.needsApproval(huge, options('c-huge'))).toBe(false);
    await expect(tool.execute(huge, options('c-huge'))).rejects.toThrow(
      "pay needs a person's approval, and its arguments cannot be shown to them in one question",
    );
    expect(paid).toEqual([]);
  });
});
