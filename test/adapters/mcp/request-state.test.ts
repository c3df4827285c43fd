/**
 * The sealed requestState of MCP 2026-07-28 input-required rounds, over raw HTTP on 127.0.0.1 where a
 * state must be forged or replayed: accepted for the call it was sealed for; refused with -32602
 * "Invalid or expired requestState" when tampered with, expired, replayed for other arguments,
 * another tool or another caller, sealed with a key the server no longer holds, oversized or not a
 * string. Keys rotate (seal with the first, open with any). The state's plaintext (opened here with
 * the test's own key) holds the answers but no sensitive input and no ambient value. Without keys:
 * refused in production, warned about once otherwise. Bad options are DeclarationErrors.
 */
import 'reflect-metadata';
import { createDecipheriv, createHash, hkdfSync } from 'node:crypto';
import { configure, DeclarationError, SetupError } from 'toolwright';
import { createMcpServer, McpHttpHandle, McpServerOptions, serveHttp } from 'toolwright/mcp';
import { paid, roundTools } from '../../fixtures/mcp-rounds/tools';
import { MODERN_ENVELOPE as ENVELOPE, modernHeaders, postModernCall, type ModernAnswer as Answer } from '../../helpers/mcp';

const K1 = 'first-key-of-the-request-state-test-0123456789';
const K2 = 'second-key-of-the-request-state-test-987654321';
const TOKENS = ['alice', 'bob'];
const auth = {
  verifyAccessToken: (token: string) =>
    TOKENS.includes(token) ? { token, clientId: token, scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 } : undefined,
};
const post = postModernCall;

const greet = { name: 'greet', arguments: { greeting: 'hello' } };
const accepted = (name: string) => ({ 'ask-1': { action: 'accept', content: { name } } });
const REFUSED = { code: -32602, message: 'Invalid or expired requestState', data: { reason: 'invalid_request_state' } };

async function firstRound(url: string, params: Record<string, unknown> = greet, token?: string): Promise<string> {
  const answer = await post(url, params, token);
  expect(answer.result?.resultType).toBe('input_required');
  return answer.result!.requestState!;
}

const handles: McpHttpHandle[] = [];
async function serve(options: Partial<McpServerOptions>, withAuth = false): Promise<string> {
  const handle = await serveHttp(
    { name: 'state', version: '1.0.0', tools: roundTools, ambientContext: () => ({ officer: 'officer-ambient-7731' }), ...options },
    { port: 0, ...(withAuth ? { auth } : {}) },
  );
  handles.push(handle);
  return handle.url;
}
afterAll(async () => {
  await Promise.all(handles.map((handle) => handle.close()));
});

