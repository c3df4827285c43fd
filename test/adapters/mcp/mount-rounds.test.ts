/**
 * A mounted remote tool that asks its client a question mid-call, called by a 2026-07-28 client
 * through input-required rounds: the remote call is sent once per approval, kept open while our
 * client answers, and the answer delivered to it; a round that cannot reach it is refused, never
 * re-sent. Remotes: toolwright servers over real HTTP on 127.0.0.1, speaking 2025-11-25 (the
 * question on the call's stream) and 2026-07-28 (its own input-required rounds).
 */
import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { DeclarationError, Expects, Field, SemanticHints, Tool, ToolContext } from 'toolwright';
import { createMcpServer, serveHttp, type McpHttpHandle, type McpRemoteMount } from 'toolwright/mcp';
import { admitMcpServer, McpSecurityPolicy } from 'toolwright/mcp-client';
import { postModernCall as post, v2Client } from '../../helpers/mcp';

const KEY = 'mount-rounds-key-0123456789abcdef-012345678';
const urls = new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['127.0.0.1'] });

/** What the remote did: charges (its side effect), runs of its tools, and who waits for a call of it to be cancelled. */
const remote = { charges: [] as string[], runs: 0, cancelled: [] as Array<() => void> };
const RECEIPT = { type: 'object' as const, properties: { email: { type: 'boolean' as const } }, required: ['email'] };

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
    context.signal.addEventListener('abort', () => remote.cancelled.splice(0).forEach((told) => told()));
    const answer = await context.elicit('Email the receipt?', RECEIPT);
    return `charged ${input.cents} to ${input.to}; receipt ${answer.action === 'accept' && answer.content?.email === true ? 'emailed' : 'kept'}`;
  }
}

/** Asks first, then charges: what a 2026-07-28 remote's own rounds need (it re-runs up to its ask). */
@Tool({ name: 'ask_charge', description: 'Asks about the receipt, then charges' })
@Expects(ChargeInput)
class AskCharge {
  async call(input: ChargeInput, context: ToolContext): Promise<string> {
    remote.runs++;
    const answer = await context.elicit('Email the receipt?', RECEIPT);
    remote.charges.push(`${input.cents} to ${input.to}`);
    return `charged ${input.cents} to ${input.to}; receipt ${answer.action === 'accept' && answer.content?.email === true ? 'emailed' : 'kept'}`;
  }
}

/** Charges, then asks two questions: our client answers them in two rounds, the remote call sent once. */
@Tool({ name: 'charge_twice_asked', description: 'Charges, then asks two questions' })
@Expects(ChargeInput)
class ChargeTwiceAsked {
  async call(input: ChargeInput, context: ToolContext): Promise<string> {
    remote.runs++;
    remote.charges.push(`${input.cents} to ${input.to}`);
    const receipt = await context.elicit('Email the receipt?', RECEIPT);
    const note = await context.elicit('A note for the payee?', { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] });
    return `charged ${input.cents} to ${input.to}; receipt ${receipt.content?.email === true ? 'emailed' : 'kept'}; note ${String(note.content?.note)}`;
  }
}

/** Says it is idempotent: safe to send again when a round cannot reach the held call. */
@Tool({ name: 'quote', description: 'Quotes a fee, asking the currency' })
@SemanticHints('idempotent')
@Expects(ChargeInput)
class Quote {
  async call(input: ChargeInput, context: ToolContext): Promise<string> {
    remote.runs++;
    const answer = await context.elicit('Which currency?', { type: 'object', properties: { currency: { type: 'string' } }, required: ['currency'] });
    return `fee for ${input.cents}: 1 ${String(answer.content?.currency)}`;
  }
}

function text(result: object): string {
  return (((result as { content?: unknown }).content as Array<{ text?: string }>) ?? []).map((part) => part.text ?? '').join('');
}

/** What our client's person answers: approve every approval, and the remote's question with `email`. */
const answers = (asked: string[]) => async (request: { params: Record<string, unknown> }) => {
  const message = String(request.params.message);
  asked.push(message);
  if (message.startsWith('Allow')) return { action: 'accept', content: { approve: true } };
  return { action: 'accept', content: message.startsWith('A note') ? { note: 'thanks' } : { email: true } };
};

