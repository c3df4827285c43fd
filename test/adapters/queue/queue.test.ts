import 'reflect-metadata';
import IORedis from 'ioredis';
import { container as rootContainer, injectable } from 'tsyringe';
import {
  AmbientContext,
  configure,
  Expects,
  Exposes,
  fail,
  Field,
  Integer,
  invoke,
  SemanticHints,
  Tool,
  ToolCancelledError,
  ToolContext,
} from 'toolwright';
import { createToolQueue, startToolWorker, ToolJobError, ToolQueue, ToolWorker } from 'toolwright/queue';
import { startRedis, TestRedis } from '../../helpers/redis';

let redis: TestRedis;
const open: Array<{ close(): Promise<void> }> = [];
let queueCount = 0;

beforeAll(async () => {
  redis = await startRedis();
  configure({ onException: () => undefined });
});
afterAll(async () => {
  configure({ onException: undefined });
  await redis?.stop();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((thing) => thing.close()));
});

/** A queue and a worker on a queue of their own, closed after the test. */
function pair(workerOptions: Partial<Parameters<typeof startToolWorker>[0]> = {}, withWorker = true): { queue: ToolQueue; worker?: ToolWorker; name: string } {
  const name = `q${++queueCount}`;
  const queue = createToolQueue({ connection: redis.connection, name });
  open.push(queue);
  if (!withWorker) return { queue, name };
  const worker = startToolWorker({ connection: redis.connection, name, tools: TOOLS, ...workerOptions });
  open.push(worker);
  return { queue, worker, name };
}

const calls = { flaky: 0, once: 0, slow: 0 };

@Tool({ error: 'Could not approve the loan', success: 'Loan approved' })
@Expects({ loanId: String, amount: { type: Integer, min: 1 } })
@Exposes({ loanId: String, amount: Number })
class ApproveLoan {
  call({ loanId, amount }: { loanId: string; amount: number }) {
    calls.once++;
    if (loanId === 'missing') fail('no such loan');
    if (loanId === 'boom') throw new Error('postgres://admin:hunter2@db is down');
    return { loanId, amount };
  }
}

@Tool()
@SemanticHints('idempotent')
@Expects({ failTimes: Number })
class Flaky {
  call({ failTimes }: { failTimes: number }) {
    calls.flaky++;
    if (calls.flaky <= failTimes) throw new Error('transient');
    return { attempts: calls.flaky };
  }
}

@Tool()
@Expects({ ms: Number })
class Slow {
  async call({ ms }: { ms: number }, { signal }: ToolContext) {
    calls.slow++;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
    return { slept: ms };
  }
}

class WhoAmI {
  @Field() note!: string;
  @AmbientContext() officerId!: string;
}

@Tool()
@Expects(WhoAmI)
class Whoami {
  call(input: WhoAmI) {
    return { officer: input.officerId, note: input.note };
  }
}

@injectable()
class Greeter {
  greet(name: string) {
    return `Hello, ${name}`;
  }
}

@Tool()
@injectable()
@Expects({ name: String })
class Greet {
  constructor(private readonly greeter: Greeter) {}
  call({ name }: { name: string }) {
    return this.greeter.greet(name);
  }
}

@Tool()
@Expects({ text: String })
class CountChars {
  call({ text }: { text: string }) {
    return { length: text.length };
  }
}

const TOOLS = [ApproveLoan, Flaky, Slow, Whoami, Greet, CountChars];

beforeEach(() => {
  calls.flaky = calls.once = calls.slow = 0;
});

