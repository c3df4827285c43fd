/**
 * Time limits: `@Tool({ timeoutMs })`, `InvokerOptions.defaultTimeoutMs`, `configure({
 * defaultTimeoutMs })`. Past the limit the tool's signal is aborted and the call answers a failure
 * at once, whether or not the tool stops, on every transport alike.
 */
import {
  configure,
  defineTool,
  Expects,
  describeTool,
  invoke,
  Invoker,
  Tool,
  ToolCancelledError,
  ToolTimeoutError,
} from 'toolwright';
import { toAiSdkTools, ToolCallFailedError } from 'toolwright/ai';
import { Toolbox } from 'toolwright/openai';
import { connectInMemory } from '../helpers/mcp';

const reported: unknown[] = [];
beforeAll(() => configure({ onException: (error) => reported.push(error) }));
afterAll(() => configure({ onException: undefined }));
beforeEach(() => (reported.length = 0));

/** What the last call of a tool saw of its signal. */
let lastSignal: AbortSignal | undefined;

/** Never settles, and ignores its signal. */
@Tool({ name: 'hang', timeoutMs: 30, error: 'Could not fetch the report' })
@Expects({})
class Hang {
  call(_input: unknown, { signal }: { signal: AbortSignal }) {
    lastSignal = signal;
    return new Promise(() => undefined);
  }
}

/** Never settles on its own; declares no limit. */
@Tool({ name: 'wait' })
@Expects({})
class Wait {
  call(_input: unknown, { signal }: { signal: AbortSignal }) {
    lastSignal = signal;
    return new Promise(() => undefined);
  }
}

/** Answers at once. */
@Tool({ name: 'quick', timeoutMs: 60_000 })
@Expects({})
class Quick {
  call(_input: unknown, { signal }: { signal: AbortSignal }) {
    lastSignal = signal;
    return 'done';
  }
}

function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

