/**
 * The tools the conformance suite's `input-required-result-*` scenarios (MCP 2026-07-28, SEP-2322)
 * call, as toolwright tool classes: each asks through its context; on a 2026-07-28 request the
 * server turns each ask into an input-required round (the call re-runs with the answers so far,
 * carried in the sealed requestState), keyed on the wire by the ask's `key` where the scenario names
 * one; asks made together (`Promise.all`) go out in one round. On 2025-11-25 the same tools ask over
 * the session.
 */
import 'reflect-metadata';
import { Expects, Tool } from 'toolwright';
import type { ElicitSchema, ToolContext } from 'toolwright';

const NAME: ElicitSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const CONFIRM: ElicitSchema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };

@Tool({ name: 'test_input_required_result_elicitation', description: 'Asks the user their name, then greets them' })
@Expects({})
export class InputRequiredElicitation {
  async call(_input: unknown, context: ToolContext): Promise<string> {
    const answer = await context.elicit('What is your name?', NAME, { key: 'user_name' });
    return answer.action === 'accept' ? `Hello, ${String(answer.content?.name)}!` : `No name given (${answer.action}).`;
  }
}

@Tool({ name: 'test_input_required_result_sampling', description: "Asks the caller's model a question" })
@Expects({})
export class InputRequiredSampling {
  async call(_input: unknown, context: ToolContext): Promise<string> {
    const answer = await context.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
      maxTokens: 100,
    });
    return answer.content.type === 'text' ? answer.content.text : `(${answer.content.type} answer)`;
  }
}

@Tool({ name: 'test_input_required_result_list_roots', description: 'Asks the client for its roots and lists them' })
@Expects({})
export class InputRequiredListRoots {
  async call(_input: unknown, context: ToolContext): Promise<string> {
    const roots = await context.roots({ key: 'client_roots' });
    return `Roots: ${roots.map((root) => `${root.name ?? '(unnamed)'} at ${root.uri}`).join(', ') || 'none'}`;
  }
}

@Tool({ name: 'test_input_required_result_multiple_inputs', description: "Asks the user, the caller's model and the client at once" })
@Expects({})
export class InputRequiredMultipleInputs {
  async call(_input: unknown, context: ToolContext): Promise<string> {
    const [name, greeting, roots] = await Promise.all([
      context.elicit('What is your name?', NAME, { key: 'user_name' }),
      context.sample(
        { messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 },
        { key: 'greeting' },
      ),
      context.roots({ key: 'client_roots' }),
    ]);
    const said = greeting.content.type === 'text' ? greeting.content.text : `(${greeting.content.type})`;
    return `${said} ${String(name.content?.name)} (${roots.length} roots)`;
  }
}

@Tool({ name: 'test_input_required_result_request_state', description: 'Asks for a confirmation; the answer travels in the requestState' })
@Expects({})
export class InputRequiredRequestState {
  async call(_input: unknown, context: ToolContext): Promise<string> {
    const answer = await context.elicit('Please confirm', CONFIRM);
    return `state-ok: ${answer.action === 'accept' && answer.content?.ok === true ? 'confirmed' : 'not confirmed'}`;
  }
}

@Tool({ name: 'test_input_required_result_tampered_state', description: 'Asks for a confirmation; a tampered requestState is refused' })
@Expects({})
export class InputRequiredTamperedState {
  async call(_input: unknown, context: ToolContext): Promise<string> {
    const answer = await context.elicit('Please confirm', CONFIRM);
    return answer.action === 'accept' ? 'confirmed' : 'not confirmed';
  }
}

@Tool({ name: 'test_input_required_result_multi_round', description: 'Asks two questions, one round each' })
@Expects({})
export class InputRequiredMultiRound {
  async call(_input: unknown, context: ToolContext): Promise<string> {
    const name = await context.elicit('Step 1: What is your name?', NAME);
    const color = await context.elicit('Step 2: What is your favorite color?', {
      type: 'object',
      properties: { color: { type: 'string' } },
      required: ['color'],
    });
    return `${String(name.content?.name)} likes ${String(color.content?.color)}`;
  }
}

@Tool({ name: 'test_input_required_result_capabilities', description: 'Asks only what the request says the client can answer' })
@Expects({})
export class InputRequiredCapabilities {
  async call(_input: unknown, context: ToolContext): Promise<string> {
    if (context.supports('elicit')) return `asked the user: ${(await context.elicit('What is your name?', NAME)).action}`;
    if (context.supports('sample')) {
      const answer = await context.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 20 });
      return `asked the model: ${answer.model}`;
    }
    return 'could ask nobody';
  }
}

@Tool({
  name: 'test_missing_capability',
  description: "Needs the client's sampling capability (SEP-2575: -32021 when a request does not declare it)",
})
@Expects({})
export class MissingCapability {
  async call(_input: unknown, context: ToolContext): Promise<string> {
    const answer = await context.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Reply with the single word: pong' } }],
      maxTokens: 16,
    });
    return `sampling round-trip complete (${answer.model})`;
  }
}

@Tool({
  name: 'test_streaming_elicitation',
  description: 'Asks the user mid-call (SEP-2575: on 2026-07-28 the request stream carries the input-required result, never a request of its own)',
})
@Expects({})
export class StreamingElicitation {
  async call(_input: unknown, context: ToolContext): Promise<string> {
    const answer = await context.elicit('Please provide your name', NAME);
    return answer.action === 'accept' ? `Hello, ${String(answer.content?.name)}!` : `No name given (${answer.action}).`;
  }
}

export const inputRequiredTools = [
  MissingCapability,
  StreamingElicitation,
  InputRequiredElicitation,
  InputRequiredSampling,
  InputRequiredListRoots,
  InputRequiredMultipleInputs,
  InputRequiredRequestState,
  InputRequiredTamperedState,
  InputRequiredMultiRound,
  InputRequiredCapabilities,
];
