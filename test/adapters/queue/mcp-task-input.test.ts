/**
 * Asking inside a task (MCP 2026-07-28, the io.modelcontextprotocol/tasks extension): a task's tool
 * calls context.elicit / context.sample on a worker, the task is input_required on tasks/get with the
 * asks as inputRequests, the client answers with tasks/update, and the call goes on. Two serveHttp
 * replicas on one real redis-server and queue (asked on one, answered on the other), real workers,
 * raw HTTP requests (../../helpers/mcp-tasks.ts).
 */
import 'reflect-metadata';
import { configure, ElicitSchema, Expects, Integer, Tool, ToolContext } from 'toolwright';
import { McpHttpHandle, serveHttp } from 'toolwright/mcp';
import { createToolQueue, INPUT_LIMITS, startToolWorker, ToolQueue, ToolWorker } from 'toolwright/queue';
import { rawTaskRequest, RawTaskOptions, TaskAnswer } from '../../helpers/mcp-tasks';
import { startRedis, TestRedis } from '../../helpers/redis';

const CONFIRM: ElicitSchema = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] };

@Tool({ adapters: { mcp: { taskSupport: 'required' } } })
@Expects({ filename: String })
class ConfirmDelete {
  async call({ filename }: { filename: string }, context: ToolContext) {
    const answer = await context.elicit(`Delete ${filename}?`, CONFIRM);
    return answer.action === 'accept' && answer.content?.confirm === true ? `Deleted ${filename}` : `Kept ${filename} (${answer.action})`;
  }
}

@Tool({ adapters: { mcp: { taskSupport: 'required' } } })
@Expects({})
class AskTwice {
  async call(_input: unknown, context: ToolContext) {
    const form: ElicitSchema = { type: 'object', properties: { name: { type: 'string' } } };
    const [first, second] = await Promise.all([context.elicit('First name?', form), context.elicit('Last name?', form)]);
    return `${String(first.content?.name)} ${String(second.content?.name)}`;
  }
}

@Tool({ adapters: { mcp: { taskSupport: 'required' } } })
@Expects({})
class AskModel {
  async call(_input: unknown, context: ToolContext) {
    const answer = await context.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }], maxTokens: 10 });
    return answer.content.type === 'text' ? `${answer.model} says ${answer.content.text}` : 'no text';
  }
}

@Tool({ adapters: { mcp: { taskSupport: 'optional' } } })
@Expects({})
class WhoCanAnswer {
  async call(_input: unknown, context: ToolContext) {
    const can = `elicit: ${context.supports('elicit')}, sample: ${context.supports('sample')}`;
    if (context.supports('elicit')) return can;
    return `${can}; ${await context.elicit('Anyone?', CONFIRM).then(
      () => 'asked',
      (error: Error) => error.message,
    )}`;
  }
}

/** Pushes past the bounds: one ask too large, one too many at once, then (rounds of 16 answered) one past maxAsks. */
@Tool({ adapters: { mcp: { taskSupport: 'required' } } })
@Expects({ rounds: { type: Integer, min: 0, max: 8 } })
class Greedy {
  async call({ rounds }: { rounds: number }, context: ToolContext) {
    const refused: string[] = [];
    const form: ElicitSchema = { type: 'object', properties: {} };
    const note = (error: Error) => void refused.push(error.message);
    await context.elicit('x'.repeat(INPUT_LIMITS.maxAskBytes), form).catch(note);
    for (let round = 0; round < rounds; round++) {
      const asks = Array.from({ length: INPUT_LIMITS.maxPending + 1 }, (_, i) => context.elicit(`round ${round} ask ${i}`, form).catch(note));
      await Promise.all(asks);
    }
    await context.elicit('one more', form).catch(note);
    return refused.join('\n');
  }
}

const TOOLS = [ConfirmDelete, AskTwice, AskModel, WhoCanAnswer, Greedy];
const auth = {
  verifyAccessToken: (token: string) =>
    ['alice', 'bob'].includes(token) ? { token, clientId: token, scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 } : undefined,
};

let redis: TestRedis;
const workers: ToolWorker[] = [];
const queues: ToolQueue[] = [];
const servers: McpHttpHandle[] = [];
let a: McpHttpHandle;
let b: McpHttpHandle;
let impatient: McpHttpHandle;

async function server(name: string): Promise<McpHttpHandle> {
  const queue = createToolQueue({ connection: redis.connection, name });
  queues.push(queue);
  const handle = await serveHttp({ name: 'asks', version: '1.0.0', tools: TOOLS, tasks: { queue, pollIntervalMs: 20 } }, { port: 0, auth });
  servers.push(handle);
  return handle;
}

