/**
 * A stateless MCP 2025-11-25 server asks the client mid-call: a tools/call answers over SSE, the
 * server's request goes out on that stream under an unguessable id, and the client's answer (a later
 * POST, which reaches another per-request server) is handed to the server that asked, only when it
 * comes from the same caller. Found by the conformance suite's sampling and elicitation scenarios in
 * stateless mode. A prompt (one JSON body, no stream) still cannot ask, and says why.
 */
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Expects, Prompt, Tool, ToolContext } from 'toolwright';
import { HttpServeOptions, McpHttpHandle, serveHttp } from 'toolwright/mcp';
import { scopedTokens } from '../../helpers/mcp';

const outcome = async (ask: () => Promise<unknown>) =>
  ask().then(
    (answer) => answer,
    (error: Error) => `refused: ${error.message}`,
  );
const FORM = { type: 'object', properties: { yes: { type: 'boolean' } } } as const;

@Tool({ description: 'Asks the user, then the model, then for the roots, and reports what it got' })
@Expects({})
class AskAround {
  async call(_input: unknown, context: ToolContext) {
    return {
      supports: { elicit: context.supports('elicit'), sample: context.supports('sample'), roots: context.supports('roots') },
      elicit: await outcome(() => context.elicit('Sure?', FORM)),
      sample: await outcome(async () => (await context.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 })).content),
      roots: await outcome(() => context.roots()),
    };
  }
}

@Tool({ description: 'Asks the user and the model at once' })
@Expects({})
class AskTwiceAtOnce {
  async call(_input: unknown, context: ToolContext) {
    const [elicit, sample] = await Promise.all([
      outcome(() => context.elicit('Sure?', FORM)),
      outcome(() => context.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 })),
    ]);
    return { elicit, sample: typeof sample === 'string' ? sample : 'asked' };
  }
}

@Tool('mcp', { name: 'wipe', approval: 'required' })
@Expects({})
class Wipe {
  call() {
    return 'wiped';
  }
}

@Prompt({ name: 'interview' })
@Expects({})
class Interview {
  async call(_input: unknown, context: ToolContext): Promise<string> {
    return String(await outcome(() => context.elicit('Which book?', FORM)));
  }
}

let handle: McpHttpHandle;
const clients: Client[] = [];

async function serve(stateless: boolean, http: HttpServeOptions = {}, approvalTimeoutMs?: number): Promise<void> {
  const tools = [AskAround, AskTwiceAtOnce, Wipe];
  handle = await serveHttp({ name: 'ask', version: '1.0.0', tools, prompts: [Interview], ...(approvalTimeoutMs ? { approvalTimeoutMs } : {}) }, { port: 0, stateless, ...http });
}

type ElicitHandler = (id: string | number, signal: AbortSignal) => Promise<{ action: 'accept'; content: Record<string, unknown> }>;

async function connect(
  token?: string,
  onElicit: ElicitHandler = async () => ({ action: 'accept', content: { yes: true } }),
  { offers = true } = {},
): Promise<Client> {
  const client = new Client({ name: 'asker', version: '1.0.0' }, { capabilities: offers ? { sampling: {}, elicitation: { form: {} }, roots: {} } : {} });
  if (offers) {
    client.setRequestHandler(ElicitRequestSchema, (_request, extra) => onElicit(extra.requestId, extra.signal));
    client.setRequestHandler(CreateMessageRequestSchema, () => ({ role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm' }));
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
  }
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await handle.close();
});

async function call(client: Client, name: string): Promise<unknown> {
  const result = await client.callTool({ name, arguments: {} });
  return result.structuredContent ?? JSON.parse((result.content as Array<{ text: string }>)[0].text);
}

/** A JSON-RPC response POSTed as `token`'s caller, as a client answers a server's request: the HTTP status and body. */
async function postAnswer(id: string | number, token: string): Promise<{ status: number; body: string }> {
  const response = await fetch(handle.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, result: { action: 'accept', content: { yes: false } } }),
  });
  return { status: response.status, body: await response.text() };
}

const ASKED = {
  supports: { elicit: true, sample: true, roots: true },
  elicit: { action: 'accept', content: { yes: true } },
  sample: { type: 'text', text: 'Hello' },
  roots: [{ uri: 'file:///work', name: 'work' }],
};

