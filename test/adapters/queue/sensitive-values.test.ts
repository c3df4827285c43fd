/**
 * Sensitive values do not stay in Redis (issue 23, finding 12): once a job has ended, completed,
 * failed or in an exception, its `@Field({ sensitive: true })` input values read `[redacted]` and its
 * ambient values are gone from the raw job hash, read here with ioredis as anyone with Redis access
 * would. What the caller needs (the outcome, the job by id) still works.
 */
import 'reflect-metadata';
import IORedis from 'ioredis';
import { AmbientContext, configure, Expects, Field, Tool, fail } from 'toolwright';
import { createToolQueue, startToolWorker, ToolQueue } from 'toolwright/queue';
import { startRedis, TestRedis } from '../../helpers/redis';

const PASSWORD = 'hunter2-sensitive-value';
const OFFICER = 'officer-ambient-value';

class SignInInput {
  @Field() user!: string;
  @Field({ sensitive: true }) password!: string;
  @Field() outcome!: string;
  @AmbientContext() officerId!: string;
}

@Tool({ adapters: { queue: {} } })
@Expects(SignInInput)
class SignIn {
  call(input: SignInInput) {
    if (input.outcome === 'refuse') fail('wrong password');
    if (input.outcome === 'crash') throw new Error(`driver failed for ${input.password}`);
    return { user: input.user, by: input.officerId };
  }
}

let redis: TestRedis;
let raw: IORedis;
let queue: ToolQueue;
let count = 0;
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  redis = await startRedis();
  raw = new IORedis(redis.connection);
  configure({ onException: () => undefined });
});
afterAll(async () => {
  configure({ onException: undefined });
  raw.disconnect();
  await redis?.stop();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((thing) => thing.close()));
});

function setUp(tools: Array<new () => object> = [SignIn]) {
  const name = `sensitive${++count}`;
  queue = createToolQueue({ connection: redis.connection, name });
  const worker = startToolWorker({ connection: redis.connection, name, tools });
  open.push(queue, worker);
  return name;
}

/** The job's hash as Redis holds it, every field. */
async function rawJob(name: string, id: string): Promise<Record<string, string>> {
  return raw.hgetall(`bull:${name}:${id}`);
}

const input = (outcome: string) => ({ user: 'ada', password: PASSWORD, outcome });

describe('sensitive values in the Redis job hash', () => {
  it('are gone once the job completes; the outcome and the job by id are still read', async () => {
    const name = setUp();
    const job = await queue.enqueue(SignIn, input('ok'), { ambientContext: { officerId: OFFICER } });
    const result = await job.result();
    expect(result).toMatchObject({ ok: true, value: { user: 'ada', by: OFFICER } });
    const hash = await rawJob(name, job.id!);
    expect(Object.keys(hash)).toEqual(expect.arrayContaining(['data', 'returnvalue']));
    expect(JSON.stringify(hash)).not.toContain(PASSWORD);
    expect(JSON.parse(hash.data)).toEqual({
      tool: 'sign_in',
      version: 1,
      input: { user: 'ada', password: '[redacted]', outcome: 'ok' },
      ambient: {},
      scrubbed: true,
    });
    // Found again by id, with its outcome.
    const again = await queue.job(job.id!);
    expect((await again!.result()).ok).toBe(true);
  });

  it('are gone after a business failure and after an exception whose text held the value', async () => {
    const name = setUp();
    for (const outcome of ['refuse', 'crash']) {
      const job = await queue.enqueue(SignIn, input(outcome), { ambientContext: { officerId: OFFICER } });
      const result = await job.result();
      expect(result.outcome).toBe(outcome === 'refuse' ? 'failure' : 'exception');
      const hash = await rawJob(name, job.id!);
      expect(JSON.stringify(hash)).not.toContain(PASSWORD);
      expect(JSON.stringify(hash)).not.toContain(OFFICER);
      expect(JSON.parse(hash.data).input.password).toBe('[redacted]');
    }
  });

  it('are gone after a job fails in BullMQ’s terms (a worker without the tool refuses it)', async () => {
    const name = setUp([]);
    const job = await queue.enqueue(SignIn, input('ok'), { ambientContext: { officerId: OFFICER } });
    const result = await job.result();
    expect(result.outcome).toBe('exception');
    const hash = await rawJob(name, job.id!);
    expect(hash.failedReason).toContain("This worker has no tool 'sign_in'");
    expect(JSON.stringify(hash)).not.toContain(PASSWORD);
    expect(JSON.stringify(hash)).not.toContain(OFFICER);
    expect(JSON.parse(hash.data)).toMatchObject({ tool: 'sign_in', version: 1, input: {}, ambient: {}, scrubbed: true });
  });
});

class LookUpInput {
  @Field() user!: string;
}

@Tool({ adapters: { queue: {} } })
@Expects(LookUpInput)
class LookUp {
  call(input: LookUpInput) {
    return { user: input.user };
  }
}

describe('an ended job with nothing to remove', () => {
  it('keeps its data as enqueued: no sensitive field and no ambient value means no second write', async () => {
    const name = setUp([LookUp]);
    const job = await queue.enqueue(LookUp, { user: 'ada' });
    expect((await job.result()).value).toEqual({ user: 'ada' });
    expect(JSON.parse((await rawJob(name, job.id!)).data)).toEqual({ tool: 'look_up', version: 1, input: { user: 'ada' }, ambient: {} });
  });

  it('still loses its ambient values when its tool has no sensitive field', async () => {
    const name = setUp([LookUp]);
    const job = await queue.enqueue(LookUp, { user: 'ada' }, { ambientContext: { officerId: OFFICER } });
    expect((await job.result()).ok).toBe(true);
    const hash = await rawJob(name, job.id!);
    expect(JSON.stringify(hash)).not.toContain(OFFICER);
    expect(JSON.parse(hash.data)).toEqual({ tool: 'look_up', version: 1, input: { user: 'ada' }, ambient: {}, scrubbed: true });
  });

  it('is still marked and emptied when approved where it was enqueued', async () => {
    const name = setUp([LookUp]);
    const job = await queue.enqueue(LookUp, { user: 'ada' }, { approved: true });
    expect((await job.result()).ok).toBe(true);
    expect(JSON.parse((await rawJob(name, job.id!)).data)).toEqual({
      tool: 'look_up',
      version: 1,
      input: { user: 'ada' },
      ambient: {},
      scrubbed: true,
    });
  });
});
