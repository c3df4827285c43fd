/**
 * Approvals declared once on the tool, asked for through `invoke({ approve })`: an unapproved call
 * never runs the tool.
 */
import 'reflect-metadata';
import { APPROVAL_QUESTION_LIMITS, configure, Expects, Field, invoke, Invoker, SemanticHints, Tool, ToolApprovalError, ToolCall, ToolCancelledError } from 'toolwright';

class PayoutInput {
  @Field() amount!: number;
  @Field({ sensitive: true }) iban!: string;
}

const ran: number[] = [];

@Tool({ name: 'payout', approval: 'required' })
@Expects(PayoutInput)
class Payout {
  call(input: PayoutInput) {
    ran.push(input.amount);
  }
}

@Tool({ name: 'big_payout', approval: (input: PayoutInput) => input.amount > 10_000 })
@Expects(PayoutInput)
class BigPayout {
  call(input: PayoutInput) {
    ran.push(input.amount);
  }
}

@Tool({ name: 'wipe' })
@SemanticHints('destructive')
class Wipe {
  call() {
    ran.push(-1);
  }
}

const args = { amount: 50, iban: 'DE89370400440532013000' };

beforeEach(() => (ran.length = 0));

describe('approvals', () => {
  it('without a way to ask, a call that needs approval is refused and never runs', async () => {
    const result = await invoke(Payout, args);
    expect(result).toMatchObject({
      outcome: 'failure',
      error: "payout needs a person's approval, and this call has no approver (pass invoke(…, { approve: (call) => … })), so it did not run.",
    });
    expect(result.exception).toBeInstanceOf(ToolApprovalError);
    expect((result.exception as ToolApprovalError).reason).toBe('unavailable');
    expect(ran).toEqual([]);
  });

  it('the refusal speaks to the caller of each transport: only an in-process caller is told about invoke()', async () => {
    const refusal = async (transport: string) => (await invoke(Payout, args, { transport })).error;
    // A caller that is not the developer (an HTTP client, a model, a queue producer) cannot pass an
    // invoke() option: it is told only that nobody could be asked.
    for (const transport of ['http', 'openai', 'ai', 'queue', 'my-own']) {
      expect(await refusal(transport)).toBe("payout needs a person's approval, and nobody could be asked in this call, so it did not run.");
    }
    expect(await refusal('mcp')).toBe(
      "payout needs a person's approval, and this client cannot be asked (it does not support elicitation), so it did not run.",
    );
    expect(await refusal('inprocess')).toContain('pass invoke(…, { approve');
    // A transport named like an Object.prototype key is just another name.
    expect(await refusal('constructor')).toBe("payout needs a person's approval, and nobody could be asked in this call, so it did not run.");
    expect(ran).toEqual([]);
  });

  it('approve(call) sees the validated call; true runs it, false or { approved: false, reason } does not', async () => {
    const asked: ToolCall[] = [];
    const approved = await invoke(Payout, { ...args, amount: '75' }, { approve: (call) => (asked.push(call), true) });
    expect(approved.ok).toBe(true);
    expect(asked[0].input.amount).toBe(75);
    expect(asked[0].redactedInput()).toEqual({ amount: 75, iban: '[redacted]' });

    const denied = await invoke(Payout, args, { approve: async () => ({ approved: false, reason: 'the amount looks wrong' }) });
    expect(denied).toMatchObject({ outcome: 'failure', error: 'The call to payout was not approved: the amount looks wrong. It did not run.' });
    expect((denied.exception as ToolApprovalError).reason).toBe('denied');
    expect((await invoke(Payout, args, { approve: () => false })).ok).toBe(false);
    expect(ran).toEqual([75]);
  });

  it('a rule function decides per input; the approver is not asked when it says no', async () => {
    const approve = jest.fn(() => false);
    expect((await invoke(BigPayout, args, { approve })).ok).toBe(true);
    expect(approve).not.toHaveBeenCalled();
    expect((await invoke(BigPayout, { ...args, amount: 20_000 }, { approve })).ok).toBe(false);
    expect(approve).toHaveBeenCalledTimes(1);
    expect(ran).toEqual([50]);
    const invoker = new Invoker();
    expect(await invoker.approvalNeeded(BigPayout, { ...args, amount: 20_000 })).toBe(true);
    expect(await invoker.approvalNeeded(BigPayout, args)).toBe(false);
    expect(await invoker.approvalNeeded(BigPayout, { amount: 'lots' })).toBe(false); // fails without running anyway
  });

  it('an approver that throws or answers nonsense is a reported exception; the tool never runs', async () => {
    const reported: unknown[] = [];
    const onException = (error: unknown) => void reported.push(error);
    const threw = await invoke(Payout, args, { onException, approve: () => Promise.reject(new Error('approval service down')) });
    const nonsense = await invoke(Payout, args, { onException, approve: () => 'yes' as unknown as boolean });
    expect([threw.outcome, nonsense.outcome]).toEqual(['exception', 'exception']);
    expect(String(reported[1])).toContain("An approver answered 'yes'; answer true, false or { approved, reason? }.");
    expect(ran).toEqual([]);
  });

  it('cancelling while the approver is still deciding ends the call as cancelled', async () => {
    const controller = new AbortController();
    const pending = invoke(Payout, args, { signal: controller.signal, approve: () => new Promise<boolean>(() => undefined) });
    setTimeout(() => controller.abort(), 5);
    expect((await pending).exception).toBeInstanceOf(ToolCancelledError);
    expect(ran).toEqual([]);
  });

  it('destructive tools need approval only when the setting is on (off by default)', async () => {
    expect((await invoke(Wipe)).ok).toBe(true);
    expect((await new Invoker({ requireApprovalForDestructive: true }).invoke(Wipe)).exception).toBeInstanceOf(ToolApprovalError);
    configure({ requireApprovalForDestructive: true });
    try {
      expect((await invoke(Wipe)).ok).toBe(false);
      expect((await invoke(Wipe, {}, { approve: () => true })).ok).toBe(true);
      expect((await new Invoker({ requireApprovalForDestructive: false }).invoke(Wipe)).ok).toBe(true);
    } finally {
      configure({ requireApprovalForDestructive: undefined });
    }
    expect(ran).toEqual([-1, -1, -1]);
  });

  it('refuses an approval option that is neither required nor a function, naming the tool', () => {
    expect(() => {
      @Tool({ approval: 'always' as 'required' }) class Odd {
        call() {}
      }
      return Odd;
    }).toThrow("Odd: @Tool option 'approval' must be 'required' or a function of the input returning true when a call needs approval");
    expect(() => configure({ requireApprovalForDestructive: 'yes' as unknown as boolean })).toThrow(
      "configure: requireApprovalForDestructive must be true or false; got 'yes'.",
    );
  });
});

