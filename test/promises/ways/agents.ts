/**
 * The OpenAI Agents SDK (toolwright/agents): its Runner with a ScriptedModel that calls the tool
 * once, then answers. A call that needs approval interrupts the run; the application shows a
 * person `approvalQuestionOf(tools, item)`, approves or rejects the item on the run's state, and
 * runs it again. The model reads text only, so a call went well when it read the tool's JSON value.
 */
import { Agent, run } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { approvalQuestionOf, toAgentsTools } from 'toolwright/agents';
import { Toolbox } from 'toolwright/toolbox';
import { TOOLS } from '../../fixtures/promises/members';
import type { Harness, Outcome } from '../harness';
import { observedInvoker } from './in-process';

/** The text of the last tool output the model was handed. */
function lastOutput(model: ScriptedModel): string {
  const items = (model.lastCall?.request.input ?? []) as Array<{ type?: string; output?: unknown }>;
  const output = items.filter((item) => item.type === 'function_call_result').at(-1)?.output as { text?: string } | string | undefined;
  return typeof output === 'string' ? output : (output?.text ?? 'the tool never answered');
}

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

export async function agentsWay(): Promise<Harness> {
  const { invoker, shared } = observedInvoker();
  let n = 0;
  return {
    ...shared,
    async call(name, args, { answer, caller }): Promise<Outcome> {
      const tools = toAgentsTools(new Toolbox(TOOLS, { invoker, ambientContext: { user: caller } }));
      const model = new ScriptedModel([[functionCall(name, args, { callId: `ag-${++n}` })], [assistantMessage('done')]]);
      const agent = new Agent({ name: 'promises', model, tools });
      let result = await run(agent, 'go');
      const questions = result.interruptions.map((item) => approvalQuestionOf(tools, item) ?? 'no question for this interruption');
      if (result.interruptions.length > 0) {
        for (const item of result.interruptions) (answer === 'approve' ? result.state.approve(item) : result.state.reject(item));
        result = await run(agent, result.state);
      }
      const text = lastOutput(model);
      return { ok: isJson(text), text, questions };
    },
  };
}