describe('a sealed requestState', () => {
  let url: string;
  beforeAll(async () => {
    url = await serve({ requestState: { keys: [K1] } }, true);
  });

  it('completes the call it was sealed for, by the caller it was sealed for', async () => {
    const state = await firstRound(url, greet, 'alice');
    expect(state).toMatch(/^tw1\./);
    const done = await post(url, { ...greet, requestState: state, inputResponses: accepted('Ada') }, 'alice');
    expect(done.result?.content?.[0].text).toBe('hello Ada');
  });

  it('is refused when tampered with, replayed for other arguments, another tool or another caller, or not a string', async () => {
    const state = await firstRound(url, greet, 'alice');
    const body = state.split('.')[2];
    const flipped = `${state.slice(0, state.length - body.length)}${body[0] === 'A' ? 'B' : 'A'}${body.slice(1)}`;
    const replays: Array<[Record<string, unknown>, string]> = [
      [{ ...greet, requestState: flipped }, 'alice'],
      [{ ...greet, requestState: `${state}x` }, 'alice'],
      [{ ...greet, arguments: { greeting: 'hi' }, requestState: state }, 'alice'],
      [{ ...greet, name: 'greet_too', requestState: state }, 'alice'],
      [{ ...greet, requestState: state }, 'bob'],
      [{ ...greet, requestState: 42 }, 'alice'],
      [{ ...greet, requestState: 'not-a-state' }, 'alice'],
    ];
    for (const [params, token] of replays) {
      const answer = await post(url, { ...params, inputResponses: accepted('Mallory') }, token);
      expect({ params, error: answer.error }).toEqual({ params, error: REFUSED });
    }
    // The genuine one still works afterwards.
    expect((await post(url, { ...greet, requestState: state, inputResponses: accepted('Ada') }, 'alice')).result?.content?.[0].text).toBe('hello Ada');
  });

  // Issue 36, finding 1: what a person approves is what runs, across rounds.
  describe('an approval carried across rounds', () => {
    // Two memos that differ only in their middle: both are shown as the same shortened text.
    const memoA = `${'a'.repeat(150)}${'x'.repeat(100)}${'z'.repeat(50)}`;
    const memoB = `${'a'.repeat(150)}${'y'.repeat(100)}${'z'.repeat(50)}`;
    const payA = { name: 'pay', arguments: { memo: memoA, to: 'alice', cents: 500 } };
    const payB = { name: 'pay', arguments: { memo: memoB, to: 'alice', cents: 500 } };
    const approve = (content: Record<string, unknown> = { approve: true }) => ({ 'ask-1': { action: 'accept', content } });
    beforeEach(() => (paid.length = 0));

    it('a recorded approval for one call never runs another whose arguments are shown the same', async () => {
      const first = await post(url, payA, 'alice');
      const second = await post(url, payB, 'alice');
      const [askA, askB] = [first, second].map((answer) => answer.result!.inputRequests!['ask-1'] as { params: { message: string } });
      expect(askA.params.message).toBe(askB.params.message); // the same question, shortened alike
      const replayed = await post(url, { ...payB, requestState: first.result!.requestState, inputResponses: approve() }, 'alice');
      expect(replayed.error).toEqual(REFUSED);
      expect(paid).toEqual([]);
      const done = await post(url, { ...payA, requestState: first.result!.requestState, inputResponses: approve() }, 'alice');
      expect(done.result?.content?.[0].text).toBe('paid 500 to alice');
      expect(paid).toEqual([{ memo: memoA, to: 'alice', cents: 500 }]);
    });

    it('runs its call at most once: the approving round sent again, here or to a replica sharing the keys and the spent-approval store, runs nothing', async () => {
      const claimed = new Set<string>();
      const spentApprovals = { claim: (id: string) => !claimed.has(id) && claimed.add(id) !== undefined };
      const [a, b] = [await serve({ requestState: { keys: [K1], spentApprovals } }, true), await serve({ requestState: { keys: [K1], spentApprovals } }, true)];
      for (const [first, second] of [[url, url], [a, b]]) {
        paid.length = 0;
        const asked = await post(first, payA, 'alice');
        const round = { ...payA, requestState: asked.result!.requestState, inputResponses: approve() };
        expect((await post(first, round, 'alice')).result?.content?.[0].text).toBe('paid 500 to alice');
        const again = await post(second, round, 'alice');
        expect(again.result).toMatchObject({
          isError: true,
          content: [
            {
              text: 'The call to pay was not approved: this approval already ran the call once (the round was sent again); call the tool again to be asked again. It did not run.',
            },
          ],
        });
        expect(paid).toHaveLength(1);
      }
      expect(claimed.size).toBe(1);
    });

    it('the values shown in the form are never read back: an answer that changes them changes nothing that runs', async () => {
      const first = await post(url, payA, 'alice');
      const done = await post(
        url,
        { ...payA, requestState: first.result!.requestState, inputResponses: approve({ approve: true, argument2: 'mallory', argument3: '99999900' }) },
        'alice',
      );
      expect(done.result?.content?.[0].text).toBe('paid 500 to alice');
      expect(paid).toEqual([{ memo: memoA, to: 'alice', cents: 500 }]);
    });
  });

  it('is refused when larger than 64 KiB, before it is decoded', async () => {
    const answer = await post(url, { ...greet, requestState: `tw1.AAAAAAAA.${'A'.repeat(70_000)}`, inputResponses: accepted('x') }, 'alice');
    expect(answer.error).toEqual(REFUSED);
  });

  it('refuses a malformed answer to the pending ask, naming its key', async () => {
    const state = await firstRound(url, greet, 'alice');
    const answer = await post(url, { ...greet, requestState: state, inputResponses: { 'ask-1': { action: 'maybe' } } }, 'alice');
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toMatch(/inputResponses\['ask-1'\]: expected an elicitation result/);
  });

  it('reads answers only under the keys it asked, each for its kind of question: another key answers nothing, another kind is refused', async () => {
    const keyed = { name: 'keyed', arguments: {} };
    const state = await firstRound(url, keyed, 'alice');
    // Sent under the positional key the ask did not use: nothing is answered, the same question again.
    const again = await post(url, { ...keyed, requestState: state, inputResponses: { 'ask-1': { action: 'accept', content: { name: 'M' } } } }, 'alice');
    expect(Object.keys(again.result!.inputRequests!)).toEqual(['user_name']);
    // A roots list for a form: refused naming the key.
    const wrongKind = await post(url, { ...keyed, requestState: state, inputResponses: { user_name: { roots: [] } } }, 'alice');
    expect(wrongKind.error?.message).toMatch(/inputResponses\['user_name'\]: expected an elicitation result/);
    const done = await post(url, { ...keyed, requestState: state, inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } } }, 'alice');
    expect(done.result?.content?.[0].text).toBe('hello Ada');
  });

  it('asks made together go out in one round; one left unanswered is asked again alone, the answered one kept', async () => {
    const crowd = { name: 'crowd', arguments: { times: 2 } };
    const first = await post(url, crowd, 'alice');
    expect(Object.keys(first.result!.inputRequests!)).toEqual(['ask-1', 'ask-2']);
    const answer = (name: string) => ({ action: 'accept', content: { name } });
    const second = await post(url, { ...crowd, requestState: first.result!.requestState, inputResponses: { 'ask-2': answer('b') } }, 'alice');
    expect(Object.keys(second.result!.inputRequests!)).toEqual(['ask-1']);
    const done = await post(url, { ...crowd, requestState: second.result!.requestState, inputResponses: { 'ask-1': answer('a') } }, 'alice');
    expect(done.result?.content?.[0].text).toBe('a,b');
  });

  it('asks again when an accepted answer does not fill the form that was asked', async () => {
    const state = await firstRound(url, greet, 'alice');
    const again = await post(url, { ...greet, requestState: state, inputResponses: { 'ask-1': { action: 'accept', content: { nickname: 'A' } } } }, 'alice');
    expect(again.result?.resultType).toBe('input_required');
    expect(Object.keys(again.result!.inputRequests!)).toEqual(['ask-1']);
    expect(again.result!.requestState).not.toBe(state);
    const done = await post(url, { ...greet, requestState: again.result!.requestState, inputResponses: accepted('Ada') }, 'alice');
    expect(done.result?.content?.[0].text).toBe('hello Ada');
  });

  it('answers -32021 over HTTP 400 when the tool needs a capability the request does not declare', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...modernHeaders('tools/call', 'summarize'), authorization: 'Bearer alice' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'summarize', arguments: { text: 't' }, _meta: ENVELOPE } }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as Answer;
    expect(body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    expect(body.error?.message).toMatch(/sampling capability/);
  });

  it('expires after ttlMs', async () => {
    const short = await serve({ requestState: { keys: [K1], ttlMs: 1 } });
    const state = await firstRound(short);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await post(short, { ...greet, requestState: state, inputResponses: accepted('Ada') })).error).toEqual(REFUSED);
  });

  it('rotates: a state sealed with an old key opens while the key is listed, and is refused once it is removed', async () => {
    const old = await serve({ requestState: { keys: [K1] } });
    const rotated = await serve({ requestState: { keys: [K2, K1] } });
    const removed = await serve({ requestState: { keys: [K2] } });
    const state = await firstRound(old);
    expect((await post(rotated, { ...greet, requestState: state, inputResponses: accepted('Ada') })).result?.content?.[0].text).toBe('hello Ada');
    expect((await post(removed, { ...greet, requestState: state, inputResponses: accepted('Ada') })).error).toEqual(REFUSED);
    // The rotated server seals with its first key, which the removed-key server holds.
    const fresh = await firstRound(rotated);
    expect(fresh.split('.')[1]).not.toBe(state.split('.')[1]);
    expect((await post(removed, { ...greet, requestState: fresh, inputResponses: accepted('Ada') })).result?.content?.[0].text).toBe('hello Ada');
  });
});