let remoteServer: McpHttpHandle;
const handles: McpHttpHandle[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  remoteServer = await serveHttp({ name: 'payments', version: '1.0.0', tools: [Charge, AskCharge, ChargeTwiceAsked, Quote], requestState: { keys: [KEY] } }, { port: 0 });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  for (const handle of handles) await handle.close();
  await remoteServer.close();
});
beforeEach(() => {
  remote.charges.length = 0;
  remote.runs = 0;
  remote.cancelled.length = 0;
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
    expect(asked).toEqual(['Allow the tool pay_charge to run with these arguments?\nto: "bob"\ncents: 500', 'Email the receipt?']);
    expect(remote.charges).toEqual(['500 to bob']);
  });

  it('2026-07-28 remote: sent once, its own rounds retry it with the answer', async () => {
    const handle = await gateway('2026-07-28');
    const asked: string[] = [];
    const client = await modernClient(handle.url, asked);
    const result = await client.callTool({ name: 'pay_ask_charge', arguments: { to: 'bob', cents: 500 } });
    expect(text(result)).toBe('charged 500 to bob; receipt emailed');
    expect(asked).toEqual(['Allow the tool pay_ask_charge to run with these arguments?\nto: "bob"\ncents: 500', 'Email the receipt?']);
    expect(remote.charges).toEqual(['500 to bob']);
    // Its first run reached the question, its retry (the remote's round) ran with the answer: nothing re-sent it from the start.
    expect(remote.runs).toBe(2);
  });
});

const charge = { name: 'pay_charge', arguments: { to: 'bob', cents: 500 } };
const approved = { 'ask-1': { action: 'accept', content: { approve: true } } };
const emailed = { 'ask-2': { action: 'accept', content: { email: true } } };

/** Rounds one and two of `call` on `url` (raw 2026-07-28 requests): approved; the remote's question is asked; its requestState. */
async function upToTheQuestion(url: string, call: Record<string, unknown> = charge): Promise<string> {
  const first = await post(url, call);
  expect(Object.keys(first.result?.inputRequests ?? {})).toEqual(['ask-1']);
  const second = await post(url, { ...call, requestState: first.result!.requestState, inputResponses: approved });
  expect(second.result?.resultType).toBe('input_required');
  expect(JSON.stringify(second.result?.inputRequests)).toMatch(/"ask-2".*(Email the receipt|Which currency)/);
  return second.result!.requestState!;
}

const NOT_SENT =
  /^The tool '(charge|charge_twice_asked)' on MCP server 'pay-2025' was waiting for this answer in a call this server no longer holds .* so the call was not sent again: it may already have done its work\. Check whether it did before calling the tool again\.$/;