describe('arguments from another realm', () => {
  it('a plain object made in another vm context is plain input (the AI SDK clones messages so under test runners)', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const foreign = require('node:vm').runInNewContext('({ amount: 5, iban: "x" })') as object;
    expect(Object.getPrototypeOf(foreign)).not.toBe(Object.prototype);
    expect((await invoke(Payout, foreign, { approve: () => true })).ok).toBe(true);
    const instance = new (class Dto {
      amount = 5;
      iban = 'x';
    })();
    expect((await invoke(Payout, instance, { approve: () => true })).error).toContain('arguments must be an object');
  });
});

describe('inline tools', () => {
  it('defineTool takes approval like @Tool', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { defineTool } = require('toolwright') as typeof import('toolwright');
    const calls: number[] = [];
    const inline = defineTool({ name: 'inline_payout', approval: 'required' }, () => void calls.push(1));
    expect((await invoke(inline)).ok).toBe(false);
    expect((await invoke(inline, {}, { approve: () => true })).ok).toBe(true);
    expect(calls).toEqual([1]);
  });
});

// Issue 36, finding 1: the question is the call, whoever asks it.
describe('the approval question', () => {
  class Nested {
    @Field() street!: string;
    @Field({ sensitive: true }) code!: string;
  }
  class WireInput {
    @Field() memo!: string;
    @Field() to!: string;
    @Field() cents!: number;
    @Field({ type: () => Nested, optional: true }) address?: Nested;
    @Field({ type: () => [String], optional: true }) tags?: string[];
  }
  const wired: WireInput[] = [];
  @Tool({ name: 'wire', approval: 'required' })
  @Expects(WireInput)
  class Wire {
    call(input: WireInput) {
      wired.push(input);
    }
  }
  beforeEach(() => (wired.length = 0));

  it('shows every argument in declaration order; nested values in full; long texts shortened in their middle; sensitive ones redacted', async () => {
    const questions: string[] = [];
    const memo = `${'é'.repeat(99)}😀${'-'.repeat(500)}😀${'z'.repeat(39)}`;
    const result = await invoke(
      Wire,
      { tags: ['a', 'b\u202Ec'], address: { code: '1234', street: 'Main St' }, cents: 5, to: 'bob', memo },
      { approve: (call: ToolCall) => (questions.push(call.approvalQuestion().text), true) },
    );
    expect(result.ok).toBe(true);
    expect(questions).toEqual([
      'Allow the tool wire to run with these arguments?\n' +
        `memo: "${'é'.repeat(99)}😀" … [500 of 640 characters not shown] … "😀${'z'.repeat(39)}"\n` +
        'to: "bob"\n' +
        'cents: 5\n' +
        'address: { street: "Main St", code: "[redacted]" }\n' +
        // Invisible and direction-changing characters are shown as escapes: nothing reorders the question.
        'tags: ["a", "b\\u202ec"]',
    ]);
    expect(wired[0].memo).toBe(memo);
  });

  it('a call whose arguments cannot be shown is refused before the approver is asked, with a reason and what to do', async () => {
    let asked = 0;
    const tags = Array.from({ length: 1_000 }, (_, index) => `tag-${index}`);
    const result = await invoke(Wire, { memo: 'm', to: 'bob', cents: 5, tags }, { approve: () => (asked++, true) });
    expect(result.exception).toBeInstanceOf(ToolApprovalError);
    expect((result.exception as ToolApprovalError).reason).toBe('unshowable');
    expect(result.error).toMatch(/^wire needs a person's approval, and its arguments cannot be shown to them in one question/);
    expect(asked).toBe(0);
    expect(wired).toEqual([]);
  });

  it('a value nested deeper than the limit is refused, not asked', async () => {
    class Link {
      @Field() value!: number;
      @Field({ type: () => Link, optional: true }) next?: Link;
    }
    class ChainInput {
      @Field({ type: () => Link }) head!: Link;
    }
    @Tool({ name: 'chain', approval: 'required' })
    @Expects(ChainInput)
    class Chain {
      call() {
        ran.push(0);
      }
    }
    const chain = (length: number): Link => (length === 1 ? { value: length } : { value: length, next: chain(length - 1) });
    let asked = 0;
    const approve = () => (asked++, true);
    expect((await invoke(Chain, { head: chain(APPROVAL_QUESTION_LIMITS.maxDepth) }, { approve })).ok).toBe(true);
    const deep = await invoke(Chain, { head: chain(APPROVAL_QUESTION_LIMITS.maxDepth + 1) }, { approve });
    expect(deep.error).toBe(
      "chain needs a person's approval, and its arguments cannot be shown to them in one question: a value in them is nested more than 16 levels deep, so nobody was asked and it did not run. " +
        'Call it with fewer or shorter arguments, or split the work into several calls.',
    );
    expect(asked).toBe(1);
    expect(ran).toEqual([0]);
  });

  it('what runs is checked against what was asked: arguments changed while the person decides do not run', async () => {
    const result = await invoke(
      Wire,
      { memo: 'm', to: 'bob', cents: 5 },
      {
        approve: (call: ToolCall) => {
          call.approvalQuestion();
          (call.input as { to: string }).to = 'mallory';
          return true;
        },
      },
    );
    expect((result.exception as ToolApprovalError).reason).toBe('changed');
    expect(result.error).toBe('The arguments of the call to wire changed after its approval was asked, so it did not run. Ask for approval again.');
    expect(wired).toEqual([]);
  });
});
