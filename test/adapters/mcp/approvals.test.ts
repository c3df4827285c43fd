/**
 * Approvals over MCP: an elicitation confirmation when the client supports it; otherwise a clear
 * refusal, unless the server relies on the client's own confirmation UI.
 */
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { Expects, Field, Tool } from 'toolwright';
import { createMcpServer, McpServerOptions } from 'toolwright/mcp';

class DropInput {
  @Field() table!: string;
  @Field({ sensitive: true }) password!: string;
}

const dropped: string[] = [];

@Tool('mcp', { name: 'drop_table', approval: 'required' })
@Expects(DropInput)
class DropTable {
  call(input: DropInput) {
    dropped.push(input.table);
    return undefined;
  }
}

async function connect(options: Partial<McpServerOptions>, answer?: (request: ElicitRequest) => ElicitResult) {
  const server = createMcpServer({ name: 'db', version: '1.0.0', tools: [DropTable], ...options });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: answer ? { elicitation: { form: {} } } : {} });
  const asked: ElicitRequest[] = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request);
      return answer(request);
    });
  }
  await client.connect(clientTransport);
  return { client, asked, close: () => client.close() };
}

const args = { name: 'drop_table', arguments: { table: 'users', password: 'hunter2' } };

beforeEach(() => (dropped.length = 0));

describe('MCP approvals', () => {
  it('asks through elicitation, showing the input with sensitive fields redacted; accepted, the tool runs', async () => {
    const { client, asked, close } = await connect({}, () => ({ action: 'accept', content: { approve: true } }));
    const result = await client.callTool(args);
    await close();
    expect(result.isError).toBeFalsy();
    expect(dropped).toEqual(['users']);
    expect(asked[0].params.message).toBe('Allow the tool drop_table to run with {"table":"users","password":"[redacted]"}?');
    expect((asked[0].params as { requestedSchema?: unknown }).requestedSchema).toMatchObject({ properties: { approve: { type: 'boolean' } }, required: ['approve'] });
  });

  it('declined, cancelled or unticked: the tool never runs and the model reads why', async () => {
    const answers: ElicitResult[] = [{ action: 'decline' }, { action: 'cancel' }, { action: 'accept', content: { approve: false } }];
    const texts: string[] = [];
    for (const answer of answers) {
      const { client, close } = await connect({}, () => answer);
      const result = await client.callTool(args);
      await close();
      expect(result.isError).toBe(true);
      texts.push((result.content as Array<{ text: string }>)[0].text);
    }
    expect(texts).toEqual([
      'The call to drop_table was not approved: the user declined. It did not run.',
      'The call to drop_table was not approved: the user dismissed the request. It did not run.',
      'The call to drop_table was not approved: the user did not tick approve. It did not run.',
    ]);
    expect(dropped).toEqual([]);
  });

  it('a client without elicitation gets a clear refusal, unless the server trusts the client’s own confirmation', async () => {
    const refused = await connect({});
    const result = await refused.client.callTool(args);
    await refused.close();
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: "drop_table needs a person's approval, and this client cannot be asked (it does not support elicitation), so it did not run." }],
    });
    expect(dropped).toEqual([]);

    const trusting = await connect({ trustClientConfirmation: true });
    expect((await trusting.client.callTool(args)).isError).toBeFalsy();
    await trusting.close();
    expect(dropped).toEqual(['users']);
    expect(() => createMcpServer({ name: 'db', version: '1', trustClientConfirmation: 'yes' as unknown as boolean })).toThrow(
      "createMcpServer: trustClientConfirmation must be true or false; got 'yes'.",
    );
  });

  it('a question nobody answers within approvalTimeoutMs is not approved, and the tool never runs', async () => {
    const { client, close } = await connect({ approvalTimeoutMs: 30 }, () => new Promise<ElicitResult>(() => undefined) as never);
    const result = await client.callTool(args);
    await close();
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'The call to drop_table was not approved: nobody answered in time. It did not run.' }],
    });
    expect(dropped).toEqual([]);
    expect(() => createMcpServer({ name: 'db', version: '1', approvalTimeoutMs: 0 })).toThrow(
      'createMcpServer: approvalTimeoutMs must be a whole number of milliseconds of at least 1; got 0.',
    );
  });
});
