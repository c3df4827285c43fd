/**
 * The call pipeline's middleware: order, what a call carries, short-circuits, faulty middleware,
 * and the built-ins (concurrencyLimit, rateLimit, audit) pushed past their limits.
 */
import 'reflect-metadata';
import {
  AmbientContext,
  audit,
  AuditRecord,
  concurrencyLimit,
  configure,
  Expects,
  fail,
  Field,
  invoke,
  Invoker,
  Middleware,
  rateLimit,
  Tool,
  ToolBusyError,
  ToolCall,
  ToolCancelledError,
  ToolRateLimitError,
} from 'toolwright';

class Card {
  @Field() holder!: string;
  @Field({ sensitive: true }) number!: string;
}

class TransferInput {
  @Field({ min: 1 }) amount!: number;
  @Field({ sensitive: true }) pin!: string;
  @Field({ optional: true, type: () => Card }) card?: Card;
  @AmbientContext() userId!: string;
}

const ran: Array<Record<string, unknown>> = [];

@Tool({ name: 'transfer', error: 'Could not transfer' })
@Expects(TransferInput)
class Transfer {
  call(input: TransferInput) {
    ran.push({ ...input });
    if (input.amount > 1000) fail('over the limit');
    return { ok: true };
  }
}

const gates: Array<() => void> = [];
let running = 0;
let peak = 0;

@Tool({ name: 'slow' })
class Slow {
  async call() {
    running++;
    peak = Math.max(peak, running);
    await new Promise<void>((resolve) => gates.push(resolve));
    running--;
  }
}

const user = (userId: string) => ({ ambientContext: { userId } });
const reported: unknown[] = [];
const onException = (error: unknown) => void reported.push(error);

beforeEach(() => {
  ran.length = 0;
  reported.length = 0;
  gates.length = 0;
  running = peak = 0;
});
afterEach(() => configure({ middleware: undefined }));

