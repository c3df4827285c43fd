/**
 * Approvals in the Toolbox: a call that needs approval gives an `approval_required` record, the
 * application answers it once with approve/deny, and the model is told the outcome.
 */
import 'reflect-metadata';
import { audit, AuditRecord, Expects, Field, Invoker, Tool } from 'toolwright';
import { toMessages, Toolbox } from 'toolwright/openai';
import { paid as paidFixture, Pay as PayFixture } from '../../fixtures/mcp-rounds/tools';

class RefundInput {
  @Field() orderId!: string;
  @Field() cents!: number;
}

const refunded: string[] = [];

@Tool('openai', { name: 'refund', approval: (input: RefundInput) => input.cents > 100 })
@Expects(RefundInput)
class Refund {
  call(input: RefundInput) {
    refunded.push(input.orderId);
    return undefined;
  }
}

const call = (id: string, cents: number) => ({
  id,
  type: 'function' as const,
  function: { name: 'refund', arguments: JSON.stringify({ orderId: id, cents }) },
});

beforeEach(() => (refunded.length = 0));

describe('Toolbox approvals', () => {
  it('returns approval_required without running; approve() runs it and gives the record to send', async () => {
    const toolbox = new Toolbox([Refund]);
    const [small, big] = await toolbox.invokeAll([call('c1', 50), call('c2', 500)]);
    expect(small.status).toBe('completed');
    expect(big).toMatchObject({ id: 'c2', status: 'approval_required', result: undefined });
    expect(refunded).toEqual(['c1']);
    expect(() => toMessages([small, big])).toThrow('toMessages: record 1 (refund) is waiting for approval. Answer it first');

    const answered = await toolbox.approve(big);
    expect(answered).toMatchObject({ id: 'c2', status: 'completed' });
    expect(refunded).toEqual(['c1', 'c2']);
    expect(toMessages([small, answered])).toHaveLength(2);
  });

  it('deny() never runs the tool and tells the model why', async () => {
    const toolbox = new Toolbox([Refund]);
    const pending = await toolbox.invoke(call('c3', 900));
    const denied = await toolbox.deny(pending, 'refunds over 1 € need a manager');
    expect(denied).toMatchObject({
      status: 'failed',
      output: 'The call to refund was not approved: refunds over 1 € need a manager. It did not run.',
    });
    expect(toMessages([denied])).toEqual([{ role: 'tool', tool_call_id: 'c3', content: denied.output }]);
    expect(refunded).toEqual([]);
  });

  it('a record is answered once, and only by the toolbox that made it', async () => {
    const toolbox = new Toolbox([Refund]);
    const pending = await toolbox.invoke(call('c4', 900));
    expect(() => new Toolbox([Refund]).approve(pending)).toThrow(
      "Toolbox.approve: expected an 'approval_required' record from this toolbox's invoke or invokeAll, not yet answered",
    );
    await toolbox.approve(pending);
    expect(() => toolbox.approve(pending)).toThrow('not yet answered');
    expect(() => toolbox.deny({ ...pending })).toThrow('Toolbox.deny: expected an');
    expect(refunded).toEqual(['c4']);
  });

  it('an approve option answers at once, and middleware sees the transport, the call id and the denial', async () => {
    const records: AuditRecord[] = [];
    const toolbox = new Toolbox([Refund], { invoker: new Invoker({ middleware: [audit((record) => void records.push(record))] }) });
    const record = await toolbox.invoke(call('c5', 900), { approve: () => ({ approved: false, reason: 'no' }) });
    expect(record.status).toBe('failed');
    expect(records).toEqual([expect.objectContaining({ transport: 'openai', callId: 'c5', outcome: 'failure', errorType: 'ToolApprovalError' })]);
    await expect(toolbox.invoke(call('c6', 900), { approve: 'yes' as never })).rejects.toThrow(
      "Toolbox.invoke: 'approve' must be a function (call) => boolean | { approved, reason }; got 'yes'.",
    );
  });
});

// Issue 23, finding 15: approve() ran with the record's live arguments.
class Memo {
  @Field() note!: string;
}

class PayInput {
  @Field() cents!: number;
  @Field() to!: string;
  @Field({ type: () => Memo, optional: true }) memo?: Memo;
}

const paid: PayInput[] = [];

@Tool('openai', { name: 'pay', approval: 'required' })
@Expects(PayInput)
class Pay {
  call(input: PayInput) {
    paid.push(JSON.parse(JSON.stringify(input)));
    return undefined;
  }
}

/** Tries a change; a frozen record or value refuses it (a TypeError in strict code, silently elsewhere). */
function tamper(change: () => void): void {
  try {
    change();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
  }
}

