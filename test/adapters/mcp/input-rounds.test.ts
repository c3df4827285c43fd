/**
 * The tool context on MCP 2026-07-28, where there is no session: context.elicit(), context.sample()
 * and approvals work through input-required rounds (the call re-runs with the answers recorded so
 * far, carried in the sealed requestState), as far as the request declares the capability. The SDK
 * 2.x Client pinned to 2026-07-28 answers the rounds with its registered handlers, over real HTTP on
 * 127.0.0.1 and over stdio. 2025-11-25 clients on the same endpoint keep the session push.
 */
import 'reflect-metadata';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { configure } from 'toolwright';
import { McpHttpHandle, serveHttp } from 'toolwright/mcp';
import { paid, roundTools, runs, topic, wiped } from '../../fixtures/mcp-rounds/tools';
import { connectStdioFixture, v2Client } from '../../helpers/mcp';

const KEY = 'rounds-test-key-0123456789abcdef-0123456789';

type Answer = (params: Record<string, unknown>) => unknown;
interface Handlers {
  elicit?: Answer;
  sample?: Answer;
  roots?: Answer;
}

/**
 * A client answering with `handlers`; `asked` records each request's params, `keys` each one's id
 * (on 2026-07-28 the SDK fulfils an input request with its inputRequests key as the request id).
 */
function client(handlers: Handlers, mode: 'pin' | 'legacy' = 'pin'): { client: Client; asked: Array<Record<string, unknown>>; keys: unknown[] } {
  const asked: Array<Record<string, unknown>> = [];
  const keys: unknown[] = [];
  const capabilities = {
    ...(handlers.elicit ? { elicitation: { form: {} } } : {}),
    ...(handlers.sample ? { sampling: {} } : {}),
    ...(handlers.roots ? { roots: {} } : {}),
  };
  const created = v2Client('rounds', mode, { capabilities });
  const methods = { elicit: 'elicitation/create', sample: 'sampling/createMessage', roots: 'roots/list' } as const;
  for (const kind of ['elicit', 'sample', 'roots'] as const) {
    const answer = handlers[kind];
    if (!answer) continue;
    created.setRequestHandler(methods[kind] as 'elicitation/create', async (request, ctx) => {
      asked.push((request.params ?? {}) as Record<string, unknown>);
      keys.push(ctx.mcpReq.id);
      return answer((request.params ?? {}) as Record<string, unknown>) as never;
    });
  }
  return { client: created, asked, keys };
}

function text(result: object): string {
  return (((result as { content?: unknown }).content as Array<{ text?: string }>) ?? []).map((part) => part.text ?? '').join('');
}

const name = (value: string): Answer => () => ({ action: 'accept', content: { name: value } });

let handle: McpHttpHandle;
const open: Client[] = [];

beforeAll(async () => {
  handle = await serveHttp(
    { name: 'rounds', version: '1.0.0', tools: roundTools, ambientContext: () => ({ officer: 'o-7' }), requestState: { keys: [KEY], maxRounds: 3 } },
    { port: 0 },
  );
});
afterAll(async () => {
  await Promise.all(open.map((each) => each.close().catch(() => undefined)));
  await handle.close();
});
beforeEach(() => {
  for (const key of Object.keys(runs)) delete runs[key];
  wiped.length = 0;
  paid.length = 0;
});

async function connect(handlers: Handlers, mode: 'pin' | 'legacy' = 'pin') {
  const made = client(handlers, mode);
  await made.client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
  open.push(made.client);
  expect(made.client.getProtocolEra()).toBe(mode === 'pin' ? 'modern' : 'legacy');
  return made;
}

