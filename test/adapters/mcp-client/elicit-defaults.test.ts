/**
 * SEP-1034 on the client side: a toolwright server asks through context.elicit with a form whose
 * fields have defaults; the host accepts without answering every field; toolwright/mcp-client fills
 * the fields it left out from the form's defaults, in both revisions (2025-11-25 pushes
 * elicitation/create on the call's stream, 2026-07-28 answers the call input_required), over real
 * HTTP on 127.0.0.1.
 */
import 'reflect-metadata';
import { Expects, Tool } from 'toolwright';
import type { ElicitResult, ElicitSchema, ToolContext } from 'toolwright';
import { McpHttpHandle, serveHttp } from 'toolwright/mcp';
import { admitMcpServer, connectMcpServer, McpSecurityPolicy, McpServerConnection } from 'toolwright/mcp-client';

const FORM: ElicitSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', default: 'John Doe' },
    age: { type: 'integer', default: 30 },
    score: { type: 'number', default: 95.5 },
    status: { type: 'string', enum: ['active', 'inactive'], default: 'active' },
    verified: { type: 'boolean', default: true },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, default: ['a', 'c'] },
    nickname: { type: 'string' },
  },
};

@Tool({ name: 'profile', description: 'Asks the user to review a form with defaults; answers what it got' })
@Expects({})
class Profile {
  async call(_input: unknown, context: ToolContext): Promise<string> {
    const answer = await context.elicit('Review your profile', FORM);
    return JSON.stringify(answer);
  }
}

const security = new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['127.0.0.1'] });
let handle: McpHttpHandle;
const open: McpServerConnection[] = [];

beforeAll(async () => {
  handle = await serveHttp(
    { name: 'defaults', version: '1.0.0', tools: [Profile], requestState: { keys: ['elicit-defaults-test-key-0123456789abcdef'] } },
    { port: 0 },
  );
});
afterAll(async () => {
  for (const connection of open) await connection.close();
  await handle.close();
});

async function ask(protocol: '2025-11-25' | '2026-07-28', answer: ElicitResult): Promise<{ received: ElicitResult; asked: ElicitSchema[] }> {
  const connection = await connectMcpServer(admitMcpServer(`defaults_${open.length}`, { url: handle.url, protocol }, { security }));
  open.push(connection);
  expect(connection.negotiatedProtocol).toBe(protocol);
  const asked: ElicitSchema[] = [];
  const result = await connection.callTool('profile', {}, { input: { elicit: (_message, schema) => (asked.push(schema), answer) } });
  const text = (result.content as Array<{ type: string; text: string }>)[0].text;
  expect(result.isError).toBeFalsy();
  return { received: JSON.parse(text) as ElicitResult, asked };
}

const DEFAULTS = { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true, tags: ['a', 'c'] };

describe.each(['2025-11-25', '2026-07-28'] as const)('%s: an accepted form is filled from its defaults', (protocol) => {
  it('accepted with no content: the server receives every default (the field with none stays out)', async () => {
    const { received, asked } = await ask(protocol, { action: 'accept' });
    expect(received).toEqual({ action: 'accept', content: DEFAULTS });
    // The host is shown the form with its defaults, to pre-fill it.
    expect(asked).toEqual([FORM]);
  });

  it('accepted with some fields: those answered are kept, the others filled from their defaults', async () => {
    const { received } = await ask(protocol, { action: 'accept', content: { name: 'Ada', verified: false, nickname: 'A' } });
    expect(received).toEqual({ action: 'accept', content: { ...DEFAULTS, name: 'Ada', verified: false, nickname: 'A' } });
  });

  it('declined: nothing is filled in', async () => {
    const { received } = await ask(protocol, { action: 'decline' });
    expect(received).toEqual({ action: 'decline' });
  });
});
