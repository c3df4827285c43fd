/**
 * The in-process ways in: `invoke()`, the Toolbox (OpenAI function calling) and the AI SDK tools.
 * The application holds the call here, so the approval question is what the application shows a
 * person: the approver's `call`, the Toolbox's pending record, the AI SDK's approval request.
 */
import { generateText, stepCountIs, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describeTool, Invoker, type ToolCall } from 'toolwright';
import { approvalQuestionOf, toAiSdkTools } from 'toolwright/ai';
import { Toolbox } from 'toolwright/openai';
import { ledger, TOOLS, type Caller } from '../../fixtures/promises/members';
import type { Harness, Outcome, Runs } from '../harness';
import { Observer } from '../observer';

const byName = new Map(TOOLS.map((tool) => [describeTool(tool).toolName(), tool]));

/** What a person is shown for an approval in process: the call's approval question. */
const questionOf = (call: ToolCall): string => call.approvalQuestion().text;

const runs = async (): Promise<Runs> => ({ ...ledger, users: [...ledger.users] });

/** An invoker whose audit records, exception reports and console the harness observes, and the harness's shared part. */
export function observedInvoker(): { invoker: Invoker; shared: Pick<Harness, 'runs' | 'observed' | 'close'> } {
  const observer = new Observer().start();
  return {
    invoker: new Invoker(observer.invoker()),
    shared: { runs, observed: async () => observer.text(), close: async () => observer.stop() },
  };
}

export async function invokeWay(): Promise<Harness> {
  const { invoker, shared } = observedInvoker();
  return {
    ...shared,
    async call(name, args, { answer, caller }): Promise<Outcome> {
      const tool = byName.get(name);
      if (!tool) return { ok: false, text: `no tool ${name}`, questions: [] };
      const questions: string[] = [];
      const result = await invoker.invoke(tool, args, {
        ambientContext: { user: caller },
        approve: (call) => {
          questions.push(questionOf(call));
          return answer === 'approve';
        },
      });
      return { ok: result.ok, text: result.ok ? JSON.stringify(result.value ?? null) : result.message, questions };
    },
  };
}

const toolCall = (id: string, name: string, args: Record<string, unknown>) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: JSON.stringify(args) },
});

export async function toolboxWay(): Promise<Harness> {
  const { invoker, shared } = observedInvoker();
  let n = 0;
  return {
    ...shared,
    async call(name, args, { answer, caller }): Promise<Outcome> {
      const toolbox = new Toolbox(TOOLS, { invoker, ambientContext: { user: caller } });
      const record = await toolbox.invoke(toolCall(`c${++n}`, name, args));
      if (record.status !== 'approval_required') return { ok: record.status === 'completed', text: record.output, questions: [] };
      const questions = [record.question ?? 'the record has no question'];
      const answered = answer === 'approve' ? await toolbox.approve(record) : await toolbox.deny(record, 'the person said no');
      return { ok: answered.status === 'completed', text: answered.output, questions };
    },
  };
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const modelCall = (toolCallId: string, toolName: string, input: Record<string, unknown>) => ({
  content: [{ type: 'tool-call' as const, toolCallId, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
  usage,
  warnings: [],
});
const modelText = { content: [{ type: 'text' as const, text: 'done' }], finishReason: { unified: 'stop' as const, raw: 'stop' }, usage, warnings: [] };

/** The AI SDK's own loop with a scripted model: the model calls the tool once, then answers. */
export async function aiSdkWay(): Promise<Harness> {
  const { invoker, shared } = observedInvoker();
  let n = 0;
  return {
    ...shared,
    async call(name, args, { answer, caller }): Promise<Outcome> {
      const tools = toAiSdkTools(new Toolbox(TOOLS, { invoker }), { ambientContext: { user: caller } });
      const id = `ai-${++n}`;
      const model = new MockLanguageModelV3({ doGenerate: [modelCall(id, name, args), modelText, modelText] });
      const first = await generateText({ model, tools, prompt: 'go', stopWhen: stepCountIs(2) });
      const requests = first.content.filter((part) => part.type === 'tool-approval-request');
      const questions = requests.map((request) => approvalQuestionOf(tools, request.toolCall) ?? 'no question for this request');
      let result = first;
      if (requests.length > 0) {
        const messages: ModelMessage[] = [
          { role: 'user', content: 'go' },
          ...first.response.messages,
          { role: 'tool', content: requests.map((request) => ({ type: 'tool-approval-response' as const, approvalId: request.approvalId, approved: answer === 'approve' })) },
        ];
        result = await generateText({ model, tools, messages, stopWhen: stepCountIs(2) });
      }
      // What the model is handed back: the tool results of the messages (an approved call runs before the next step).
      const parts = result.response.messages.flatMap((message) => (message.role === 'tool' ? message.content : []));
      const last = parts.filter((part) => part.type === 'tool-result').at(-1);
      if (!last) return { ok: false, text: 'the tool never answered', questions };
      const output = last.output as { type: string; value: unknown };
      return { ok: output.type === 'json' || output.type === 'text', text: typeof output.value === 'string' ? output.value : JSON.stringify(output.value), questions };
    },
  };
}
