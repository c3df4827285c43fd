/**
 * LangChain.js (toolwright/langchain): the model's tool call (from @langchain/core's fake chat model)
 * runs through the tool; a call that needs approval answers a ToolMessage whose record the
 * application shows a person (its question) and answers with the toolbox, sending
 * `toolMessageOf(answered)` to the model in its place.
 */
import { HumanMessage, type ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { recordOf, toLangChainTools, toolMessageOf } from 'toolwright/langchain';
import { Toolbox } from 'toolwright/toolbox';
import { TOOLS } from '../../fixtures/promises/members';
import type { Harness, Outcome } from '../harness';
import { observedInvoker } from './in-process';

export async function langChainWay(): Promise<Harness> {
  const { invoker, shared } = observedInvoker();
  let n = 0;
  return {
    ...shared,
    async call(name, args, { answer, caller }): Promise<Outcome> {
      const toolbox = new Toolbox(TOOLS, { invoker, ambientContext: { user: caller } });
      const tools = toLangChainTools(toolbox);
      const model = fakeModel().respondWithTools([{ name, args, id: `lc-${++n}` }]);
      const [call] = (await model.bindTools(tools).invoke([new HumanMessage('go')])).tool_calls ?? [];
      const tool = tools.find((one) => one.name === call.name);
      // A name the toolbox does not have: what the toolbox answers for it.
      const message = tool ? ((await tool.invoke(call)) as ToolMessage) : toolMessageOf(await toolbox.invoke({ id: call.id, name, arguments: args }));
      const record = recordOf(message)!;
      if (record.status !== 'approval_required') return { ok: record.status === 'completed', text: String(message.content), questions: [] };
      const questions = [record.question ?? 'the record has no question'];
      const answered = toolMessageOf(answer === 'approve' ? await toolbox.approve(record) : await toolbox.deny(record, 'the person said no'));
      return { ok: recordOf(answered)!.status === 'completed', text: String(answered.content), questions };
    },
  };
}
