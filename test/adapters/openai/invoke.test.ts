import 'reflect-metadata';
import { IsInt, IsOptional, Min } from 'class-validator';
import { container as rootContainer, injectable } from 'tsyringe';
import { AmbientContext, configure, Expects, Exposes, FailsOn, Field, Tool, fail, withAmbientContext } from 'toolwright';
import { Toolbox, toMessages } from 'toolwright/openai';

class BankDown extends Error {}

class TransferInput {
  @Field({ description: 'Amount in cents' }) @IsInt() @Min(1) amount!: number;
  @Field({ optional: true }) @IsOptional() memo?: string;
  @AmbientContext() userId!: string;
}

class Transfer {
  @Field() transferId!: string;
  @Field() by!: string;
  @Field() at!: Date;
  @Field({ optional: true }) memo?: string;
}

const ran: number[] = [];

@Tool('openai', { description: 'Move money', error: 'Could not transfer' })
@FailsOn(BankDown, 'the bank is unavailable')
@Expects(TransferInput)
@Exposes(Transfer)
class TransferMoney {
  call(input: TransferInput): Transfer {
    ran.push(input.amount);
    if (input.amount > 1000) fail('over the limit');
    if (input.amount === 13) throw new Error('secret internal detail: db password rejected');
    if (input.amount === 500) throw new BankDown('ECONNRESET 10.0.0.7');
    return { transferId: `t-${input.amount}`, by: input.userId, at: new Date('2030-01-02T03:04:05Z'), memo: input.memo };
  }
}

@Tool('openai', { success: 'Pinged!' })
class Ping {
  call() {}
}

const chatCall = (id: string, name: string, args: string) => ({ id, type: 'function' as const, function: { name, arguments: args } });