describe('@Tool({ timeoutMs })', () => {
  it('a tool that never settles, ignoring its signal, still answers at the deadline', async () => {
    const result = await invoke(Hang);
    expect(result.outcome).toBe('failure');
    expect(result.error).toBe('Could not fetch the report: hang took longer than 30 ms');
    expect(result.exception).toBeInstanceOf(ToolTimeoutError);
    expect(result.exception).toMatchObject({ code: 'TOOL_TIMEOUT', timeoutMs: 30 });
    // The tool's signal was aborted, with the timeout as its reason.
    expect(lastSignal?.aborted).toBe(true);
    expect(lastSignal?.reason).toBe(result.exception);
    // A timeout is a failure the caller reads, like a cancellation: never reported as a bug.
    expect(reported).toEqual([]);
  });

  it('the timer is cleared when the tool settles: no timer outlives the call', async () => {
    const before = activeTimers();
    const results = await Promise.all(Array.from({ length: 20 }, () => invoke(Quick)));
    expect(results.every((result) => result.value === 'done')).toBe(true);
    expect(activeTimers()).toBe(before);
  });

  it('a tool that settles in time keeps its value; a late one is dropped, not reported', async () => {
    let finish: (value: string) => void = () => undefined;
    @Tool({ name: 'late', timeoutMs: 20 }) class Late {
      call() {
        return new Promise<string>((resolve) => (finish = resolve));
      }
    }
    const result = await invoke(Late);
    expect(result.error).toBe('late took longer than 20 ms');
    finish('too late');
    @Tool({ name: 'late_failure', timeoutMs: 20 }) @Expects({}) class LateFailure {
      call(_input: unknown, { signal }: { signal: AbortSignal }) {
        return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted midway'))));
      }
    }
    expect((await invoke(LateFailure)).error).toBe('late_failure took longer than 20 ms');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(reported).toEqual([]);
  });

  it('the caller’s own signal still cancels, and the tool sees both through one signal', async () => {
    const controller = new AbortController();
    const pending = invoke(Hang, {}, { signal: controller.signal });
    controller.abort('user pressed stop');
    const result = await pending;
    expect(result).toMatchObject({ outcome: 'failure', error: 'The call was cancelled.' });
    expect(result.exception).toBeInstanceOf(ToolCancelledError);
    expect(lastSignal).not.toBe(controller.signal);
    expect(lastSignal?.aborted).toBe(true);
    expect(lastSignal?.reason).toBe('user pressed stop');
  });

  it('without a limit, a cancelled call answers at once even when the tool ignores its signal', async () => {
    const controller = new AbortController();
    const pending = invoke(Wait, {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    expect(await pending).toMatchObject({ outcome: 'failure', error: 'The call was cancelled.' });
    expect(lastSignal).toBe(controller.signal); // no limit: the tool gets the caller's own signal
  });

  it('is recorded on the definition, and works on inline tools', async () => {
    expect(describeTool(Hang).timeoutMs).toBe(30);
    expect(describeTool(Wait).timeoutMs).toBeUndefined();
    const inline = defineTool({ name: 'inline_hang', timeoutMs: 15 }, () => new Promise(() => undefined));
    expect((await invoke(inline)).error).toBe('inline_hang took longer than 15 ms');
  });

  it.each([0, -5, 1.5, 2 ** 31, Infinity, NaN, '100'])('timeoutMs %p is refused at decoration, naming the class', (timeoutMs) => {
    expect(() => {
      @Tool({ timeoutMs: timeoutMs as number }) class Slow {
        call() {}
      }
      return Slow;
    }).toThrow(
      new TypeError(
        `Slow: @Tool option 'timeoutMs' must be a whole number of milliseconds from 1 to 2147483647; got ${typeof timeoutMs === 'string' ? `'${timeoutMs}'` : timeoutMs}.`,
      ),
    );
  });
});

describe('defaultTimeoutMs', () => {
  afterEach(() => configure({ defaultTimeoutMs: undefined }));

  it('an invoker’s default applies to tools that declare none; the tool’s own value wins', async () => {
    const invoker = new Invoker({ defaultTimeoutMs: 20 });
    expect((await invoker.invoke(Wait)).error).toBe('wait took longer than 20 ms');
    // Hang declares 30: the invoker's longer default does not stretch it.
    const patient = new Invoker({ defaultTimeoutMs: 60_000 });
    expect((await patient.invoke(Hang)).error).toBe('Could not fetch the report: hang took longer than 30 ms');
    // invoke() takes the same option.
    expect((await invoke(Wait, {}, { defaultTimeoutMs: 25 })).error).toBe('wait took longer than 25 ms');
  });

  it('configure({ defaultTimeoutMs }) applies process-wide, below the invoker’s and the tool’s own', async () => {
    configure({ defaultTimeoutMs: 15 });
    expect((await invoke(Wait)).error).toBe('wait took longer than 15 ms');
    expect((await new Invoker({ defaultTimeoutMs: 25 }).invoke(Wait)).error).toBe('wait took longer than 25 ms');
    expect((await invoke(Hang)).error).toBe('Could not fetch the report: hang took longer than 30 ms');
    configure({ defaultTimeoutMs: undefined });
    const controller = new AbortController();
    const pending = invoke(Wait, {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 40);
    expect((await pending).error).toBe('The call was cancelled.'); // no limit any more
  });

  it('bad values are refused with the option named', () => {
    expect(() => new Invoker({ defaultTimeoutMs: 0 })).toThrow(
      new TypeError('Invoker: defaultTimeoutMs must be a whole number of milliseconds from 1 to 2147483647; got 0.'),
    );
    expect(() => configure({ defaultTimeoutMs: -1 })).toThrow(
      new TypeError('configure: defaultTimeoutMs must be a whole number of milliseconds from 1 to 2147483647 (or undefined for none); got -1.'),
    );
  });
});

describe('every transport behaves alike (the invoker does it)', () => {
  it('MCP: the SDK Client gets the failure as a tool error at the deadline', async () => {
    const { client, close } = await connectInMemory({ name: 'slow', version: '1', tools: [Hang, Wait], invoker: { defaultTimeoutMs: 20 } });
    try {
      expect(await client.callTool({ name: 'hang', arguments: {} })).toEqual({
        isError: true,
        content: [{ type: 'text', text: 'Could not fetch the report: hang took longer than 30 ms' }],
      });
      expect(await client.callTool({ name: 'wait', arguments: {} })).toEqual({
        isError: true,
        content: [{ type: 'text', text: 'wait took longer than 20 ms' }],
      });
    } finally {
      await close();
    }
    expect(reported).toEqual([]);
  });

  it('Toolbox: the record fails with the same words; a default through the toolbox’s invoker', async () => {
    const toolbox = new Toolbox([Hang, Wait], { invoker: new Invoker({ defaultTimeoutMs: 20 }) });
    const records = await toolbox.invokeAll([
      { id: 'a', name: 'hang', arguments: '{}' },
      { id: 'b', name: 'wait', arguments: '{}' },
    ]);
    expect(records.map(({ status, output }) => ({ status, output }))).toEqual([
      { status: 'failed', output: 'Could not fetch the report: hang took longer than 30 ms' },
      { status: 'failed', output: 'wait took longer than 20 ms' },
    ]);
  });

  it('AI SDK: execute throws the failure the model reads', async () => {
    const tools = toAiSdkTools(new Toolbox([Hang]));
    const error = await Promise.resolve(tools.hang.execute!({}, { toolCallId: 't1', messages: [] })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolCallFailedError);
    expect((error as Error).message).toBe('Could not fetch the report: hang took longer than 30 ms');
  });
});

describe("the caller's signal", () => {
  /** A real signal whose listener calls are counted (the calls still go to the signal). */
  function countedSignal(controller: AbortController): { signal: AbortSignal; added: () => number; removed: () => number } {
    const { signal } = controller;
    let added = 0;
    let removed = 0;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
      added++;
      return add(...args);
    }) as AbortSignal['addEventListener'];
    signal.removeEventListener = ((...args: Parameters<AbortSignal['removeEventListener']>) => {
      removed++;
      return remove(...args);
    }) as AbortSignal['removeEventListener'];
    return { signal, added: () => added, removed: () => removed };
  }

  @Tool({ name: 'answer_now' })
  @Expects({})
  class AnswerNow {
    call() {
      return 'now';
    }
  }

  @Tool({ name: 'answer_async' })
  @Expects({})
  class AnswerAsync {
    async call() {
      return 'async';
    }
  }

  @Tool({ name: 'answer_later' })
  @Expects({})
  class AnswerLater {
    call() {
      return new Promise((resolve) => setTimeout(() => resolve('later'), 5));
    }
  }

  it('a tool that settles at once (a value, an async function) never costs an abort listener', async () => {
    const counted = countedSignal(new AbortController());
    expect(await invoke(AnswerNow, {}, { signal: counted.signal })).toMatchObject({ ok: true, value: 'now' });
    expect(await invoke(AnswerAsync, {}, { signal: counted.signal })).toMatchObject({ ok: true, value: 'async' });
    expect(counted.added()).toBe(0);
  });

  it('a tool that takes time is listened for, and the listener is removed when it answers or is cancelled', async () => {
    const answered = countedSignal(new AbortController());
    expect(await invoke(AnswerLater, {}, { signal: answered.signal })).toMatchObject({ ok: true, value: 'later' });
    expect([answered.added(), answered.removed()]).toEqual([1, 1]);

    const controller = new AbortController();
    const cancelled = countedSignal(controller);
    const pending = invoke(Wait, {}, { signal: cancelled.signal });
    setTimeout(() => controller.abort('stop'), 5);
    expect(await pending).toMatchObject({ outcome: 'failure', error: 'The call was cancelled.' });
    expect([cancelled.added(), cancelled.removed()]).toEqual([1, 1]);
  });

  it('with a time limit too, the caller is heard through that one listener, not AbortSignal.any per call', async () => {
    const any = jest.spyOn(AbortSignal, 'any');
    try {
      const controller = new AbortController();
      const counted = countedSignal(controller);
      const pending = invoke(Hang, {}, { signal: counted.signal });
      setTimeout(() => controller.abort('stop'), 5);
      expect(await pending).toMatchObject({ outcome: 'failure', error: 'The call was cancelled.' });
      // The tool's own signal (not the caller's: it also carries the deadline) aborted with the caller's reason.
      expect(lastSignal).not.toBe(controller.signal);
      expect([lastSignal?.aborted, lastSignal?.reason]).toEqual([true, 'stop']);
      expect([counted.added(), counted.removed()]).toEqual([1, 1]);
      expect(await invoke(Quick, {}, { signal: new AbortController().signal })).toMatchObject({ ok: true, value: 'done' });
      expect(any).not.toHaveBeenCalled();
    } finally {
      any.mockRestore();
    }
  });

  it('an abort right after invoke() returns wins over an answer not yet seen, as before', async () => {
    const controller = new AbortController();
    const pending = invoke(AnswerNow, {}, { signal: controller.signal });
    controller.abort('too late to answer');
    expect(await pending).toMatchObject({ outcome: 'failure', error: 'The call was cancelled.' });
  });

  it('an abort between the tool starting and the listener is not missed', async () => {
    const controller = new AbortController();
    @Tool({ name: 'abort_soon' })
    @Expects({})
    class AbortSoon {
      call() {
        queueMicrotask(() => controller.abort('changed my mind'));
        return new Promise(() => undefined);
      }
    }
    const result = await invoke(AbortSoon, {}, { signal: controller.signal });
    expect(result).toMatchObject({ outcome: 'failure', error: 'The call was cancelled.' });
    expect(result.exception).toBeInstanceOf(ToolCancelledError);
  });
});

describe('a tool that runs past its deadline without yielding (no timer can fire)', () => {
  /** Keeps the thread busy for `ms` by the wall clock, as a CPU-bound tool does. */
  function busy(ms: number): void {
    const start = Date.now();
    while (Date.now() - start < ms) {
      /* spin */
    }
  }

  @Tool({ name: 'crunch', timeoutMs: 40, error: 'Could not crunch' })
  @Expects({})
  class Crunch {
    call(_input: unknown, { signal }: { signal: AbortSignal }) {
      lastSignal = signal;
      busy(120);
      return { crunched: true };
    }
  }

  it('a synchronous tool that blocks past its limit is the timeout failure a timer gives, not a success', async () => {
    const timer = await invoke(Hang); // the timer-driven timeout, for comparison
    const result = await invoke(Crunch);
    expect(result).toMatchObject({ ok: false, outcome: timer.outcome, value: undefined, error: 'Could not crunch: crunch took longer than 40 ms' });
    expect(result.exception).toBeInstanceOf(ToolTimeoutError);
    expect(result.exception).toMatchObject({ code: 'TOOL_TIMEOUT', timeoutMs: 40 });
    // The tool's signal reads aborted with the very same reason, as at a timer.
    expect(lastSignal?.aborted).toBe(true);
    expect(lastSignal?.reason).toBe(result.exception);
    expect(reported).toEqual([]);
  });

  it('a late throw is the timeout too (not an exception report), sync or async', async () => {
    @Tool({ name: 'crunch_throw', timeoutMs: 30 }) @Expects({}) class CrunchThrow {
      call() {
        busy(90);
        throw new Error('ran out of patience');
      }
    }
    @Tool({ name: 'crunch_reject', timeoutMs: 30 }) @Expects({}) class CrunchReject {
      async call() {
        await Promise.resolve();
        busy(90);
        throw new Error('ran out of patience');
      }
    }
    for (const [tool, name] of [
      [CrunchThrow, 'crunch_throw'],
      [CrunchReject, 'crunch_reject'],
    ] as const) {
      const result = await invoke(tool);
      expect(result).toMatchObject({ outcome: 'failure', error: `${name} took longer than 30 ms` });
      expect(result.exception).toBeInstanceOf(ToolTimeoutError);
    }
    expect(reported).toEqual([]);
  });

  it('an async tool that blocks after its first await, and resolves late, is the timeout', async () => {
    @Tool({ name: 'crunch_async', timeoutMs: 30 }) @Expects({}) class CrunchAsync {
      async call(_input: unknown, { signal }: { signal: AbortSignal }) {
        lastSignal = signal;
        await Promise.resolve();
        busy(90);
        return 'done, late';
      }
    }
    const result = await invoke(CrunchAsync);
    expect(result).toMatchObject({ outcome: 'failure', error: 'crunch_async took longer than 30 ms' });
    expect(lastSignal?.reason).toBe(result.exception);
  });

  it('the time a tool blocked counts: the timer waits only for what is left of the limit', async () => {
    // Blocks 150 of its 200 ms, then waits 100 ms more: the deadline (50 ms on) comes before its own timer.
    let abortedFirst: boolean | undefined;
    @Tool({ name: 'block_then_wait', timeoutMs: 200 }) @Expects({}) class BlockThenWait {
      call(_input: unknown, { signal }: { signal: AbortSignal }) {
        busy(150);
        return new Promise((resolve) =>
          setTimeout(() => {
            abortedFirst = signal.aborted;
            resolve('waited');
          }, 100),
        );
      }
    }
    const result = await invoke(BlockThenWait);
    expect(result.exception).toBeInstanceOf(ToolTimeoutError);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(abortedFirst).toBe(true);
  });

  it('a tool that finishes inside its deadline keeps its value, whether it blocked or not', async () => {
    @Tool({ name: 'crunch_in_time', timeoutMs: 1_000 }) @Expects({}) class CrunchInTime {
      call() {
        busy(100);
        return 'in time';
      }
    }
    @Tool({ name: 'crunch_in_time_async', timeoutMs: 1_000 }) @Expects({}) class CrunchInTimeAsync {
      async call() {
        await Promise.resolve();
        busy(100);
        return 'in time';
      }
    }
    expect(await invoke(CrunchInTime)).toMatchObject({ ok: true, value: 'in time' });
    expect(await invoke(CrunchInTimeAsync)).toMatchObject({ ok: true, value: 'in time' });
  });

  it('through a transport (the Toolbox), the blocked call fails with the same words', async () => {
    const [record] = await new Toolbox([Crunch]).invokeAll([{ id: 'a', name: 'crunch', arguments: '{}' }]);
    expect(record).toMatchObject({ status: 'failed', output: 'Could not crunch: crunch took longer than 40 ms' });
  });
});