describe('what a requestState holds', () => {
  /** Opens a state as the server does, with the test's own key and the call's binding (no auth: caller '-'). */
  function open(state: string, tool: string, args: unknown, key: string): string {
    const sealed = Buffer.from(state.split('.')[2], 'base64url');
    const secret = Buffer.from(hkdfSync('sha256', Buffer.from(key), Buffer.alloc(0), 'toolwright/mcp requestState aes-256-gcm', 32));
    const digest = createHash('sha256').update(JSON.stringify(args)).digest('base64url');
    const decipher = createDecipheriv('aes-256-gcm', secret, sealed.subarray(0, 12));
    decipher.setAAD(Buffer.from(`toolwright.mcp.requestState\0${tool}\0${digest}\0-`));
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    return Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]).toString('utf8');
  }

  it('carries the answers, and neither a sensitive input nor an ambient value, in plaintext or ciphertext', async () => {
    const url = await serve({ requestState: { keys: [K1] } });
    const args = { account: 'acct-1', pin: 'PIN-987654' };
    const first = await firstRound(url, { name: 'secret', arguments: args });
    const second = await post(url, { name: 'secret', arguments: args, requestState: first, inputResponses: accepted('answer-one') });
    expect(second.result?.resultType).toBe('input_required');
    const state = second.result!.requestState!;
    const plain = open(state, 'secret', args, K1);
    expect(plain).toContain('answer-one'); // the recorded answer: opening worked
    for (const secret of ['PIN-987654', 'officer-ambient-7731']) {
      expect(plain).not.toContain(secret);
      expect(state).not.toContain(secret);
      expect(Buffer.from(state.split('.')[2], 'base64url').toString('latin1')).not.toContain(secret);
    }
    // Ambient values are derived from the request on every round: the last one reads it again.
    const done = await post(url, { name: 'secret', arguments: args, requestState: state, inputResponses: { 'ask-2': { action: 'accept', content: { name: 'two' } } } });
    expect(done.result?.content?.[0].text).toBe('officer-ambient-7731 confirmed acct-1 as answer-one/two');
  });
});