/** Lets pending promise callbacks run. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('middleware', () => {
  it('runs in the documented order, process-wide first, each seeing the validated call', async () => {
    const order: string[] = [];
    const seen: ToolCall[] = [];
    const mark =
      (name: string): Middleware =>
      async (call, next) => {
        order.push(`${name} in`);
        seen.push(call);
        const result = await next();
        order.push(`${name} out`);
        return result;
      };
    configure({ middleware: [mark('global')] });
    const invoker = new Invoker({ middleware: [mark('first'), mark('second')], onException });
    const result = await invoker.invoke(Transfer, { amount: '5', pin: '1234' }, { ...user('u1'), callId: 'call-7' });

    expect(result.ok).toBe(true);
    expect(order).toEqual(['global in', 'first in', 'second in', 'second out', 'first out', 'global out']);
    const call = seen[0];
    expect(call.input).toMatchObject({ amount: 5, pin: '1234', userId: 'u1' }); // coerced: validated before middleware
    expect(call.transport).toBe('inprocess');
    expect(call.id).toBe('call-7');
    expect(call.ambient.get('userId')).toBe('u1');
    expect(call.tool.toolName()).toBe('transfer');
    expect(call.redactedInput()).toEqual({ amount: 5, pin: '[redacted]' });
    expect(seen.every((other) => other === call)).toBe(true);
  });

  it('never sees a call whose input is invalid, and a call without an id gets a UUID', async () => {
    const seen: ToolCall[] = [];
    const invoker = new Invoker({ middleware: [(call, next) => (seen.push(call), next())] });
    const bad = await invoker.invoke(Transfer, { amount: 0, pin: 'x' }, user('u1'));
    expect(bad.outcome).toBe('failure');
    expect(seen).toHaveLength(0);
    await invoker.invoke(Transfer, { amount: 1, pin: 'x' }, user('u1'));
    expect(seen[0].id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('short-circuits with call.fail() or fail(), and the tool never runs', async () => {
    const refuse: Middleware = (call) => call.fail('closed for the weekend');
    const throwing: Middleware = () => fail('maintenance', { standalone: true });
    const first = await new Invoker({ middleware: [refuse] }).invoke(Transfer, { amount: 5, pin: '1' }, user('u1'));
    expect(first).toMatchObject({ outcome: 'failure', error: 'Could not transfer: closed for the weekend' });
    const second = await new Invoker({ middleware: [throwing] }).invoke(Transfer, { amount: 5, pin: '1' }, user('u1'));
    expect(second).toMatchObject({ outcome: 'failure', error: 'maintenance' });
    expect(ran).toHaveLength(0);
  });

  it('a middleware that throws, answers something else or calls next() twice is one reported exception', async () => {
    const cases: Middleware[] = [
      function broken() {
        throw new Error('middleware bug');
      },
      async () => {
        throw new Error('async middleware bug');
      },
      (() => 'not a result') as unknown as Middleware,
      async function twice(_call, next) {
        await next();
        return next();
      },
    ];
    for (const middleware of cases) {
      reported.length = 0;
      ran.length = 0;
      const result = await new Invoker({ middleware: [middleware], onException }).invoke(Transfer, { amount: 5, pin: '1' }, user('u1'));
      expect(result.outcome).toBe('exception');
      expect(reported).toHaveLength(1);
      expect(ran.length).toBeLessThanOrEqual(1);
    }
    expect(String(reported[0])).toContain("middleware 'twice' called next() twice");
    const answered = await new Invoker({ middleware: [cases[2]], onException }).invoke(Transfer, { amount: 5, pin: '1' }, user('u1'));
    expect(String(answered.exception)).toContain('instead of a Result: return next()');
  });

  it('a middleware after a tool exception does not report it again', async () => {
    @Tool({ name: 'buggy' }) class Buggy {
      call() {
        throw new Error('tool bug');
      }
    }
    const result = await new Invoker({ middleware: [(_call, next) => next()], onException }).invoke(Buggy);
    expect(result.outcome).toBe('exception');
    expect(reported).toHaveLength(1);
  });

  it('refuses a middleware list that is not a list of functions, naming where', () => {
    expect(() => new Invoker({ middleware: ['audit' as unknown as Middleware] })).toThrow(
      "Invoker: middleware #1 must be a function (call, next) => Promise<Result>; got 'audit'.",
    );
    expect(() => configure({ middleware: {} as unknown as Middleware[] })).toThrow("configure: 'middleware' must be a list of functions");
  });
});

describe('concurrencyLimit', () => {
  it('runs at most n calls of a tool at once; the rest wait their turn', async () => {
    const invoker = new Invoker({ middleware: [concurrencyLimit(2)] });
    const calls = Array.from({ length: 5 }, () => invoker.invoke(Slow));
    await tick();
    expect(running).toBe(2);
    while (gates.length > 0 || running > 0) {
      gates.shift()?.();
      await tick();
    }
    expect((await Promise.all(calls)).every((result) => result.ok)).toBe(true);
    expect(peak).toBe(2);
  });

  it('past maxWaiting a call is refused at once as busy; a cancelled waiter leaves the queue', async () => {
    const invoker = new Invoker({ middleware: [concurrencyLimit(1, { maxWaiting: 1 })] });
    const first = invoker.invoke(Slow);
    const controller = new AbortController();
    const waiting = invoker.invoke(Slow, {}, { signal: controller.signal });
    const refused = await invoker.invoke(Slow);
    expect(refused).toMatchObject({ outcome: 'failure', error: 'slow is busy (1 call running, 1 waiting). Retry shortly.' });
    expect(refused.exception).toBeInstanceOf(ToolBusyError);
    controller.abort();
    expect((await waiting).exception).toBeInstanceOf(ToolCancelledError);
    const next = invoker.invoke(Slow); // the queue has room again
    await tick();
    gates.shift()!();
    await tick();
    gates.shift()!();
    expect((await first).ok && (await next).ok).toBe(true);
    expect(peak).toBe(1);
  });

  it('refuses a limit that is not a whole number of at least 1', () => {
    expect(() => concurrencyLimit(0)).toThrow('concurrencyLimit: the limit must be a whole number of at least 1; got 0.');
    expect(() => concurrencyLimit(2, { maxWaiting: -1 })).toThrow('maxWaiting must be a whole number of at least 0');
  });
});

describe('rateLimit', () => {
  it('refuses past the budget of a key with a failure that says when to retry; other keys are unaffected', async () => {
    const invoker = new Invoker({ middleware: [rateLimit({ points: 2, per: 'minute', key: (call) => call.ambient.get('userId') })] });
    const call = (userId: string) => invoker.invoke(Transfer, { amount: 5, pin: '1' }, user(userId));
    expect((await call('u1')).ok).toBe(true);
    expect((await call('u1')).ok).toBe(true);
    const refused = await call('u1');
    expect(refused.outcome).toBe('failure');
    expect(refused.error).toMatch(/^Too many calls to transfer: the limit is 2 per minute\. Retry in (30|29) s\.$/);
    expect(refused.exception).toBeInstanceOf(ToolRateLimitError);
    expect((refused.exception as ToolRateLimitError).retryAfterMs).toBeGreaterThan(29_000);
    expect((await call('u2')).ok).toBe(true);
    expect(ran).toHaveLength(3);
  });

  it('forgets the longest-idle keys past maxKeys, so distinct keys never grow without bound', async () => {
    const invoker = new Invoker({
      middleware: [rateLimit({ points: 1, per: 'hour', key: (call) => call.ambient.get('userId'), maxKeys: 2 })],
    });
    const call = (userId: string) => invoker.invoke(Transfer, { amount: 5, pin: '1' }, user(userId));
    expect((await call('a')).ok).toBe(true);
    expect((await call('a')).ok).toBe(false);
    await call('b');
    await call('c'); // 'a' is forgotten
    expect((await call('a')).ok).toBe(true);
  });

  it('a key that is not a string or number is a reported exception; bad options are refused', async () => {
    const invoker = new Invoker({ middleware: [rateLimit({ points: 1, per: 1000, key: () => ({ user: 1 }) })], onException });
    expect((await invoker.invoke(Transfer, { amount: 5, pin: '1' }, user('u1'))).outcome).toBe('exception');
    expect(reported).toHaveLength(1);
    expect(() => rateLimit({ points: 0, per: 'minute' })).toThrow('rateLimit: points must be a whole number of at least 1; got 0.');
    expect(() => rateLimit({ points: 1, per: 'week' as 'day' })).toThrow("rateLimit: per must be a positive number of milliseconds or 'second'");
  });
});

describe('audit', () => {
  it('receives each finished call with sensitive values redacted, at any depth', async () => {
    const records: AuditRecord[] = [];
    const invoker = new Invoker({ middleware: [audit((record) => void records.push(record))] });
    await invoker.invoke(Transfer, { amount: 5, pin: '1234', card: { holder: 'Ada', number: '4111111111111111' } }, { ...user('u1'), callId: 'c-1' });
    await invoker.invoke(Transfer, { amount: 5000, pin: '1234' }, user('u2'));

    expect(records[0]).toMatchObject({
      tool: 'transfer',
      toolId: 'Transfer',
      version: 1,
      transport: 'inprocess',
      callId: 'c-1',
      outcome: 'success',
      caller: { userId: 'u1' },
      input: { amount: 5, pin: '[redacted]', card: { holder: 'Ada', number: '[redacted]' } },
    });
    expect(records[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(records[1]).toMatchObject({ outcome: 'failure', error: 'Could not transfer: over the limit', errorType: 'ToolFailure' });
    expect(JSON.stringify(records)).not.toMatch(/1234|4111/);
  });

  it('listed first, it records refusals by later middleware too; identity picks the caller keys', async () => {
    const records: AuditRecord[] = [];
    const invoker = new Invoker({
      middleware: [audit((record) => void records.push(record), { identity: ['userId', 'tenant'] }), rateLimit({ points: 1, per: 'hour' })],
    });
    await invoker.invoke(Transfer, { amount: 5, pin: '1' }, { ambientContext: { userId: 'u1', tenant: 't9' } });
    await invoker.invoke(Transfer, { amount: 5, pin: '1' }, { ambientContext: { userId: 'u1', tenant: 't9' } });
    expect(records.map((record) => [record.outcome, record.errorType])).toEqual([
      ['success', undefined],
      ['failure', 'ToolRateLimitError'],
    ]);
    expect(records[1].caller).toEqual({ userId: 'u1', tenant: 't9' });
  });

  it('a hook that throws is one reported exception', async () => {
    const invoker = new Invoker({
      middleware: [
        audit(() => {
          throw new Error('audit store down');
        }),
      ],
      onException,
    });
    expect((await invoker.invoke(Transfer, { amount: 5, pin: '1' }, user('u1'))).outcome).toBe('exception');
    expect(reported).toEqual([new Error('audit store down')]);
  });
});

describe('sensitive fields in exception reports', () => {
  it('the arguments an exception report carries show sensitive values as [redacted]', async () => {
    @Tool({ name: 'explode' }) @Expects(TransferInput) class Explode {
      call() {
        throw new Error('boom');
      }
    }
    const contexts: unknown[] = [];
    await invoke(Explode, { amount: 5, pin: '9876', card: { holder: 'Ada', number: '4111' } }, {
      ...user('u1'),
      onException: (_error, context) => void contexts.push(context.args),
    });
    expect(contexts).toEqual([{ amount: 5, pin: '[redacted]', card: { holder: 'Ada', number: '[redacted]' } }]);
  });

  it('sensitive must be true or false', () => {
    expect(() => {
      class Bad {
        @Field({ sensitive: 'yes' as unknown as boolean }) secret!: string;
      }
      return Bad;
    }).toThrow("Bad.secret: 'sensitive' must be true or false; got 'yes'.");
  });
});