describe('what approve() runs', () => {
  beforeEach(() => (paid.length = 0));
  const shown = { cents: 500, to: 'alice', memo: { note: 'rent' } };

  it('exactly the arguments the record showed: a change to them, nested or not, changes nothing', async () => {
    const toolbox = new Toolbox([Pay]);
    const pending = await toolbox.invoke({ id: 'p1', name: 'pay', arguments: JSON.stringify(shown) });
    expect(pending).toMatchObject({ status: 'approval_required', arguments: shown });
    const args = pending.arguments as PayInput;
    tamper(() => (args.cents = 99999));
    tamper(() => (args.to = 'mallory'));
    tamper(() => (args.memo!.note = 'stolen'));
    tamper(() => delete (args as Partial<PayInput>).to);
    expect(Object.isFrozen(args) && Object.isFrozen(args.memo)).toBe(true);
    expect(pending.arguments).toEqual(shown);
    expect(await toolbox.approve(pending)).toMatchObject({ status: 'completed', arguments: shown });
    expect(paid).toEqual([shown]);
  });

  it("a change to the caller's own arguments object, or a replaced arguments object on the record, changes nothing", async () => {
    const toolbox = new Toolbox([Pay]);
    const mine: Record<string, any> = structuredClone(shown);
    const pending = await toolbox.invoke({ id: 'p2', name: 'pay', arguments: mine });
    mine.cents = 99999;
    mine.to = 'mallory';
    mine.memo.note = 'stolen';
    tamper(() => ((pending as { arguments: unknown }).arguments = { cents: 99999, to: 'mallory' }));
    tamper(() => Object.defineProperty(pending, 'arguments', { value: { cents: 99999, to: 'mallory' } }));
    expect(Object.isFrozen(pending)).toBe(true);
    expect(pending.arguments).toEqual(shown);
    await toolbox.approve(pending);
    expect(paid).toEqual([shown]);
  });

  it('a forged record, one never pending, or a copy with other arguments, is refused and nothing runs', async () => {
    const toolbox = new Toolbox([Pay]);
    const pending = await toolbox.invoke({ id: 'p3', name: 'pay', arguments: shown });
    const forged = { ...pending, arguments: { cents: 99999, to: 'mallory' } };
    const never = { id: 'p4', name: 'pay', api: 'chat' as const, status: 'approval_required' as const, durationMs: 0, arguments: { cents: 1, to: 'x' }, result: undefined, output: '' };
    const completed = await toolbox.invoke({ id: 'p5', name: 'pay', arguments: shown }, { approve: () => true });
    for (const record of [forged, never, completed]) {
      expect(() => toolbox.approve(record)).toThrow(
        "Toolbox.approve: expected an 'approval_required' record from this toolbox's invoke or invokeAll, not yet answered; got ",
      );
    }
    expect(() => toolbox.approve(forged)).toThrow('Pass the record itself (not a copy); approve() runs the arguments it showed when the approval was requested.');
    expect(paid).toEqual([shown]); // the call approved at once, only
    await toolbox.approve(pending);
    expect(paid).toEqual([shown, shown]);
  });

  it('arguments that cannot be copied to be shown are a failed record, never a pending one', async () => {
    const toolbox = new Toolbox([Pay]);
    const record = await toolbox.invoke({ name: 'pay', arguments: { cents: 1, to: 'x', memo: { note: () => 'code' } } });
    expect(record.status).toBe('failed');
    // Checked before anyone is asked: arguments that fail their checks are never shown for approval.
    expect(record.output).toBe('Invalid tool arguments: memo.note must be a string');
    expect(paid).toEqual([]);
  });
});

// Issue 36, finding 1: the question a person reads is the one every way in asks, with every argument.
describe('the question of a call waiting for approval', () => {
  beforeEach(() => (paidFixture.length = 0));
  const memo = 'invoice-'.repeat(300);
  const payCall = (id: string, args: Record<string, unknown>) => ({ id, name: 'pay', arguments: JSON.stringify(args) });

  it('the record carries the question MCP asks: every argument, a long one shortened in its middle with its length', async () => {
    const toolbox = new Toolbox([PayFixture]);
    const pending = await toolbox.invoke(payCall('t1', { memo, to: 'mallory-offshore', cents: 99999900 }));
    expect(pending.status).toBe('approval_required');
    expect(pending.question).toBe(
      'Allow the tool pay to run with these arguments?\n' +
        `memo: "${'invoice-'.repeat(12)}invo" … [2,260 of 2,400 characters not shown] … "${'invoice-'.repeat(5)}"\n` +
        'to: "mallory-offshore"\ncents: 99999900',
    );
    expect(await toolbox.approve(pending)).toMatchObject({ status: 'completed' });
    expect(paidFixture.map((payment) => payment.to)).toEqual(['mallory-offshore']);
  });

  it('arguments that cannot be shown within the limit give a failed record at once, never one waiting for approval', async () => {
    const toolbox = new Toolbox([PayFixture]);
    const notes = Array.from({ length: 400 }, (_, index) => `note ${index} `.padEnd(30, '.'));
    const record = await toolbox.invoke(payCall('t2', { memo: 'rent', to: 'alice', cents: 500, notes }));
    expect(record).toMatchObject({ status: 'failed' });
    expect(record.question).toBeUndefined();
    expect(record.output).toMatch(/^pay needs a person's approval, and its arguments cannot be shown to them in one question: .* so nobody was asked and it did not run\./);
    // An approve option answering at once is refused the same way, before it is asked.
    let asked = 0;
    const direct = await toolbox.invoke(payCall('t3', { memo: 'rent', to: 'alice', cents: 500, notes }), { approve: () => (asked++, true) });
    expect(direct).toMatchObject({ status: 'failed', output: record.output });
    expect(asked).toBe(0);
    expect(paidFixture).toEqual([]);
  });
});
