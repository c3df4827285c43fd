/**
 * Approvals through the AI SDK: a tool that needs approval becomes the SDK's own `needsApproval`
 * flow; the tool runs only after the application answers the SDK's approval request.
 */
import 'reflect-metadata';
import { generateText, ModelMessage, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { audit, AuditRecord, Expects, Field, Invoker, Tool } from 'toolwright';
import { toAiSdkTools } from 'toolwright/ai';
import { Toolbox } from 'toolwright/openai';

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