describe('without requestState keys', () => {
  const env = process.env.NODE_ENV;
  afterEach(() => {
    process.env.NODE_ENV = env;
    jest.restoreAllMocks();
  });

  it('in production, a round that needs a state fails the call and reports a SetupError naming requestState.keys', async () => {
    const reported: unknown[] = [];
    const url = await serve({});
    process.env.NODE_ENV = 'production';
    configure({ onException: (error) => void reported.push(error) });
    let answer: Answer;
    try {
      answer = await post(url, greet);
    } finally {
      configure({ onException: undefined });
    }
    expect(answer.result?.isError).toBe(true);
    expect(answer.result?.resultType).not.toBe('input_required');
    const setup = reported.find((error) => error instanceof SetupError) as SetupError | undefined;
    expect(setup?.message).toMatch(/pass requestState: \{ keys: \[/);
  });

  it('otherwise, the per-process key works for this process, with one loud warning naming the option', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const url = await serve({});
    for (const name of ['Ada', 'Grace']) {
      const state = await firstRound(url);
      expect((await post(url, { ...greet, requestState: state, inputResponses: accepted(name) })).result?.content?.[0].text).toBe(`hello ${name}`);
    }
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/WARNING: no requestState\.keys/);
  });
});

describe('requestState options', () => {
  const make = (requestState: unknown) => () => createMcpServer({ name: 'x', version: '1', tools: [], requestState: requestState as never });
  it.each([
    [{ keys: ['short'] }, /requestState\.keys\[0\]' must be a secret of at least 32 bytes .* got 5 bytes/],
    [{ keys: [K1, new Uint8Array(8)] }, /requestState\.keys\[1\]'.*got 8 bytes/],
    [{ keys: [K1, 42] }, /requestState\.keys\[1\]'.*got 42/],
    [{ keys: [] }, /'requestState\.keys' must be a non-empty array/],
    [{ keys: [K1], ttlMs: 0 }, /'requestState\.ttlMs' must be a whole number/],
    [{ keys: [K1], maxRounds: 0 }, /'requestState\.maxRounds' must be a whole number from 1 to 64/],
    ['key', /'requestState' must be an object/],
    [{ keys: [K1], spentApprovals: {} }, /'requestState\.spentApprovals' must be an object with claim\(id, expiresAt\)/],
  ])('%j is a DeclarationError naming the option', (requestState, message) => {
    expect(make(requestState)).toThrow(DeclarationError);
    expect(make(requestState)).toThrow(message);
  });

  it('accepts keys of 32 bytes and more, as strings or Uint8Arrays', () => {
    expect(make({ keys: [K1, new Uint8Array(32)], ttlMs: 1000, maxRounds: 2 })).not.toThrow();
  });
});
