/**
 * Approvals over MCP: an elicitation confirmation when the client supports it; otherwise a clear
 * refusal, unless the server relies on the client's own confirmation UI.
 */
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { APPROVAL_QUESTION_LIMITS, Expects, Field, Tool } from 'toolwright';
import { createMcpServer, McpServerOptions } from 'toolwright/mcp';
// Issue 36, finding 1: `pay`, whose long first argument pushed the recipient and the amount out of the question.
import { paid, Pay } from '../../fixtures/mcp-rounds/tools';

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
  const server = createMcpServer({ name: 'db', version: '1.0.0', tools: [DropTable, Pay], ...options });
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

beforeEach(() => {
  dropped.length = 0;
  paid.length = 0;
});

describe('MCP approvals', () => {
  it('asks through elicitation, showing the input with sensitive fields redacted; accepted, the tool runs', async () => {
    const { client, asked, close } = await connect({}, () => ({ action: 'accept', content: { approve: true } }));
    const result = await client.callTool(args);
    await close();
    expect(result.isError).toBeFalsy();
    expect(dropped).toEqual(['users']);
    expect(asked[0].params.message).toBe('Allow the tool drop_table to run with these arguments?\ntable: "users"\npassword: "[redacted]"');
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

  // The memo of the finding's attack: 2,400 characters of filler before the recipient and the amount.
  const memo = 'invoice-'.repeat(300);
  const attack = { name: 'pay', arguments: { memo, to: 'mallory-offshore', cents: 99999900 } };
  const shortenedMemo = `"${'invoice-'.repeat(12)}invo" … [2,260 of 2,400 characters not shown] … "${'invoice-'.repeat(5)}"`;

  it('a long first argument is shortened in its middle with its length; the recipient and the amount after it are shown', async () => {
    const { client, asked, close } = await connect({}, () => ({ action: 'accept', content: { approve: true } }));
    expect((await client.callTool(attack)).isError).toBeFalsy();
    await close();
    expect(asked[0].params.message).toBe(
      `Allow the tool pay to run with these arguments?\nmemo: ${shortenedMemo}\nto: "mallory-offshore"\ncents: 99999900`,
    );
    // What ran is what was asked about, the whole memo included.
    expect(paid).toEqual([{ memo, to: 'mallory-offshore', cents: 99999900 }]);
  });

  it('the form shows every argument as a one-choice field beside the approve checkbox; only approve is read back', async () => {
    const { client, asked, close } = await connect({}, () => ({ action: 'accept', content: { approve: true } }));
    await client.callTool(attack);
    await close();
    const schema = (asked[0].params as { requestedSchema?: { properties: Record<string, unknown>; required: string[] } }).requestedSchema!;
    expect(schema).toEqual({
      type: 'object',
      properties: {
        argument1: { type: 'string', title: 'memo', enum: [shortenedMemo], default: shortenedMemo },
        argument2: { type: 'string', title: 'to', enum: ['"mallory-offshore"'], default: '"mallory-offshore"' },
        argument3: { type: 'string', title: 'cents', enum: ['99999900'], default: '99999900' },
        approve: { type: 'boolean', title: 'Approve', description: 'Run pay now with the arguments above', default: false },
      },
      required: ['approve'],
    });
  });

  it('arguments that cannot be shown within the limit are refused, not asked, and never run', async () => {
    const { client, asked, close } = await connect({}, () => ({ action: 'accept', content: { approve: true } }));
    const notes = Array.from({ length: 400 }, (_, index) => `note ${index} `.padEnd(30, '.'));
    const result = await client.callTool({ name: 'pay', arguments: { memo: 'rent', to: 'alice', cents: 500, notes } });
    await close();
    expect(result).toMatchObject({ isError: true });
    expect((result.content as Array<{ text: string }>)[0].text).toBe(
      `pay needs a person's approval, and its arguments cannot be shown to them in one question: shown, they take more than ${APPROVAL_QUESTION_LIMITS.maxShownChars.toLocaleString('en-US')} characters (each long text already shortened to ${APPROVAL_QUESTION_LIMITS.keptHeadChars + APPROVAL_QUESTION_LIMITS.keptTailChars} of its characters), so nobody was asked and it did not run. Call it with fewer or shorter arguments, or split the work into several calls.`,
    );
    expect(asked).toEqual([]);
    expect(paid).toEqual([]);
  });
});