const ASKING: RawTaskOptions = { elicitation: true, sampling: true };
const request = async (handle: McpHttpHandle, method: string, params: Record<string, unknown>, options: RawTaskOptions = {}) =>
  rawTaskRequest(handle, method, params, { ...ASKING, ...options });

async function create(handle: McpHttpHandle, name: string, args: object, options: RawTaskOptions = {}): Promise<string> {
  const answer = await request(handle, 'tools/call', { name, arguments: args }, options);
  if (answer.result?.resultType !== 'task') throw new Error(`no task: ${JSON.stringify(answer)}`);
  return answer.result.taskId as string;
}

/** tasks/get until the task is in one of `statuses` (or has ended). */
async function until(handle: McpHttpHandle, taskId: string, statuses: string[], enough: (task: TaskAnswer) => boolean = () => true): Promise<TaskAnswer> {
  for (;;) {
    const { result, error } = await request(handle, 'tasks/get', { taskId });
    if (!result) throw new Error(`tasks/get refused: ${JSON.stringify(error)}`);
    if ((statuses.includes(result.status) && enough(result)) || ['completed', 'failed', 'cancelled'].includes(result.status)) return result;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
const settled = (handle: McpHttpHandle, taskId: string) => until(handle, taskId, []);
const update = (handle: McpHttpHandle, taskId: string, inputResponses: unknown, options: RawTaskOptions = {}) =>
  request(handle, 'tasks/update', { taskId, inputResponses }, options);
const accept = (content: object) => ({ action: 'accept', content });

beforeAll(async () => {
  redis = await startRedis();
  configure({ onException: () => undefined });
  workers.push(startToolWorker({ connection: redis.connection, name: 'task-input', tools: TOOLS, concurrency: 8 }));
  workers.push(startToolWorker({ connection: redis.connection, name: 'task-input-impatient', tools: TOOLS, inputTimeoutMs: 50 }));
  await Promise.all(workers.map((worker) => worker.ready()));
  [a, b, impatient] = [await server('task-input'), await server('task-input'), await server('task-input-impatient')];
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(workers.map((worker) => worker.close({ force: true })));
  await Promise.all(queues.map((q) => q.close()));
  configure({ onException: undefined });
  await redis?.stop();
});

describe('asking inside a task (input_required on tasks/get, answered with tasks/update)', () => {
  it('asks on one replica and is answered on the other: inputRequests on tasks/get, an empty ack, then the call goes on to completion', async () => {
    const taskId = await create(a, 'confirm_delete', { filename: 'a.txt' });
    const waiting = await until(b, taskId, ['input_required']);
    expect(waiting).toMatchObject({ status: 'input_required', statusMessage: expect.stringMatching(/tasks\/update/) });
    const keys = Object.keys(waiting.inputRequests);
    expect(keys).toHaveLength(1);
    expect(waiting.inputRequests[keys[0]]).toEqual({
      method: 'elicitation/create',
      params: { mode: 'form', message: 'Delete a.txt?', requestedSchema: CONFIRM },
    });
    const ack = await update(b, taskId, { [keys[0]]: accept({ confirm: true }) });
    expect(ack).toMatchObject({ status: 200, result: { resultType: 'complete' } });
    expect(Object.keys(ack.result!).filter((key) => key !== '_meta')).toEqual(['resultType']);
    expect(await settled(a, taskId)).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'Deleted a.txt' }] } });
    expect(await settled(a, taskId)).not.toHaveProperty('inputRequests');
    // Ended: it takes no answers, saying so.
    expect((await update(a, taskId, { [keys[0]]: accept({ confirm: true }) })).error).toMatchObject({ code: -32602, message: expect.stringMatching(/has ended.*takes no answers/) });
  });

  it('two asks at once: answered one at a time, only the unanswered one stays; a second answer to one is refused; a key that names no ask is ignored', async () => {
    const taskId = await create(a, 'ask_twice', {});
    const both = await until(a, taskId, ['input_required'], (task) => Object.keys(task.inputRequests).length === 2);
    const [first, second] = Object.keys(both.inputRequests);
    expect(both.inputRequests[first].params.message).toBe('First name?');
    expect((await update(b, taskId, { [first]: accept({ name: 'Ada' }), 'no-such-ask': { action: 'accept' } })).result).toMatchObject({ resultType: 'complete' });
    const one = await request(a, 'tasks/get', { taskId });
    expect(one.result).toMatchObject({ status: 'input_required' });
    expect(Object.keys(one.result!.inputRequests)).toEqual([second]);
    const again = await update(a, taskId, { [first]: accept({ name: 'Eve' }) });
    expect(again.error).toMatchObject({ code: -32602, message: `Input request '${first}' of task ${taskId} was answered already; the first answer stands. Read the task with tasks/get for what it waits for now.` });
    expect((await update(a, taskId, { 'no-such-ask': accept({}) })).result).toMatchObject({ resultType: 'complete' });
    await update(b, taskId, { [second]: accept({ name: 'Lovelace' }) });
    expect(await settled(b, taskId)).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'Ada Lovelace' }] } });
  });

  it('another caller’s tasks/update (and tasks/get) is refused exactly as an unknown task, and takes nothing', async () => {
    const taskId = await create(a, 'confirm_delete', { filename: 'mine.txt' });
    const [key] = Object.keys((await until(a, taskId, ['input_required'])).inputRequests);
    const stolen = await update(b, taskId, { [key]: accept({ confirm: true }) }, { token: 'bob' });
    const unknown = await update(b, `00000000-0000-4000-8000-000000000000.${taskId.split('.')[1]}`, {}, { token: 'bob' });
    expect(stolen.error).toEqual({ code: -32602, message: `Task not found: ${taskId}` });
    expect(unknown.error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Task not found: /) });
    expect((await request(b, 'tasks/get', { taskId }, { token: 'bob' })).error).toEqual({ code: -32602, message: `Task not found: ${taskId}` });
    expect((await request(a, 'tasks/get', { taskId })).result).toMatchObject({ status: 'input_required', inputRequests: { [key]: expect.anything() } });
    await update(a, taskId, { [key]: { action: 'decline' } });
    expect(await settled(a, taskId)).toMatchObject({ result: { content: [{ text: 'Kept mine.txt (decline)' }] } });
  });

  it('an answer of the wrong shape, one that does not fill the form, or one past INPUT_LIMITS.maxAnswerBytes is refused naming its key; the task still waits', async () => {
    const taskId = await create(a, 'confirm_delete', { filename: 'b.txt' });
    const [key] = Object.keys((await until(a, taskId, ['input_required'])).inputRequests);
    const shape = await update(a, taskId, { [key]: { action: 'yes' } });
    expect(shape.error).toMatchObject({ code: -32602, message: expect.stringMatching(new RegExp(`inputResponses\\['${key}'\\]: expected an elicitation result`)) });
    const form = await update(a, taskId, { [key]: accept({ confirm: 'yes' }) });
    expect(form.error).toMatchObject({ code: -32602, message: expect.stringMatching(/does not fill the form that was asked/) });
    const huge = await update(a, taskId, { [key]: accept({ confirm: true, note: 'x'.repeat(INPUT_LIMITS.maxAnswerBytes) }) });
    expect(huge.error).toMatchObject({ code: -32602, message: expect.stringMatching(/does not fill the form/) });
    // Past the size bound with a form that takes it: the queue's bound, named.
    const twice = await create(a, 'ask_twice', {});
    const [first] = Object.keys((await until(a, twice, ['input_required'], (task) => Object.keys(task.inputRequests).length === 2)).inputRequests);
    const large = await update(a, twice, { [first]: accept({ name: 'x'.repeat(INPUT_LIMITS.maxAnswerBytes) }) });
    expect(large.error).toMatchObject({ code: -32602, message: expect.stringMatching(/at most 262,144 bytes \(INPUT_LIMITS\.maxAnswerBytes\)/) });
    expect((await request(a, 'tasks/get', { taskId })).result).toMatchObject({ status: 'input_required' });
    await update(a, taskId, { [key]: accept({ confirm: true }) });
    expect(await settled(a, taskId)).toMatchObject({ status: 'completed' });
    await request(a, 'tasks/cancel', { taskId: twice });
  });

  it('sampling inside a task: a sampling/createMessage input request, answered with the model’s message', async () => {
    const taskId = await create(b, 'ask_model', {});
    const waiting = await until(a, taskId, ['input_required']);
    const [key] = Object.keys(waiting.inputRequests);
    expect(waiting.inputRequests[key]).toMatchObject({ method: 'sampling/createMessage', params: { maxTokens: 10 } });
    await update(a, taskId, { [key]: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test-model' } });
    expect(await settled(b, taskId)).toMatchObject({ result: { content: [{ type: 'text', text: 'test-model says Paris' }] } });
  });

  it('a task asks only what its request declared the client can answer', async () => {
    const none = await create(a, 'who_can_answer', {}, { elicitation: false, sampling: false });
    expect((await settled(a, none)).result.content[0].text).toMatch(
      /^elicit: false, sample: false; who_can_answer .* called context.elicit\(\), and this transport \(queue\) cannot ask the user: this job was enqueued without asks: \['elicit'\]/,
    );
    const elicit = await create(a, 'who_can_answer', {}, { sampling: false });
    expect(await settled(a, elicit)).toMatchObject({ result: { content: [{ text: 'elicit: true, sample: false' }] } });
  });

  it('the bounds, pushed past: an ask too large, one more than maxPending at once, one more than maxAsks in a run', async () => {
    const taskId = await create(a, 'greedy', { rounds: INPUT_LIMITS.maxAsks / INPUT_LIMITS.maxPending });
    for (let round = 0; round < INPUT_LIMITS.maxAsks / INPUT_LIMITS.maxPending; round++) {
      const task = await until(a, taskId, ['input_required'], (t) => Object.keys(t.inputRequests).length === INPUT_LIMITS.maxPending);
      expect(task.inputRequests[Object.keys(task.inputRequests)[0]].params.message).toBe(`round ${round} ask 0`);
      await update(b, taskId, Object.fromEntries(Object.keys(task.inputRequests).map((key) => [key, accept({})])));
    }
    const done = await settled(a, taskId);
    const refused = done.result.content[0].text.split('\n');
    expect(refused).toHaveLength(2 + INPUT_LIMITS.maxAsks / INPUT_LIMITS.maxPending);
    expect(refused[0]).toMatch(/greedy \(job .*\) called context.elicit\(\) with an ask of 65,\d{3} bytes; an ask may take at most 65,536 bytes \(INPUT_LIMITS.maxAskBytes\)/);
    expect(refused[1]).toMatch(/with 16 asks already waiting \(INPUT_LIMITS.maxPending\): await some before asking more/);
    expect(refused.at(-1)).toMatch(/called context.elicit\(\) more than 64 times in one run \(INPUT_LIMITS.maxAsks\): ask for less per call/);
  });

  it('a task that waits longer than the worker’s inputTimeoutMs ends failed saying so; a late answer is refused', async () => {
    const taskId = await create(impatient, 'confirm_delete', { filename: 'late.txt' });
    const failed = await settled(impatient, taskId);
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: expect.stringMatching(/waited for an answer to its context.elicit\(\) longer than 50 ms \(the worker's inputTimeoutMs\)/) },
    });
    expect(failed.statusMessage).toBe(failed.error.message);
    const late = await update(impatient, taskId, { anything: accept({ confirm: true }) });
    expect(late.error).toMatchObject({ code: -32602, message: expect.stringMatching(/has ended \(its status is failed\)/) });
  });

  it('tasks/cancel while the task waits for input: it ends cancelled and waits for nothing', async () => {
    const taskId = await create(a, 'confirm_delete', { filename: 'c.txt' });
    await until(a, taskId, ['input_required']);
    expect((await request(b, 'tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
    const cancelled = await settled(a, taskId);
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    expect(cancelled).not.toHaveProperty('inputRequests');
  });

  it('on the queue itself: enqueue({ asks }) is checked; input() and answer() drive a job from its handle', async () => {
    const queue = queues[0];
    await expect(queue.enqueue(ConfirmDelete, { filename: 'q.txt' }, { asks: ['roots'] as never })).rejects.toThrow(
      "enqueue(confirm_delete): asks must be a list of 'elicit' and 'sample'; got ['roots'].",
    );
    const job = await queue.enqueue<string>(ConfirmDelete, { filename: 'q.txt' }, { asks: ['elicit'] });
    let input = await job.input();
    while (input.pending.length === 0) input = await new Promise((resolve) => setTimeout(resolve, 10)).then(() => job.input());
    expect(input.pending).toEqual([{ id: expect.any(String), ask: { kind: 'elicit', message: 'Delete q.txt?', schema: CONFIRM } }]);
    const [{ id }] = input.pending;
    expect(await job.answer('no-such-ask', { action: 'cancel' })).toBe('unknown');
    expect(await job.answer(id, { action: 'accept', content: { confirm: true } })).toBe('answered');
    expect(await job.answer(id, { action: 'decline' })).toBe('answered-before');
    expect((await job.result()).value).toBe('Deleted q.txt');
    expect(await job.input()).toEqual({ pending: [], answered: [] });
  });
});
