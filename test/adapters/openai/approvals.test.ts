/**
 * Approvals in the Toolbox: a call that needs approval gives an `approval_required` record, the
 * application answers it once with approve/deny, and the model is told the outcome.
 */
import 'reflect-metadata';
import { audit, AuditRecord, Expects, Field, Invoker, Tool } from 'toolwright';
import { toMessages, Toolbox } from 'toolwright/openai';

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
