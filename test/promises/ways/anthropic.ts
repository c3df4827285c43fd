/**
 * The Anthropic way in: the real `@anthropic-ai/sdk` client against a scripted Messages API on
 * 127.0.0.1. The model's `tool_use` block goes through `toolCalls` → `toolbox.invokeAll`; an
 * approval is the record's question, answered by `approve`/`deny`; `toToolResults` answers the model,
 * and what the caller reads is the `tool_result` the server received.
 */
import Anthropic from '@anthropic-ai/sdk';
import { toAnthropicTools, toolCalls, toToolResults } from 'toolwright/anthropic';
import { Toolbox } from 'toolwright/toolbox';
import { startScriptedServer, type RecordedRequest } from '../../adapters/openai/scripted-server';
import { TOOLS } from '../../fixtures/promises/members';
import type { Harness, Outcome } from '../harness';
import { observedInvoker } from './in-process';

const reply = (content: object[], stop_reason: string) => () => ({
  id: 'msg_scripted',
  type: 'message',
  role: 'assistant',
  model: 'claude-scripted',
  content,
  stop_reason,
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
});

export async function anthropicWay(): Promise<Harness> {
  const { invoker, shared } = observedInvoker();
  const script: Array<(request: RecordedRequest) => unknown> = [];
  const server = await startScriptedServer(script);
  const anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
  let n = 0;
  return {
    ...shared,
    async call(name, args, { answer, caller }): Promise<Outcome> {
      const toolbox = new Toolbox(TOOLS, { invoker, ambientContext: { user: caller } });
      const tools = toAnthropicTools(toolbox);
      const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'go' }];
      script.push(reply([{ type: 'tool_use', id: `toolu_${++n}`, name, input: args, caller: { type: 'direct' } }], 'tool_use'), reply([{ type: 'text', text: 'done' }], 'end_turn'));
      const response = await anthropic.messages.create({ model: 'claude-scripted', max_tokens: 64, messages, tools });
      const questions: string[] = [];
      const records = await toolbox.invokeAll(toolCalls(response));
      const answered = await Promise.all(
        records.map((record) => {
          if (record.status !== 'approval_required') return record;
          questions.push(record.question ?? 'the record has no question');
          return answer === 'approve' ? toolbox.approve(record) : toolbox.deny(record, 'the person said no');
        }),
      );
      messages.push({ role: 'assistant', content: response.content }, { role: 'user', content: toToolResults(answered) });
      await anthropic.messages.create({ model: 'claude-scripted', max_tokens: 64, messages, tools });
      // What the model read: the tool_result the server received.
      const [result] = server.requests.at(-1)!.body.messages.at(-1).content;
      return { ok: result.is_error !== true, text: typeof result.content === 'string' ? result.content : JSON.stringify(result.content), questions };
    },
    async close() {
      await shared.close();
      await server.close();
    },
  };
}