describe('toolwright/queue: enqueue and run', () => {
  it('runs a call on a worker: the same outcome, value and message as in process; wire strings coerced once', async () => {
    const { queue } = pair();
    const job = await queue.enqueue(ApproveLoan, { loanId: 'L1', amount: '500' });
    expect(job.accepted).toBe(true);
    expect(typeof job.id).toBe('string');
    const result = await job.result();
    const local = await invoke(ApproveLoan, { loanId: 'L1', amount: '500' });
    expect(result.toJSON()).toEqual(local.toJSON());
    expect(result).toMatchObject({ ok: true, value: { loanId: 'L1', amount: 500 }, message: 'Loan approved' });
    expect(await job.status()).toBe('completed');
  });

  it('refuses invalid input before enqueueing: the same failure and field errors as in process, nothing in Redis', async () => {
    const { queue } = pair({}, false);
    const job = await queue.enqueue(ApproveLoan, { loanId: 'L1', amount: 0, extra: 1 });
    const local = await invoke(ApproveLoan, { loanId: 'L1', amount: 0, extra: 1 });
    expect(job.accepted).toBe(false);
    expect(job.id).toBeUndefined();
    expect(await job.status()).toBe('rejected');
    const result = await job.result();
    expect(result.toJSON()).toEqual(local.toJSON());
    expect(result.fieldErrors.map((e) => e.field).sort()).toEqual(['amount', 'extra']);
    expect(await queue.bullQueue.getJobCounts()).toMatchObject({ waiting: 0, delayed: 0, prioritized: 0 });
  });

  it('keeps a business failure and an exception apart, as in process; the exception detail stays on the worker', async () => {
    const { queue } = pair();
    const failed = await (await queue.enqueue(ApproveLoan, { loanId: 'missing', amount: 1 })).result();
    expect(failed).toMatchObject({ ok: false, outcome: 'failure', message: 'Could not approve the loan: no such loan' });
    const thrown = await (await queue.enqueue(ApproveLoan, { loanId: 'boom', amount: 1 })).result();
    expect(thrown).toMatchObject({ ok: false, outcome: 'exception', message: 'Could not approve the loan' });
    expect(JSON.stringify(thrown.toJSON())).not.toContain('hunter2');
    // Not idempotent: run once, never retried.
    expect(calls.once).toBe(2);
  });

  it('retries an idempotent tool that throws, with backoff, up to attempts', async () => {
    const { queue } = pair();
    const result = await (await queue.enqueue(Flaky, { failTimes: 2 }, { attempts: 3, backoffMs: 5 })).result();
    expect(result).toMatchObject({ ok: true, value: { attempts: 3 } });
    calls.flaky = 0;
    const exhausted = await (await queue.enqueue(Flaky, { failTimes: 5 }, { attempts: 2, backoffMs: 5 })).result();
    expect(exhausted.outcome).toBe('exception');
    expect(calls.flaky).toBe(2);
  });

  it('refuses attempts > 1 for a tool that is neither idempotent nor readOnly, naming the fix', async () => {
    const { queue } = pair({}, false);
    await expect(queue.enqueue(ApproveLoan, { loanId: 'L', amount: 1 }, { attempts: 2 })).rejects.toThrow(
      /attempts 2 would run .*ApproveLoan.* more than once.*@SemanticHints\('idempotent'\)/,
    );
  });

  it('refuses bad options and a bad connection setting with a clear error', async () => {
    const { queue } = pair({}, false);
    await expect(queue.enqueue(ApproveLoan, { loanId: 'L', amount: 1 }, { atempts: 2 } as never)).rejects.toThrow(/unknown option 'atempts'/);
    await expect(queue.enqueue(Flaky, { failTimes: 0 }, { attempts: 0 })).rejects.toThrow(/attempts must be an integer of at least 1; got 0/);
    await expect(queue.enqueue(Flaky, { failTimes: 0 }, { jobId: '12' })).rejects.toThrow(/jobId must be/);
    await expect(queue.enqueue(Whoami, { note: 'x' }, { ambientContext: { officerId: () => 1 } })).rejects.toThrow(/ambient value 'officerId' cannot travel through Redis/);
    expect(() => createToolQueue({} as never)).toThrow(/createToolQueue needs \{ connection \}/);
    expect(() => startToolWorker({ connection: redis.connection, concurency: 2 } as never)).toThrow(/unknown option 'concurency'/);
  });

  it('carries ambient values through Redis, and a worker ambientContext function replaces them', async () => {
    const { queue } = pair();
    const forged = await queue.enqueue(Whoami, { note: 'n', officerId: 'forged' }, { ambientContext: { officerId: 'o-7' } });
    expect(forged.accepted).toBe(false);
    expect((await forged.result()).message).toMatch(/unknown input: officerId/);
    const job = await queue.enqueue(Whoami, { note: 'n' }, { ambientContext: { officerId: 'o-7' } });
    expect((await job.result()).value).toEqual({ officer: 'o-7', note: 'n' });

    const seen: unknown[] = [];
    const other = pair({ ambientContext: ({ enqueued, tool }) => (seen.push([tool.toolName(), enqueued]), { officerId: 'from-worker' }) });
    const derived = await (await other.queue.enqueue(Whoami, { note: 'n' }, { ambientContext: { officerId: 'o-7' } })).result();
    expect(derived.value).toEqual({ officer: 'from-worker', note: 'n' });
    expect(seen).toEqual([['whoami', { officerId: 'o-7' }]]);
  });

  it("a missing ambient value is the worker's exception, as in process", async () => {
    const { queue } = pair();
    const result = await (await queue.enqueue(Whoami, { note: 'n' })).result();
    expect(result.outcome).toBe('exception');
  });

  it("resolves the tool through the worker's DI container", async () => {
    const child = rootContainer.createChildContainer();
    child.register(Greeter, { useValue: { greet: (name: string) => `Hi ${name} (child)` } });
    const { queue } = pair({ container: child });
    expect((await (await queue.enqueue(Greet, { name: 'Ada' })).result()).value).toBe('Hi Ada (child)');
  });

  it('fails a job for a tool the worker does not know, with a clear error', async () => {
    const { queue } = pair({ tools: [Greet] });
    const result = await (await queue.enqueue(Flaky, { failTimes: 0 })).result();
    expect(result.outcome).toBe('exception');
    expect(result.exception).toBeInstanceOf(ToolJobError);
    expect((result.exception as Error).message).toMatch(/This worker has no tool 'flaky' version 1 \(it runs: greet@1\)\. Start it with startToolWorker\(\{ tools/);
  });
});

describe('toolwright/queue: handles, cancellation and shutdown', () => {
  it('another process finds a job by id and reads its result', async () => {
    const { queue, name } = pair();
    const job = await queue.enqueue(ApproveLoan, { loanId: 'L2', amount: 2 }, { jobId: 'loan-L2' });
    expect(job.id).toBe('loan-L2');
    const elsewhere = createToolQueue({ connection: redis.connection, name });
    open.push(elsewhere);
    const found = await elsewhere.job('loan-L2');
    expect(found?.tool.toolName()).toBe('approve_loan');
    expect((await found!.result()).value).toEqual({ loanId: 'L2', amount: 2 });
    expect(await elsewhere.job('nope')).toBeUndefined();
  });

  it("result() reads how the job ended, not the job's input back from Redis", async () => {
    const { queue, worker } = pair();
    const text = 'x'.repeat(256 * 1024);
    const job = await queue.enqueue(CountChars, { text });
    expect((await job.result()).value).toEqual({ length: text.length });
    await worker!.close();
    const probe = new IORedis(redis.connection);
    const sent = async () => Number(/total_net_output_bytes:(\d+)/.exec(await probe.info('stats'))![1]);
    try {
      const before = await sent();
      expect((await job.result()).value).toEqual({ length: text.length });
      // Everything Redis sent meanwhile (to every connection): far less than the 256 KiB input.
      expect((await sent()) - before).toBeLessThan(16 * 1024);
    } finally {
      probe.disconnect();
    }
  });

  it('cancel removes a waiting job: it never runs, and its result is the cancelled failure', async () => {
    const { queue, name } = pair({}, false);
    const job = await queue.enqueue(Slow, { ms: 1 });
    expect(await job.status()).toBe('waiting');
    expect(await job.cancel()).toBe(true);
    expect(await job.status()).toBe('cancelled');
    const result = await job.result();
    expect(result).toMatchObject({ ok: false, outcome: 'failure', message: 'The call was cancelled.' });
    expect(result.exception).toBeInstanceOf(ToolCancelledError);
    open.push(startToolWorker({ connection: redis.connection, name, tools: TOOLS }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls.slow).toBe(0);
  });

  it("cancel aborts a running call's signal on whichever worker runs it", async () => {
    const { queue } = pair();
    const job = await queue.enqueue(Slow, { ms: 20_000 });
    while ((await job.status()) !== 'active') await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await job.cancel()).toBe(true);
    const result = await job.result({ timeoutMs: 5000 });
    expect(result).toMatchObject({ outcome: 'failure', message: 'The call was cancelled.' });
    expect(await job.status()).toBe('cancelled');
    expect(await job.cancel()).toBe(false);
  });

  it('result({ timeoutMs }) gives up with an exception naming the job, without cancelling it', async () => {
    const { queue } = pair({}, false);
    const job = await queue.enqueue(Slow, { ms: 1 });
    const result = await job.result({ timeoutMs: 50 });
    expect(result.outcome).toBe('exception');
    expect((result.exception as Error).message).toMatch(new RegExp(`Job ${job.id} did not finish within 50 ms`));
    expect(await job.status()).toBe('waiting');
  });

  it('close() lets running calls finish', async () => {
    const { queue, worker } = pair();
    const job = await queue.enqueue(Slow, { ms: 300 });
    while ((await job.status()) !== 'active') await new Promise((resolve) => setTimeout(resolve, 10));
    await worker!.close();
    expect(await job.status()).toBe('completed');
    expect((await job.result()).value).toEqual({ slept: 300 });
  });
});