describe('2026-07-28 input-required rounds over HTTP', () => {
  it('elicitation: the call is answered input-required, the client asks its user, the retry runs the tool again with the answer', async () => {
    const { client: modern, asked } = await connect({ elicit: name('Ada') });
    const result = await modern.callTool({ name: 'greet', arguments: { greeting: 'hello' } });
    expect(text(result)).toBe('hello Ada');
    expect(asked).toEqual([expect.objectContaining({ message: 'Your name?', requestedSchema: expect.objectContaining({ required: ['name'] }) })]);
    expect(runs.greet).toBe(2); // once to reach the ask, once with its answer
  });

  it('a declined elicitation reaches the tool as declined', async () => {
    const { client: modern } = await connect({ elicit: () => ({ action: 'decline' }) });
    expect(text(await modern.callTool({ name: 'greet', arguments: { greeting: 'hello' } }))).toBe('no name (decline)');
  });

  it("sampling: the caller's model answers through a round", async () => {
    const { client: modern, asked } = await connect({
      sample: () => ({ role: 'assistant', model: 'host-model', content: { type: 'text', text: 'short' } }),
    });
    expect(text(await modern.callTool({ name: 'summarize', arguments: { text: 'a long text' } }))).toBe('host-model: short');
    expect(asked).toEqual([expect.objectContaining({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarize: a long text' } }], maxTokens: 50 })]);
  });

  it('two asks in one call take two rounds; the second question sees the first answer', async () => {
    const { client: modern, asked } = await connect({
      elicit: (params) => ({ action: 'accept', content: String(params.message).startsWith('Your') ? { name: 'Ada' } : { color: 'teal' } }),
    });
    expect(text(await modern.callTool({ name: 'pair', arguments: {} }))).toBe('Ada likes teal');
    expect(asked.map((params) => params.message)).toEqual(['Your name?', 'Favourite colour, Ada?']);
    expect(runs.pair).toBe(3);
  });

  it('approval approved: asked with the sensitive input redacted, then the tool runs once', async () => {
    const { client: modern, asked } = await connect({ elicit: () => ({ action: 'accept', content: { approve: true } }) });
    const result = await modern.callTool({ name: 'wipe', arguments: { table: 'users', password: 'hunter2' } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('wiped users');
    expect(asked.map((params) => params.message)).toEqual(['Allow the tool wipe to run with these arguments?\ntable: "users"\npassword: "[redacted]"']);
    expect(runs.wipe).toBe(1);
    expect(wiped).toEqual(['users']);
  });

  it('approval of a call with a long first argument: the round asks with every argument shown, the long one shortened in its middle', async () => {
    const { client: modern, asked } = await connect({ elicit: () => ({ action: 'accept', content: { approve: true } }) });
    const memo = 'invoice-'.repeat(300);
    const result = await modern.callTool({ name: 'pay', arguments: { memo, to: 'mallory-offshore', cents: 99999900 } });
    expect(text(result)).toBe('paid 99999900 to mallory-offshore');
    const shortened = `"${'invoice-'.repeat(12)}invo" … [2,260 of 2,400 characters not shown] … "${'invoice-'.repeat(5)}"`;
    expect(asked.map((params) => params.message)).toEqual([
      `Allow the tool pay to run with these arguments?\nmemo: ${shortened}\nto: "mallory-offshore"\ncents: 99999900`,
    ]);
    expect(asked[0].requestedSchema).toMatchObject({
      properties: {
        argument1: { title: 'memo', enum: [shortened] },
        argument2: { title: 'to', enum: ['"mallory-offshore"'] },
        argument3: { title: 'cents', enum: ['99999900'] },
        approve: { type: 'boolean' },
      },
      required: ['approve'],
    });
    expect(paid).toEqual([{ memo, to: 'mallory-offshore', cents: 99999900 }]);
  });

  it.each([
    [{ action: 'decline' }, 'the user declined'],
    [{ action: 'cancel' }, 'the user dismissed the request'],
    [{ action: 'accept', content: { approve: false } }, 'the user did not tick approve'],
  ])('approval answered %j: the tool never runs and the model reads why', async (answer, why) => {
    const { client: modern } = await connect({ elicit: () => answer });
    const result = await modern.callTool({ name: 'wipe', arguments: { table: 'users', password: 'hunter2' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(why);
    expect(runs.wipe).toBeUndefined();
  });

  it('a client that declares neither capability: supports() says no, an ask is answered -32021, an approval is refused', async () => {
    const { client: modern } = await connect({});
    expect(text(await modern.callTool({ name: 'can_ask', arguments: {} }))).toBe('elicit:no sample:no');
    // A tool that needs what the request did not declare: -32021 naming the capability (SEP-2575).
    await expect(modern.callTool({ name: 'greet', arguments: { greeting: 'hello' } })).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
    const refused = await modern.callTool({ name: 'wipe', arguments: { table: 'users', password: 'x' } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/approval/);
    expect(runs.wipe).toBeUndefined();
    // And supports() follows what each request declares.
    const { client: both } = await connect({ elicit: name('x'), sample: () => ({}) });
    expect(text(await both.callTool({ name: 'can_ask', arguments: {} }))).toBe('elicit:yes sample:yes');
  });

  it('a tool that catches the suspension cannot swallow it: the call still asks, and the answered run completes', async () => {
    const { client: modern, asked } = await connect({ elicit: name('Ada') });
    expect(text(await modern.callTool({ name: 'stubborn', arguments: {} }))).toBe('got Ada');
    expect(asked).toHaveLength(1);
    expect(runs.stubborn).toBe(2);
  });

  it('the round cap: a call asking more than requestState.maxRounds times fails with a clear tool error', async () => {
    const { client: modern, asked } = await connect({ elicit: name('x') });
    expect(text(await modern.callTool({ name: 'chatty', arguments: { times: 3 } }))).toBe('x,x,x');
    const capped = await modern.callTool({ name: 'chatty', arguments: { times: 4 } });
    expect(capped.isError).toBe(true);
    expect(text(capped)).toBe(
      "chatty asked for input more than 3 times in one call (the server's requestState.maxRounds), so the call was stopped; nothing after the last ask ran.",
    );
    expect(asked).toHaveLength(6);
  });

  it('an answer recorded for another question (the tool asked something else this run) is dropped and the question asked again', async () => {
    topic.current = 'tea';
    const { client: modern, asked } = await connect({
      elicit: (params) => {
        // While the user answers, what the tool will ask about changes.
        if (asked.length === 1) topic.current = 'coffee';
        return { action: 'accept', content: { name: String(params.message).includes('tea') ? 'Ada' : 'Grace' } };
      },
    });
    expect(text(await modern.callTool({ name: 'shifting', arguments: {} }))).toBe('Grace for coffee');
    expect(asked.map((params) => params.message)).toEqual(['Your name, for tea?', 'Your name, for coffee?']);
    expect(runs.shifting).toBe(3);
  });

  it('answers too large for one requestState end the call with a clear tool error', async () => {
    const { client: modern } = await connect({
      elicit: (params) => ({ action: 'accept', content: String(params.message).startsWith('Your') ? { name: 'x'.repeat(70_000) } : { color: 'teal' } }),
    });
    const result = await modern.callTool({ name: 'pair', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('pair collected more answers than one requestState may carry, so the call was stopped; ask for less per call.');
  });

  it("an ask's key names it on the wire; asks without a key are keyed by position", async () => {
    const { client: modern, keys } = await connect({ elicit: name('Ada') });
    expect(text(await modern.callTool({ name: 'keyed', arguments: {} }))).toBe('hello Ada');
    expect(text(await modern.callTool({ name: 'greet', arguments: { greeting: 'hi' } }))).toBe('hi Ada');
    expect(keys).toEqual(['user_name', 'ask-1']);
    expect(runs.keyed).toBe(2);
  });

  it('two asks of one call with the same key: the second is refused naming the tool and the key, and is never asked', async () => {
    const reported: unknown[] = [];
    configure({ onException: (error) => void reported.push(error) });
    try {
      const { client: modern, asked } = await connect({ elicit: name('Ada') });
      const result = await modern.callTool({ name: 'same_key', arguments: {} });
      expect(result.isError).toBe(true);
      expect(asked).toHaveLength(1);
      expect(String(reported[0])).toContain(
        "same_key (SameKey): context.elicit(message, schema, { key }) used the key 'who' a second time in this call; give each ask of one call its own key",
      );
    } finally {
      configure({ onException: undefined });
    }
  });

  it("roots: the client's roots come back through a round", async () => {
    const { client: modern, keys } = await connect({ roots: () => ({ roots: [{ uri: 'file:///work', name: 'work' }, { uri: 'file:///tmp' }] }) });
    expect(text(await modern.callTool({ name: 'roots', arguments: {} }))).toBe('work=file:///work,-=file:///tmp');
    expect(keys).toEqual(['ask-1']);
    expect(runs.roots).toBe(2);
    // A request that does not declare roots: supports() says no.
    const { client: without } = await connect({ elicit: name('x') });
    expect(text(await without.callTool({ name: 'roots', arguments: {} }))).toBe('no roots');
  });

  it('asks made together (Promise.all of elicit, sample and roots) go out in one round, each under its key', async () => {
    const { client: modern, keys } = await connect({
      elicit: name('Ada'),
      sample: () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: 'Hi' } }),
      roots: () => ({ roots: [{ uri: 'file:///work' }] }),
    });
    expect(text(await modern.callTool({ name: 'together', arguments: {} }))).toBe('Hi Ada in file:///work');
    expect(keys).toEqual(['user_name', 'greeting', 'client_roots']);
    expect(runs.together).toBe(2); // one round: once to reach the asks, once with all three answers
  });

  it('at most 16 asks go out in one round: the 17th made together waits for the next round', async () => {
    const { client: modern, keys } = await connect({ elicit: (params) => ({ action: 'accept', content: { name: String(params.message).slice(9, -1) } }) });
    const answers = Array.from({ length: 17 }, (_, i) => String(i + 1));
    expect(text(await modern.callTool({ name: 'crowd', arguments: { times: 16 } }))).toBe(answers.slice(0, 16).join(','));
    expect(runs.crowd).toBe(2);
    expect(text(await modern.callTool({ name: 'crowd', arguments: { times: 17 } }))).toBe(answers.join(','));
    expect(runs.crowd).toBe(5); // two rounds: sixteen asks, then the seventeenth
    expect(keys.slice(16)).toEqual([...answers.slice(0, 16).map((n) => `ask-${n}`), 'ask-17']);
  });

  it('a 2025-11-25 client on the same endpoint keeps the session push: one run, no re-run', async () => {
    const { client: legacy, asked } = await connect(
      { elicit: (params) => ({ action: 'accept', content: String(params.message).startsWith('Your') ? { name: 'Grace' } : { color: 'red' } }) },
      'legacy',
    );
    expect(text(await legacy.callTool({ name: 'pair', arguments: {} }))).toBe('Grace likes red');
    expect(asked).toHaveLength(2);
    expect(runs.pair).toBe(1);
  });

  it('a 2025-11-25 client answers roots/list on its session, and asks made together are sent together', async () => {
    const { client: legacy, asked } = await connect(
      {
        elicit: name('Grace'),
        sample: () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: 'Hey' } }),
        roots: () => ({ roots: [{ uri: 'file:///home', name: 'home' }] }),
      },
      'legacy',
    );
    expect(text(await legacy.callTool({ name: 'roots', arguments: {} }))).toBe('home=file:///home');
    expect(text(await legacy.callTool({ name: 'together', arguments: {} }))).toBe('Hey Grace in file:///home');
    expect(asked).toHaveLength(4);
    expect(runs.together).toBe(1);
  });
});

describe('2026-07-28 input-required rounds over stdio (one process: no keys needed)', () => {
  const fixture = path.join(__dirname, '../../fixtures/mcp-rounds/stdio-server.ts');

  it('elicitation, two asks and an approval', async () => {
    const made = client({
      elicit: (params) =>
        String(params.message).startsWith('Allow')
          ? { action: 'accept', content: { approve: true } }
          : { action: 'accept', content: String(params.message).startsWith('Your') ? { name: 'Ada' } : { color: 'teal' } },
    });
    const warnings: string[] = [];
    await connectStdioFixture(made.client, fixture, { onStderr: (text) => warnings.push(text) });
    open.push(made.client);
    expect(made.client.getProtocolEra()).toBe('modern');
    expect(text(await made.client.callTool({ name: 'greet', arguments: { greeting: 'hi' } }))).toBe('hi Ada');
    expect(text(await made.client.callTool({ name: 'pair', arguments: {} }))).toBe('Ada likes teal');
    expect(text(await made.client.callTool({ name: 'wipe', arguments: { table: 't', password: 'p' } }))).toBe('wiped t');
    expect(made.asked).toHaveLength(4);
    expect(warnings.join('')).not.toMatch(/requestState/);
  }, 60_000);
});
