/**
 * A queue handle never hangs on an unreachable Redis (issue 23, finding 9): with the test's
 * redis-server stopped, or a port nothing listens on, every call settles with a
 * RedisUnreachableError naming where Redis should be and what to do; once Redis is back on the same
 * port, the same queue and worker work again.
 */
import 'reflect-metadata';
import * as net from 'node:net';
import { configure, Expects, Exposes, SemanticHints, Tool } from 'toolwright';
import { createToolQueue, RedisUnreachableError, startToolWorker, ToolJob, ToolJobError } from 'toolwright/queue';
import { startRedis, TestRedis } from '../../helpers/redis';

@Tool({ adapters: { queue: {} } })
@SemanticHints('readOnly')
@Expects({ text: String })
@Exposes({ echoed: String })
class Echo {
  call({ text }: { text: string }) {
    return { echoed: text };
  }
}

let redis: TestRedis;
let errors: jest.SpyInstance;
beforeAll(async () => {
  redis = await startRedis();
  configure({ onException: () => undefined });
  // BullMQ's reconnect attempts are logged, one line each: kept out of the test output.
  errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterAll(async () => {
  errors.mockRestore();
  configure({ onException: undefined });
  await redis?.stop();
});

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Settles with the error `call` rejects with (or fails the test when it resolves). */
async function refusal(call: Promise<unknown>): Promise<RedisUnreachableError> {
  try {
    await call;
  } catch (error) {
    return error as RedisUnreachableError;
  }
  throw new Error('expected the call to fail');
}

/**
 * `promise`, or a failure naming `phase` when it has not settled within `ms`: a call that hangs fails
 * its own phase, saying which, instead of the whole test's time running out.
 */
async function within<T>(phase: string, ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${phase}: not settled within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

function expectUnreachable(error: RedisUnreachableError, port: number, operation: RegExp) {
  expect(error).toBeInstanceOf(RedisUnreachableError);
  expect(error.code).toBe('REDIS_UNREACHABLE');
  expect(error.operation).toMatch(operation);
  expect(error.message).toContain(`toolwright/queue: Redis at 127.0.0.1:${port} is unreachable`);
  expect(error.message).toContain('Check that Redis is running and reachable there');
  expect(error.message).toContain('call again once it is back');
}

describe('Redis unreachable', () => {
  it('every handle call settles with RedisUnreachableError while Redis is down, and works again once it is back', async () => {
    const port = redis.port;
    // BullMQ's own retryStrategy waits up to 20 s between reconnections, growing with the outage: on
    // a loaded machine the outage below lasts long enough for that to pass the test's time. A fixed
    // short wait keeps the test about settling and recovering, not about BullMQ's backoff.
    const connection = { host: '127.0.0.1', port, retryStrategy: () => 200 };
    const queue = createToolQueue({ connection, name: 'down', redisTimeoutMs: 1500 });
    const worker = startToolWorker({ connection, name: 'down', tools: [Echo] });
    try {
      const done = await within('enqueue before the outage', 10_000, queue.enqueue(Echo, { text: 'before' }));
      expect((await within('result before the outage', 10_000, done.result())).value).toEqual({ echoed: 'before' });
      const later: ToolJob = await queue.enqueue(Echo, { text: 'later' }, { delay: 600_000 });
      expect(await later.status()).toBe('delayed');

      // A queue closed while Redis is down closes at once, its event listener too.
      const closing = createToolQueue({ connection, name: 'down', redisTimeoutMs: 1500 });
      const listened = await closing.job(later.id!);
      expect(await listened!.result({ timeoutMs: 1 })).toMatchObject({ outcome: 'exception' });

      await within('stopping redis-server', 10_000, redis.stop());
      await within('closing a queue while Redis is down', 10_000, closing.close());
      const calls: Array<[Promise<unknown>, RegExp]> = [
        [queue.enqueue(Echo, { text: 'while down' }, { jobId: 'while-down' }), /^enqueue\(echo\) of job while-down$/],
        [queue.job(later.id!), /^job\(/],
        [later.status(), /^status\(\) of job /],
        [later.info(), /^info\(\) of job /],
        [later.result({ timeoutMs: 500 }), /^result\(\) of job /],
        [later.result(), /^result\(\) of job /],
        [later.cancel(), /^cancel\(\) of job /],
      ];
      for (const [call, operation] of calls) expectUnreachable(await within(`${operation}`, 10_000, refusal(call)), port, operation);
      expect((await refusal(queue.enqueue(Echo, { text: 'x' }))).message).toContain('enqueue it again with this jobId');
      expect((await refusal(later.result())).message).toContain('The call may still run: ask again with result().');

      redis = await within('starting redis-server again', 10_000, startRedis({ port }));
      // The queue and the worker reconnect by themselves; wait until the queue has.
      const reconnectBy = Date.now() + 20_000;
      for (;;) {
        const error = await within(
          'job() while reconnecting',
          10_000,
          queue.job('nothing-here').then(
            () => undefined,
            (e: unknown) => e as Error,
          ),
        );
        if (error === undefined) break;
        expect(error).toBeInstanceOf(RedisUnreachableError);
        if (Date.now() > reconnectBy) throw new Error(`the queue did not reconnect within 20 s of Redis being back: ${error.message}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const after = await within('enqueue after the outage', 10_000, queue.enqueue(Echo, { text: 'after' }));
      // The worker reconnects by itself too: its answer is the proof.
      expect(await within('result after the outage', 25_000, after.result({ timeoutMs: 20_000 }))).toMatchObject({ ok: true, value: { echoed: 'after' } });
      expect(await after.status()).toBe('completed');
    } finally {
      await within('closing the queue', 10_000, queue.close());
      await within('closing the worker', 10_000, worker.close());
    }
  }, 90_000);

  it('a worker closed while its connections wait to reconnect closes once Redis is back (ioredis strands a client disconnected between attempts)', async () => {
    const port = redis.port;
    // A long wait between attempts holds the connections in 'reconnecting' for the close below.
    const connection = { host: '127.0.0.1', port, retryStrategy: () => 3000 };
    const worker = startToolWorker({ connection, name: 'stranded', tools: [Echo] });
    await within('the worker getting ready', 10_000, worker.ready());
    const blocking = await worker.bullWorker.getBackend().blockingClient!;
    await within('stopping redis-server', 10_000, redis.stop());
    await within('the blocking connection waiting to reconnect', 10_000, until(() => blocking.status === 'reconnecting'));
    redis = await within('starting redis-server again', 10_000, startRedis({ port }));
    // BullMQ's close disconnects the blocking connection and waits for its 'end', which ioredis never
    // emits for a client disconnected between attempts: the close waited forever, and the worker's
    // timers kept the process alive. The other connections reconnect at their next attempt.
    await within('closing the worker', 20_000, worker.close());
    expect(blocking.status).toBe('end');
  }, 45_000);

  it('a queue closed while its event listener is still connecting to a Redis that went away closes at once', async () => {
    const port = redis.port;
    const connection = { host: '127.0.0.1', port, retryStrategy: () => 200 };
    const queue = createToolQueue({ connection, name: 'listener-down', redisTimeoutMs: 1000 });
    try {
      const later = await queue.enqueue(Echo, { text: 'later' }, { delay: 600_000 });
      await within('stopping redis-server', 10_000, redis.stop());
      // result() starts the event listener now, while Redis is down: its connection is never made.
      expectUnreachable(await within('result() while down', 10_000, refusal(later.result({ timeoutMs: 500 }))), port, /^result\(\) of job /);
      await within('closing the queue', 10_000, queue.close());
    } finally {
      redis = await within('starting redis-server again', 10_000, startRedis({ port }));
    }
  }, 45_000);

  it('result({ timeoutMs }) settles at its own timeout while Redis does not answer (SIGSTOP), not at the Redis timeout', async () => {
    const port = redis.port;
    // The Redis timeout far above result()'s: while Redis is paused, only result()'s own timeout can settle it.
    const options = { connection: redis.connection, name: 'silent', redisTimeoutMs: 20_000 };
    const listening = createToolQueue(options);
    const starting = createToolQueue(options);
    // Every other call waits redisTimeoutMs at most, and so does close().
    const brief = createToolQueue({ ...options, redisTimeoutMs: 1000 });
    try {
      const job = await listening.enqueue(Echo, { text: 'later' }, { delay: 600_000 });
      // result() starts a queue's event listener and waits for it first: this one's is up before Redis
      // pauses, the other's starts while it is.
      const cancelled = await listening.enqueue(Echo, { text: 'cancelled' }, { delay: 600_000 });
      expect(await cancelled.cancel()).toBe(true);
      expect(await cancelled.result({ timeoutMs: 5000 })).toMatchObject({ outcome: 'failure', message: 'The call was cancelled.' });
      const other = (await starting.job(job.id!))!;
      const mine = (await brief.job(job.id!))!;
      redis.pause();
      try {
        // Jest fails a test on an unhandled rejection: the Redis timeout of the read result() stopped
        // waiting for (a second later, on the third queue) must reject nothing.
        for (const [handle, how] of [
          [job, 'its event listener up'],
          [other, 'its event listener starting'],
          [mine, 'a Redis timeout of a second'],
        ] as const) {
          // The guard only keeps a hang from taking the test's time; it is past the Redis timeout, which would settle it otherwise.
          const result = await within(`result() while Redis is paused, ${how}`, 25_000, handle.result({ timeoutMs: 300 }));
          expect(result.outcome).toBe('exception');
          expect(result.exception).toBeInstanceOf(ToolJobError);
          expect((result.exception as ToolJobError).jobId).toBe(job.id);
          expect((result.exception as Error).message).toBe(
            `Job ${job.id} did not finish within 300 ms as far as is known: Redis at 127.0.0.1:${port} did not answer in that time. ` +
              'It may still run: ask again with result().',
          );
        }
        const calls: Array<[Promise<unknown>, RegExp]> = [
          [brief.enqueue(Echo, { text: 'while paused' }, { jobId: 'while-paused' }), /^enqueue\(echo\) of job while-paused$/],
          [mine.status(), /^status\(\) of job /],
          [mine.info(), /^info\(\) of job /],
          [mine.result(), /^result\(\) of job /],
          [mine.result({ timeoutMs: 5000 }), /^result\(\) of job /],
          [mine.cancel(), /^cancel\(\) of job /],
        ];
        for (const [call, operation] of calls) {
          const error = await within(`${operation}`, 10_000, refusal(call));
          expectUnreachable(error, port, operation);
          expect(error.message).toContain('Command timed out');
        }
        await within('closing a queue while Redis is paused', 10_000, brief.close());
      } finally {
        redis.resume();
      }
      // Redis answers in order: once these are answered, so are the reads the calls above stopped waiting for.
      expect(await job.status()).toBe('delayed');
      expect(await other.status()).toBe('delayed');
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      await within('closing the queues', 10_000, Promise.all([listening.close(), starting.close(), brief.close()]));
    }
  }, 60_000);

  it('a queue whose Redis was never reachable fails its calls the same way', async () => {
    const port = await closedPort();
    const queue = createToolQueue({ connection: { host: '127.0.0.1', port }, name: 'never', redisTimeoutMs: 500 });
    try {
      expectUnreachable(await refusal(queue.enqueue(Echo, { text: 'x' })), port, /^enqueue\(echo\)/);
      expectUnreachable(await refusal(queue.job('some-id')), port, /^job\(some-id\)$/);
      expect((await refusal(queue.job('some-id'))).message).toContain('ECONNREFUSED');
    } finally {
      await queue.close();
    }
  });

  it('refuses a bad redisTimeoutMs, naming it and the default', () => {
    expect(() => createToolQueue({ connection: redis.connection, redisTimeoutMs: -1 })).toThrow(
      'createToolQueue: redisTimeoutMs must be a whole number of milliseconds from 1 to 2147483647; got -1. Leave it out for the default (10000).',
    );
  });
});
