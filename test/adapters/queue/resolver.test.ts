/** The queue worker's `resolver`: a job's tool is made by it, told the transport and the BullMQ job. */
import 'reflect-metadata';
import { Exposes, Expects, Field, ResolveCall, Tool, ToolResolver } from 'toolwright';
import { createToolQueue, startToolWorker } from 'toolwright/queue';
import { startRedis, TestRedis } from '../../helpers/redis';

class Prefix {
  constructor(readonly text: string) {}
}

class LabelInput {
  @Field() name!: string;
}

@Tool('queue', { description: 'Labels a name' })
@Expects(LabelInput)
@Exposes({ label: String })
class QueueLabel {
  constructor(private readonly prefix: Prefix) {}
  call(input: LabelInput) {
    return { label: `${this.prefix.text}${input.name}` };
  }
}

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

it('a worker resolves its tools through the resolver it was given, which sees the job', async () => {
  const seen: ResolveCall[] = [];
  const resolver: ToolResolver = {
    resolve(_target, call) {
      seen.push(call);
      return new QueueLabel(new Prefix('#'));
    },
  };
  const queue = createToolQueue({ connection: redis.connection, name: 'resolver' });
  const worker = startToolWorker({ connection: redis.connection, name: 'resolver', tools: [QueueLabel], resolver });
  try {
    const job = await queue.enqueue(QueueLabel, { name: 'ada' });
    const result = await job.result();
    expect(result.ok && result.value).toEqual({ label: '#ada' });
    expect(seen).toHaveLength(1);
    expect(seen[0].transport).toBe('queue');
    expect((seen[0].request as { id?: string }).id).toBe(job.id);
  } finally {
    await worker.close();
    await queue.close();
  }
});

it('a resolver that is not one is refused when the worker starts', () => {
  expect(() => startToolWorker({ connection: redis.connection, name: 'bad', tools: [QueueLabel], resolver: 'nest' as unknown as ToolResolver })).toThrow(
    "startToolWorker: 'resolver' must be an object with a resolve(target, call) method (a ToolResolver); got",
  );
});
