/**
 * A mounted remote tool that asks its client a question mid-call, called by a 2026-07-28 client
 * through input-required rounds: the remote call is sent once per approval, kept open while our
 * client answers, and the answer delivered to it; a round that cannot reach it is refused, never
 * re-sent. Remotes: toolwright servers over real HTTP on 127.0.0.1, speaking 2025-11-25 (the
 * question on the call's stream) and 2026-07-28 (its own input-required rounds).
 */
import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Expects, Field, Tool, ToolContext } from 'toolwright';
import { serveHttp, type McpHttpHandle, type McpRemoteMount } from 'toolwright/mcp';
import { admitMcpServer, McpSecurityPolicy } from 'toolwright/mcp-client';
import { v2Client } from '../../helpers/mcp';

const KEY = 'mount-rounds-key-0123456789abcdef-012345678';
const urls = new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['127.0.0.1'] });

/** What the remote did: charges (its side effect) and runs of its tools. */
const remote = { charges: [] as string[], runs: 0 };

class ChargeInput {
  @Field() to!: string;
  @Field() cents!: number;
}

/** Charges first, then asks where to send the receipt: a side effect before the question. No annotations: destructive under MCP's defaults. */
@Tool({ name: 'charge', description: 'Charges a card, then asks about the receipt' })
@Expects(ChargeInput)
class Charge {
  async call(input: ChargeInput, context: ToolContext): Promise<string> {
    remote.runs++;
    remote.charges.push(`${input.cents} to ${input.to}`);
    const answer = await context.elicit('Email the receipt?', { type: 'object', properties: { email: { type: 'boolean' } }, required: ['email'] });
    return `charged ${input.cents} to ${input.to}; receipt ${answer.action === 'accept' && answer.content?.email === true ? 'emailed' : 'kept'}`;
  }
}

/** Asks first, then charges: what a 2026-07-28 remote's own rounds need (it re-runs up to its ask). */
@Tool({ name: 'ask_charge', description: 'Asks about the receipt, then charges' })
@Expects(ChargeInput)
class AskCharge {
  async call(input: ChargeInput, context: ToolContext): Promise<string> {
    remote.runs++;
    const answer = await context.elicit('Email the receipt?', { type: 'object', properties: { email: { type: 'boolean' } }, required: ['email'] });
    remote.charges.push(`${input.cents} to ${input.to}`);
    return `charged ${input.cents} to ${input.to}; receipt ${answer.action === 'accept' && answer.content?.email === true ? 'emailed' : 'kept'}`;
  }
}

function text(result: object): string {
  return (((result as { content?: unknown }).content as Array<{ text?: string }>) ?? []).map((part) => part.text ?? '').join('');
}

/** What our client's person answers: approve every approval, and the remote's question with `email`. */
const answers = (asked: string[]) => async (request: { params: Record<string, unknown> }) => {
  const message = String(request.params.message);
  asked.push(message);
  return message.startsWith('Allow') ? { action: 'accept', content: { approve: true } } : { action: 'accept', content: { email: true } };
};

let remoteServer: McpHttpHandle;
const handles: McpHttpHandle[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  remoteServer = await serveHttp({ name: 'payments', version: '1.0.0', tools: [Charge, AskCharge], requestState: { keys: [KEY] } }, { port: 0 });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  for (const handle of handles) await handle.close();
  await remoteServer.close();
});
beforeEach(() => {
  remote.charges.length = 0;
  remote.runs = 0;
});

async function gateway(protocol: '2025-11-25' | '2026-07-28', mount: Partial<McpRemoteMount> = {}): Promise<McpHttpHandle> {
  const server = admitMcpServer(`pay-${protocol.slice(0, 4)}`, { url: remoteServer.url, protocol }, { security: urls });
  const handle = await serveHttp(
    {
      name: 'gateway',
      version: '1.0.0',
      tools: [],
      mounts: [{ namespace: 'pay', server, ...mount }],
      invoker: { requireApprovalForDestructive: true },
      requestState: { keys: [KEY] },
    },
    { port: 0 },
  );
  handles.push(handle);
  return handle;
}

async function modernClient(url: string, asked: string[]): Promise<Client> {
  const client = v2Client('person', 'pin', { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', answers(asked) as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

describe('a mounted remote tool that asks mid-call, called on 2026-07-28', () => {
  it('2025-11-25 remote: approved once, sent once; its question answered through our next round', async () => {
    const handle = await gateway('2025-11-25');
    const asked: string[] = [];
    const client = await modernClient(handle.url, asked);
    const result = await client.callTool({ name: 'pay_charge', arguments: { to: 'bob', cents: 500 } });
    expect(text(result)).toBe('charged 500 to bob; receipt emailed');
    expect(asked).toEqual(['Allow the tool pay_charge to run with {"to":"bob","cents":500}?', 'Email the receipt?']);
    expect(remote.charges).toEqual(['500 to bob']);
  });

  it('2026-07-28 remote: sent once, its own rounds retry it with the answer', async () => {
    const handle = await gateway('2026-07-28');
    const asked: string[] = [];
    const client = await modernClient(handle.url, asked);
    const result = await client.callTool({ name: 'pay_ask_charge', arguments: { to: 'bob', cents: 500 } });
    expect(text(result)).toBe('charged 500 to bob; receipt emailed');
    expect(asked).toEqual(['Allow the tool pay_ask_charge to run with {"to":"bob","cents":500}?', 'Email the receipt?']);
    expect(remote.charges).toEqual(['500 to bob']);
    // Its first run reached the question, its retry (the remote's round) ran with the answer: nothing re-sent it from the start.
    expect(remote.runs).toBe(2);
  });
});
