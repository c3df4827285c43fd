/**
 * A stateless server cannot ask the client anything (no session: it never saw the client's
 * initialize, and the answer would reach another server). context.elicit/sample say so and name
 * the fix, instead of blaming the client's capabilities. Found by the conformance suite's
 * sampling and elicitation scenarios in stateless mode.
 */
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Expects, Tool, ToolContext } from 'toolwright';
import { McpHttpHandle, serveHttp } from 'toolwright/mcp';

@Tool({ description: 'Asks the user, then the model, and reports what it could do' })
@Expects({})
class AskAround {
  async call(_input: unknown, context: ToolContext) {
    const outcome = async (ask: () => Promise<unknown>) => ask().then(() => 'asked', (error: Error) => error.message);
    return {
      supports: { elicit: context.supports('elicit'), sample: context.supports('sample') },
      elicit: await outcome(() => context.elicit('Sure?', { type: 'object', properties: { yes: { type: 'boolean' } } })),
      sample: await outcome(() => context.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 })),
    };
  }
}

let handle: McpHttpHandle;
let client: Client;

async function connect(stateless: boolean): Promise<void> {
  handle = await serveHttp({ name: 'ask', version: '1.0.0', tools: [AskAround] }, { port: 0, stateless });
  client = new Client({ name: 'asker', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { yes: true } }));
  client.setRequestHandler(CreateMessageRequestSchema, () => ({ role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm' }));
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
}

afterEach(async () => {
  await client.close();
  await handle.close();
});

async function askAround(): Promise<unknown> {
  const result = await client.callTool({ name: 'ask_around', arguments: {} });
  return result.structuredContent ?? JSON.parse((result.content as Array<{ text: string }>)[0].text);
}

it('in session mode the same client is asked (the control)', async () => {
  await connect(false);
  expect(await askAround()).toEqual({ supports: { elicit: true, sample: true }, elicit: 'asked', sample: 'asked' });
});

it('in stateless mode elicit and sample fail saying the server is stateless and how to fix it', async () => {
  await connect(true);
  const answer = (await askAround()) as { supports: unknown; elicit: string; sample: string };
  expect(answer.supports).toEqual({ elicit: false, sample: false });
  for (const message of [answer.elicit, answer.sample]) {
    expect(message).toContain('stateless');
    expect(message).toContain('serve with sessions');
    expect(message).not.toContain('did not declare');
  }
});