describe('a held remote call: at most one send per approval, whatever reaches the next round', () => {
  it('two questions: answered in two rounds, the remote call still sent once', async () => {
    const handle = await gateway('2025-11-25');
    const asked: string[] = [];
    const client = await modernClient(handle.url, asked);
    const result = await client.callTool({ name: 'pay_charge_twice_asked', arguments: { to: 'ann', cents: 9 } });
    expect(text(result)).toBe('charged 9 to ann; receipt emailed; note thanks');
    expect(asked).toEqual(['Allow the tool pay_charge_twice_asked to run with these arguments?\nto: "ann"\ncents: 9', 'Email the receipt?', 'A note for the payee?']);
    expect(remote.charges).toEqual(['9 to ann']);
    expect(remote.runs).toBe(1);
  });

  it('a round replayed after the call completed: its approval already ran the call, so nothing is sent again', async () => {
    const handle = await gateway('2025-11-25');
    const state = await upToTheQuestion(handle.url);
    const third = { ...charge, requestState: state, inputResponses: emailed };
    expect((await post(handle.url, third)).result?.content?.[0].text).toBe('charged 500 to bob; receipt emailed');
    const replayed = await post(handle.url, third);
    expect(replayed.result?.isError).toBe(true);
    // Refused before the held call is even looked for (the approving round claimed its state once).
    expect(replayed.result?.content?.[0].text).toBe(
      'The call to pay_charge was not approved: this approval already ran the call once (the round was sent again); call the tool again to be asked again. It did not run.',
    );
    expect(remote.charges).toEqual(['500 to bob']);
  });

  it('the next round on another replica (same keys): refused with a clear tool error, the remote call not sent again', async () => {
    const [first, other] = [await gateway('2025-11-25'), await gateway('2025-11-25')];
    const state = await upToTheQuestion(first.url);
    const elsewhere = await post(other.url, { ...charge, requestState: state, inputResponses: emailed });
    expect(elsewhere.result?.isError).toBe(true);
    expect(elsewhere.result?.content?.[0].text).toMatch(NOT_SENT);
    expect(remote.charges).toEqual(['500 to bob']);
  });

  it('a read-only or idempotent remote tool is sent again instead, its question answered from the recorded answer', async () => {
    const [first, other] = [await gateway('2025-11-25'), await gateway('2025-11-25')];
    const quote = { name: 'pay_quote', arguments: { to: 'bob', cents: 500 } };
    const state = await upToTheQuestion(first.url, quote);
    const elsewhere = await post(other.url, { ...quote, requestState: state, inputResponses: { 'ask-2': { action: 'accept', content: { currency: 'EUR' } } } });
    expect(elsewhere.result?.content?.[0].text).toBe('fee for 500: 1 EUR');
    expect(remote.runs).toBe(2);
  });

  it("past its lifetime (the mount's timeoutMs) the held call is cancelled; the next round is refused, nothing sent again", async () => {
    const handle = await gateway('2025-11-25', { timeoutMs: 400 });
    const cancelled = new Promise<void>((resolve) => remote.cancelled.push(resolve));
    const state = await upToTheQuestion(handle.url);
    await cancelled; // the remote saw its call cancelled
    const late = await post(handle.url, { ...charge, requestState: state, inputResponses: emailed });
    expect(late.result?.isError).toBe(true);
    expect(late.result?.content?.[0].text).toMatch(NOT_SENT);
    expect(remote.charges).toEqual(['500 to bob']);
  });

  it('past maxHeldCalls one more call that asks is cancelled and answers a tool error; the held one still completes', async () => {
    const handle = await gateway('2025-11-25', { maxHeldCalls: 1 });
    const state = await upToTheQuestion(handle.url);
    const other = { name: 'pay_charge', arguments: { to: 'eve', cents: 7 } };
    const first = await post(handle.url, other);
    const refused = await post(handle.url, { ...other, requestState: first.result!.requestState, inputResponses: approved });
    expect(refused.result?.isError).toBe(true);
    expect(refused.result?.content?.[0].text).toBe(
      "The tool 'charge' on MCP server 'pay-2025' asked a question mid-call while 1 of its server's calls were already waiting for answers (the mount's maxHeldCalls), " +
        'so it was cancelled and not asked; it may have done part of its work already. Try again later.',
    );
    expect((await post(handle.url, { ...charge, requestState: state, inputResponses: emailed })).result?.content?.[0].text).toBe(
      'charged 500 to bob; receipt emailed',
    );
    expect(remote.charges).toEqual(['500 to bob', '7 to eve']);
  });

  it('maxHeldCalls is checked: a whole number from 1 to 10,000', () => {
    const server = admitMcpServer('pay', { url: remoteServer.url }, { security: urls });
    for (const bad of [0, 1.5, '3', 10_001]) {
      expect(() => createMcpServer({ name: 'g', version: '1', tools: [], mounts: [{ namespace: 'pay', server, maxHeldCalls: bad as number }] })).toThrow(
        new DeclarationError(`createMcpServer: mounts[0].maxHeldCalls must be a whole number from 1 to 10000; got ${typeof bad === 'string' ? `'${bad}'` : bad}.`),
      );
    }
  });
});