it('in session mode the client is asked (the control)', async () => {
  await serve(false);
  expect(await call(await connect(), 'ask_around')).toEqual(ASKED);
});

it('in stateless mode a tool call asks the user, the model and for the roots, each answer reaching the server that asked', async () => {
  await serve(true);
  expect(await call(await connect(), 'ask_around')).toEqual(ASKED);
});

it("an answer from another caller, or under a guessed id, is not delivered and is answered as one to nothing", async () => {
  await serve(true, { auth: scopedTokens({ alice: [], mallory: [] }) });
  const seen: Array<{ id: string | number; other: unknown; guessed: unknown; own: unknown }> = [];
  const alice = await connect('alice', async (id) => {
    // The wire id is 128 random bits, not the server's counter.
    const other = await postAnswer(id, 'mallory');
    const guessed = await postAnswer(typeof id === 'string' ? `${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}` : id + 1, 'alice');
    const own = await postAnswer(0, 'alice');
    seen.push({ id, other, guessed, own });
    return { action: 'accept', content: { yes: true } };
  });
  const answer = (await call(alice, 'ask_around')) as typeof ASKED;
  // Mallory's and the guessed answers (yes: false) were dropped: the tool got Alice's own.
  expect(answer.elicit).toEqual({ action: 'accept', content: { yes: true } });
  const [{ id, other, guessed, own }] = seen;
  expect(typeof id).toBe('string');
  expect(String(id)).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect(other).toEqual({ status: 202, body: '' });
  expect(guessed).toEqual(other);
  expect(own).toEqual(other);
});

it('past maxPendingAsks an ask is refused saying so; an answered ask frees its place', async () => {
  await serve(true, { maxPendingAsks: 1 });
  const client = await connect();
  const answer = (await call(client, 'ask_twice_at_once')) as { elicit: unknown; sample: string };
  expect(answer.elicit).toEqual({ action: 'accept', content: { yes: true } });
  expect(answer.sample).toMatch(/^refused: .*1 requests of stateless calls .* waiting .*\(maxPendingAsks\).*sampling\/createMessage/);
  expect(await call(client, 'ask_around')).toEqual(ASKED);
});

it('a client that cannot answer an ask (the server cannot know: it never saw initialize) answers an error, which the ask rejects with', async () => {
  await serve(true);
  const answer = (await call(await connect(undefined, undefined, { offers: false }), 'ask_around')) as Record<string, unknown>;
  expect(answer.supports).toEqual({ elicit: true, sample: true, roots: true });
  for (const ask of ['elicit', 'sample', 'roots']) expect(answer[ask]).toMatch(/^refused: .*Method not found/);
});

it('an ask the server gives up on (approvalTimeoutMs) is cancelled under the id the client was asked with, and frees its place', async () => {
  await serve(true, { maxPendingAsks: 1 }, 30);
  const cancelled: Array<string | number> = [];
  let first = true;
  const client = await connect(undefined, (id, signal) => {
    if (!first) return Promise.resolve({ action: 'accept', content: { yes: true } });
    first = false;
    // Never answered: the client's request handler is aborted by the server's notifications/cancelled.
    return new Promise((_resolve, reject) => signal.addEventListener('abort', () => (cancelled.push(id), reject(signal.reason))));
  });
  const result = await client.callTool({ name: 'wipe', arguments: {} });
  expect(result.isError).toBe(true);
  expect(cancelled).toHaveLength(1);
  expect(await call(client, 'ask_around')).toEqual(ASKED);
});

it('a prompt of a stateless server (one JSON body) cannot ask, and says why and what to do', async () => {
  await serve(true);
  const client = await connect();
  const result = await client.getPrompt({ name: 'interview', arguments: {} });
  const text = (result.messages[0].content as { text: string }).text;
  expect(text).toMatch(/^refused: .*stateless.*only a tools\/call answers over SSE.*ask from a tool, serve with sessions/);
});

it('maxPendingAsks must be a positive whole number', async () => {
  await expect(serveHttp({ name: 'ask', version: '1.0.0', tools: [AskAround] }, { port: 0, stateless: true, maxPendingAsks: 0 })).rejects.toThrow(
    /'maxPendingAsks' must be a positive whole number; got 0/,
  );
  handle = await serveHttp({ name: 'ask', version: '1.0.0', tools: [AskAround] }, { port: 0 });
});