describe('Toolbox: from a model’s tool calls to records', () => {
  beforeAll(() => configure({ onException: () => undefined }));
  afterAll(() => configure({ onException: undefined }));
  beforeEach(() => (ran.length = 0));

  const toolbox = () => new Toolbox([TransferMoney, Ping], { ambientContext: { userId: 'u-1' } });

  describe('match', () => {
    it('reads a Chat Completions tool call, a Responses function_call item and { name, arguments }, without running anything', () => {
      const box = toolbox();
      const chat = box.match(chatCall('call_1', 'transfer_money', '{"amount":5}'));
      expect(chat).toEqual({ id: 'call_1', name: 'transfer_money', api: 'chat', arguments: { amount: 5 }, tool: expect.anything(), error: undefined });
      expect(chat.tool?.target).toBe(TransferMoney);

      const responses = box.match({ type: 'function_call', id: 'fc_9', call_id: 'call_9', name: 'ping', arguments: '' });
      expect(responses).toMatchObject({ id: 'call_9', name: 'ping', api: 'responses', arguments: {}, error: undefined });

      const plain = box.match({ name: 'transfer_money', arguments: { amount: 7 } });
      expect(plain).toMatchObject({ name: 'transfer_money', api: 'chat', arguments: { amount: 7 }, error: undefined });
      expect(plain.id).toMatch(/^call_[0-9a-f-]{36}$/);
      expect(ran).toEqual([]);
    });

    it('an unknown name or arguments that are not JSON give a readable error, not an exception', () => {
      const box = toolbox();
      expect(box.match(chatCall('c', 'transfer', '{}')).error).toBe("Unknown tool 'transfer'. Available tools: transfer_money and ping.");
      expect(new Toolbox().match({ name: 'x', arguments: '{}' }).error).toBe("Unknown tool 'x'. No tools are available.");
      const broken = box.match(chatCall('c', 'transfer_money', '{"amount": 5'));
      expect(broken.error).toBe("Invalid tool arguments: the arguments are not valid JSON. Send one JSON object that follows the tool's parameters schema.");
      expect(broken.arguments).toBe('{"amount": 5');
    });

    it('an envelope that is no tool call at all is the application’s mistake', () => {
      const box = toolbox();
      expect(() => box.match(42 as never)).toThrow(
        new TypeError(
          "Toolbox.match: expected a Chat Completions tool call { id, type: 'function', function: { name, arguments } }, " +
            "a Responses API item { type: 'function_call', call_id, name, arguments }, or { name, arguments }; got 42.",
        ),
      );
      expect(() => box.match({ id: 'c', type: 'custom', custom: { name: 'grep', input: 'x' } })).toThrow(
        new TypeError(
          "Toolbox.match: the custom tool call 'grep' (id 'c') is not a function call; a toolbox runs function tools only. " +
            'Handle custom tools before passing the calls on.',
        ),
      );
      expect(() => box.match({ type: 'function_call', name: 'ping', arguments: '{}' } as never)).toThrow(/^Toolbox.match: call_id must be a string; got undefined\./);
    });
  });

  describe('invoke', () => {
    it('a success: rendered JSON for the model, the Result and the rendered value for the application', async () => {
      const record = await toolbox().invoke(chatCall('call_1', 'transfer_money', '{"amount":"250","memo":"rent"}'));
      expect(record).toEqual({
        id: 'call_1',
        name: 'transfer_money',
        api: 'chat',
        status: 'completed',
        durationMs: expect.any(Number),
        arguments: { amount: '250', memo: 'rent' },
        result: expect.objectContaining({ ok: true, outcome: 'success' }),
        output: '{"transferId":"t-250","by":"u-1","at":"2030-01-02T03:04:05.000Z","memo":"rent"}',
        data: { transferId: 't-250', by: 'u-1', at: '2030-01-02T03:04:05.000Z', memo: 'rent' },
      });
      expect(record.durationMs).toBeGreaterThanOrEqual(0);
      expect((record.result!.value as Transfer).at).toBeInstanceOf(Date);
    });

    it('a tool that exposes nothing answers with its success message', async () => {
      const record = await toolbox().invoke({ name: 'ping', arguments: '' });
      expect(record).toMatchObject({ status: 'completed', output: 'Pinged!' });
      expect(record).not.toHaveProperty('data');
    });

    it('a business failure gives the user-facing error; a bug gives the headline, never its own text', async () => {
      const box = toolbox();
      const refused = await box.invoke(chatCall('a', 'transfer_money', '{"amount":5000}'));
      expect(refused).toMatchObject({ status: 'failed', output: 'Could not transfer: over the limit' });
      expect(refused.result?.outcome).toBe('failure');

      const bug = await box.invoke(chatCall('b', 'transfer_money', '{"amount":13}'));
      expect(bug).toMatchObject({ status: 'failed', output: 'Could not transfer' });
      expect(bug.result?.outcome).toBe('exception');
      expect((bug.result?.exception as Error).message).toContain('secret internal detail');

      const foreign = await box.invoke(chatCall('c', 'transfer_money', '{"amount":500}'));
      expect(foreign).toMatchObject({ status: 'failed', output: 'Could not transfer: the bank is unavailable' });
      expect(ran).toEqual([5000, 13, 500]);
    });

    it('invalid arguments are "Invalid tool arguments: …" naming each problem, and the tool never runs', async () => {
      const box = toolbox();
      const bad = await box.invoke(chatCall('a', 'transfer_money', '{"amount":"lots","note":"x"}'));
      expect(bad).toMatchObject({ status: 'failed', output: 'Invalid tool arguments: unknown input: note and amount must be an integer number' });
      expect(bad.result?.fieldErrors.map((e) => e.field)).toEqual(['note', 'amount']);
      expect((await box.invoke(chatCall('b', 'transfer_money', '[1,2]'))).output).toBe('Invalid tool arguments: arguments must be an object');
      expect((await box.invoke(chatCall('c', 'transfer_money', '{}'))).output).toMatch(/^Invalid tool arguments: amount /);
      expect(ran).toEqual([]);
    });

    it('malformed JSON and unknown names are failed records the model can read, without a Result', async () => {
      const box = toolbox();
      expect(await box.invoke(chatCall('a', 'transfer_money', '{amount: 5}'))).toEqual({
        id: 'a',
        name: 'transfer_money',
        api: 'chat',
        status: 'failed',
        durationMs: expect.any(Number),
        arguments: '{amount: 5}',
        result: undefined,
        output: "Invalid tool arguments: the arguments are not valid JSON. Send one JSON object that follows the tool's parameters schema.",
      });
      const unknown = await box.invoke({ type: 'function_call', call_id: 'call_7', name: 'wire_money', arguments: '{}' });
      expect(unknown).toMatchObject({
        id: 'call_7',
        api: 'responses',
        status: 'failed',
        result: undefined,
        output: "Unknown tool 'wire_money'. Available tools: transfer_money and ping.",
      });
      expect(ran).toEqual([]);
    });

    it('runs a match, read against the toolbox that runs it', async () => {
      const box = toolbox();
      const match = box.match(chatCall('m', 'transfer_money', '{"amount":9}'));
      expect((await box.invoke(match)).output).toContain('"transferId":"t-9"');
      const elsewhere = new Toolbox([Ping]);
      expect((await elsewhere.invoke(match)).output).toBe("Unknown tool 'transfer_money'. Available tools: ping.");
    });

    it('a cancelled call never runs', async () => {
      const controller = new AbortController();
      controller.abort();
      const record = await toolbox().invoke(chatCall('a', 'transfer_money', '{"amount":5}'), { signal: controller.signal });
      expect(record).toMatchObject({ status: 'failed', output: 'The call was cancelled.' });
      expect(ran).toEqual([]);
    });

    it('checks its options', async () => {
      await expect(toolbox().invoke({ name: 'ping' }, { ambient: {} } as never)).rejects.toThrow(
        new TypeError("Toolbox.invoke: unknown option 'ambient'. Known options: ambientContext, container, resolver, signal, context, approve."),
      );
      await expect(toolbox().invoke({ name: 'ping' }, { signal: 'stop' } as never)).rejects.toThrow(
        new TypeError("Toolbox.invoke: 'signal' must be an AbortSignal; got 'stop'."),
      );
    });
  });

  describe('ambient values come from the application, never the model', () => {
    const call = chatCall('a', 'transfer_money', '{"amount":5}');

    it('from the toolbox, replaced entirely by a per-call value, or from a withAmbientContext scope', async () => {
      expect((await toolbox().invoke(call)).data).toMatchObject({ by: 'u-1' });
      expect((await toolbox().invoke(call, { ambientContext: new Map([['userId', 'u-2']]) })).data).toMatchObject({ by: 'u-2' });
      const bare = new Toolbox([TransferMoney]);
      expect((await withAmbientContext({ userId: 'u-3' }, () => bare.invoke(call))).data).toMatchObject({ by: 'u-3' });
      expect((await bare.invokeAll([call], { ambientContext: { userId: 'u-4' } }))[0].data).toMatchObject({ by: 'u-4' });
    });

    it('a model that sends an ambient key gets "unknown input"', async () => {
      const record = await toolbox().invoke(chatCall('a', 'transfer_money', '{"amount":5,"userId":"admin"}'));
      expect(record).toMatchObject({ status: 'failed', output: 'Invalid tool arguments: unknown input: userId' });
      expect(ran).toEqual([]);
    });

    it('a missing ambient value is the server’s problem: the model reads only the headline', async () => {
      const record = await new Toolbox([TransferMoney]).invoke(call);
      expect(record).toMatchObject({ status: 'failed', output: 'Could not transfer' });
      expect(record.result?.outcome).toBe('exception');
      expect((record.result?.exception as Error).message).toContain("needs the ambient value 'userId'");
      expect(ran).toEqual([]);
    });

    it('a per-call DI container resolves the tool’s dependencies', async () => {
      @injectable() class Greeting { text() { return 'hello'; } }
      @Tool('openai') @Exposes({ text: String }) @injectable()
      class Greet {
        constructor(private readonly greeting: Greeting) {}
        call() { return { text: this.greeting.text() }; }
      }
      const child = rootContainer.createChildContainer();
      child.register(Greeting, { useValue: { text: () => 'bonjour' } });
      const box = new Toolbox([Greet]);
      expect((await box.invoke({ name: 'greet' })).output).toBe('{"text":"hello"}');
      expect((await box.invoke({ name: 'greet' }, { container: child })).output).toBe('{"text":"bonjour"}');
      expect((await new Toolbox([Greet], { container: child }).invoke({ name: 'greet' })).output).toBe('{"text":"bonjour"}');
    });
  });

  describe('strict mode', () => {
    const withNullMemo = chatCall('a', 'transfer_money', '{"amount":5,"memo":null}');

    it('a strict toolbox reads the null strict mode sends for a left-out optional field as absent', async () => {
      const box = new Toolbox([TransferMoney], { strict: true, ambientContext: { userId: 'u-1' } });
      const record = await box.invoke(withNullMemo);
      expect(record.status).toBe('completed');
      expect(record.data).toEqual({ transferId: 't-5', by: 'u-1', at: '2030-01-02T03:04:05.000Z' });
    });

    it('a toolbox that is not strict refuses that null, until it has listed the strict schema', async () => {
      const box = toolbox();
      expect((await box.invoke(withNullMemo)).output).toBe('Invalid tool arguments: memo must be a string');
      box.schemas({ strict: true, only: ['transfer_money'] });
      expect((await box.invoke(withNullMemo)).status).toBe('completed');
    });
  });

  describe('invokeAll', () => {
    it('runs parallel calls and keeps their order; a failure does not stop the others', async () => {
      const records = await toolbox().invokeAll([
        chatCall('a', 'transfer_money', '{"amount":1}'),
        chatCall('b', 'nope', '{}'),
        chatCall('c', 'transfer_money', '{"amount":5000}'),
        { type: 'function_call', call_id: 'd', name: 'ping', arguments: '{}' },
      ]);
      expect(records.map((r) => [r.id, r.api, r.status])).toEqual([
        ['a', 'chat', 'completed'],
        ['b', 'chat', 'failed'],
        ['c', 'chat', 'failed'],
        ['d', 'responses', 'completed'],
      ]);
      expect(ran).toEqual([1, 5000]);
    });

    it('runs at most `concurrency` calls at once (all at once by default)', async () => {
      let active = 0;
      let peak = 0;
      @Tool('openai') @Expects({ n: Number }) @Exposes({ n: Number })
      class Slow {
        async call({ n }: { n: number }) {
          peak = Math.max(peak, ++active);
          for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
          active--;
          return { n };
        }
      }
      const box = new Toolbox([Slow]);
      const calls = [1, 2, 3, 4, 5].map((n) => ({ name: 'slow', arguments: { n } }));
      expect((await box.invokeAll(calls, { concurrency: 2 })).map((r) => r.data)).toEqual(calls.map((c) => c.arguments));
      expect(peak).toBe(2);
      peak = 0;
      await box.invokeAll(calls);
      expect(peak).toBe(5);
      await expect(box.invokeAll(calls, { concurrency: 0 })).rejects.toThrow(
        new TypeError("Toolbox.invokeAll: 'concurrency' must be a whole number of at least 1 (or Infinity); got 0."),
      );
    });

    it('checks every envelope before running any call', async () => {
      await expect(
        toolbox().invokeAll([chatCall('a', 'transfer_money', '{"amount":1}'), { id: 'b', type: 'custom', custom: { name: 'grep', input: '' } }]),
      ).rejects.toThrow(/^Toolbox.invokeAll: the custom tool call 'grep'/);
      await expect(toolbox().invokeAll(chatCall('a', 'ping', '{}') as never)).rejects.toThrow(
        new TypeError('Toolbox.invokeAll: expected a list of tool calls; got {"id":"a","type":"function","function":{"name":"ping","arguments":"{}"}}.'),
      );
      expect(ran).toEqual([]);
      expect(await toolbox().invokeAll([])).toEqual([]);
    });
  });

  describe('toMessages', () => {
    it('answers each call in the form of the API it came from, or the one asked for', async () => {
      const records = await toolbox().invokeAll([
        chatCall('call_a', 'ping', ''),
        { type: 'function_call', call_id: 'call_b', name: 'nope', arguments: '{}' },
      ]);
      expect(toMessages(records)).toEqual([
        { role: 'tool', tool_call_id: 'call_a', content: 'Pinged!' },
        { type: 'function_call_output', call_id: 'call_b', output: "Unknown tool 'nope'. Available tools: transfer_money and ping." },
      ]);
      expect(toMessages(records, { api: 'responses' })[0]).toEqual({ type: 'function_call_output', call_id: 'call_a', output: 'Pinged!' });
      expect(toMessages(records, { api: 'chat' })[1]).toEqual({
        role: 'tool',
        tool_call_id: 'call_b',
        content: "Unknown tool 'nope'. Available tools: transfer_money and ping.",
      });
      expect(toMessages([])).toEqual([]);
    });

    it('checks what it is given', () => {
      expect(() => toMessages([{ id: 1 }] as never)).toThrow(
        new TypeError('toMessages: record 0 is not a tool call record (from Toolbox.invoke or invokeAll); got {"id":1}.'),
      );
      expect(() => toMessages([], { api: 'assistants' } as never)).toThrow(new TypeError("toMessages: 'api' must be 'chat' or 'responses'; got 'assistants'."));
    });
  });

  describe('rendering the output', () => {
    class Handle {
      constructor(readonly fd = 3) {}
    }

    it('an opaque value is rendered honestly by default; a tool that refuses opaque values fails the mapping, not the call', async () => {
      @Tool('openai') class OpenFile { call() { return { handle: new Handle() }; } }
      @Tool('openai', { adapters: { openai: { rejectOpaqueExposedValues: true } } }) class OpenStrictFile { call() { return { handle: new Handle() }; } }
      const box = new Toolbox([OpenFile, OpenStrictFile]);
      expect(await box.invoke({ name: 'open_file' })).toMatchObject({ status: 'completed', output: '{"handle":{"fd":3}}' });
      const refused = await box.invoke({ name: 'open_strict_file' });
      expect(refused).toMatchObject({ status: 'failed', output: 'The tool could not produce a valid response' });
      expect(refused.result?.ok).toBe(true);
    });
  });
});
