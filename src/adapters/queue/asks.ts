/**
 * A queued call that asks while it runs: the tool's `context.elicit` / `context.sample` on a worker
 * write the ask to Redis and wait; whoever holds the job's handle (any process on the queue: an MCP
 * task's `tasks/get` on any server replica) reads the asks that wait and answers them, and the
 * answer wakes the worker (a publish on the queue's input channel; the worker also looks again now
 * and then, so a lost message costs a moment, never the call). Only a job enqueued with
 * `asks: [...]` asks (its caller can answer); every ask is bounded (INPUT_LIMITS) and waits at
 * most the worker's `inputTimeoutMs`, after which the job ends failed, saying so.
 *
 * Redis: one hash per job, `<prefix>:<name>:toolwright:input:<jobId>`: `q:<id>` the ask (JSON),
 * `a:<id>` its answer (JSON), `timedOut` the message of a job that waited too long. A run starts
 * it afresh; the ask ids carry a token of the run, so an answer for an earlier run's ask finds none.
 */
import { randomBytes } from 'node:crypto';
import type IORedis from 'ioredis';
import type { CallContext, ElicitResult, ElicitSchema, SampleRequest, SampleResult } from '../../index';
import { DeclarationError, ToolwrightError } from '../../index';
import { describeValue } from '../../adapter-kit';
import { formatCount } from '../../adapter-kit/internal';
import { CANCEL_MARK_SECONDS } from './delivery';
import type { RedisGate } from './reachability';

/** What a queued call may ask its caller while it runs. */
export type AskKind = 'elicit' | 'sample';
export const ASK_KINDS: readonly AskKind[] = ['elicit', 'sample'];

/** An ask of a running queued call, as it waits in Redis (`ToolJob.input()`). */
export type QueuedAsk =
  | { readonly kind: 'elicit'; readonly message: string; readonly schema: ElicitSchema }
  | { readonly kind: 'sample'; readonly request: SampleRequest };

/** What a queued call waits for (`ToolJob.input()`). */
export interface ToolJobInput {
  /** The asks that wait for an answer, in the order they were asked, each under its id. */
  readonly pending: ReadonlyArray<{ readonly id: string; readonly ask: QueuedAsk }>;
  /** The ids of this run's asks that have an answer (a second answer to one is refused). */
  readonly answered: readonly string[];
  /** Why the call ended: it waited for an answer longer than its worker's `inputTimeoutMs`. */
  readonly timedOut?: string;
}

/** How an answer was taken (`ToolJob.answer()`): `unknown` names no ask that waits (or ever waited) in this run. */
export type AnswerOutcome = 'answered' | 'answered-before' | 'unknown';

/**
 * The bounds of a queued call's asks: an ask (its JSON) of at most `maxAskBytes`, an answer of at
 * most `maxAnswerBytes`, at most `maxPending` asks waiting at once and `maxAsks` in one run. An ask
 * past a bound is refused (its `context.elicit` / `sample` rejects with a `JobInputError`); an answer
 * past one is refused to whoever answers.
 */
export const INPUT_LIMITS = Object.freeze({ maxAskBytes: 65_536, maxAnswerBytes: 262_144, maxPending: 16, maxAsks: 64 });

/** A queued call's ask that could not be made or answered: past a bound, or not answered in time. */
export class JobInputError extends ToolwrightError {
  override readonly code = 'JOB_INPUT';
  constructor(
    message: string,
    /** What went wrong: the ask or answer was too large, too many asks, no answer came in time, or the call ended first. */
    readonly reason: 'too-large' | 'too-many' | 'timeout' | 'ended',
  ) {
    super(message);
  }
}

/** @internal The kinds of asks a job may make, checked: a list of 'elicit' and 'sample'. */
export function asksOf(value: unknown, where: string): AskKind[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((kind) => ASK_KINDS.includes(kind as AskKind))) {
    throw new DeclarationError(
      `${where}: asks must be a list of ${ASK_KINDS.map((k) => `'${k}'`).join(' and ')}; got ${describeValue(value)}.`,
    );
  }
  return [...new Set(value as AskKind[])];
}

/** @internal */
export function inputKey(prefix: string, name: string, jobId: string): string {
  return `${prefix}:${name}:toolwright:input:${jobId}`;
}

/** @internal */
export function inputChannel(prefix: string, name: string): string {
  return `${prefix}:${name}:toolwright:input`;
}

/** How long a job's asks stay in Redis at most (they go when the run ends; this bounds a worker that died). */
const KEY_SECONDS = CANCEL_MARK_SECONDS;

/** How often a waiting ask looks for its answer without being woken (a lost publish costs this, never the call). */
const RECHECK_MS = 2_000;

/** @internal The asks of a job that wait for an answer, and why it ended if it waited too long. */
export async function readInput(client: IORedis, key: string): Promise<ToolJobInput> {
  const fields = await client.hgetall(key);
  const pending: Array<{ id: string; ask: QueuedAsk; order: number }> = [];
  const answered: string[] = [];
  for (const [field, value] of Object.entries(fields)) {
    if (!field.startsWith('q:')) continue;
    const id = field.slice(2);
    if (fields[`a:${id}`] !== undefined) {
      answered.push(id);
      continue;
    }
    try {
      pending.push({ id, ask: JSON.parse(value) as QueuedAsk, order: Number(id.slice(id.lastIndexOf('-') + 1)) });
    } catch {
      // Not written by a worker: nothing anyone could answer.
    }
  }
  pending.sort((a, b) => a.order - b.order);
  return {
    pending: pending.map(({ id, ask }) => ({ id, ask })),
    answered,
    ...(fields.timedOut !== undefined ? { timedOut: fields.timedOut } : {}),
  };
}

/** Sets the answer only where its ask waits in this run, and only once: 0 no such ask, 1 set, 2 set before. */
const ANSWER_SCRIPT = `
if redis.call('HEXISTS', KEYS[1], 'q:' .. ARGV[1]) == 0 then return 0 end
if redis.call('HSETNX', KEYS[1], 'a:' .. ARGV[1], ARGV[2]) == 1 then return 1 end
return 2`;

/** @internal Answers the job's ask `id` and wakes its worker; a JobInputError (`too-large`) when the answer is past INPUT_LIMITS. */
export async function answerAsk(
  client: IORedis,
  key: string,
  channel: string,
  jobId: string,
  id: string,
  answer: ElicitResult | SampleResult,
): Promise<AnswerOutcome> {
  const json = JSON.stringify(answer);
  if (json === undefined || Buffer.byteLength(json) > INPUT_LIMITS.maxAnswerBytes) {
    throw new JobInputError(
      `The answer to ask ${id} of job ${jobId} is ${json === undefined ? 'not JSON' : `${formatCount(Buffer.byteLength(json))} bytes`}; an answer may take at most ${formatCount(INPUT_LIMITS.maxAnswerBytes)} bytes (INPUT_LIMITS.maxAnswerBytes). Answer with less.`,
      'too-large',
    );
  }
  const set = Number(await client.eval(ANSWER_SCRIPT, 1, key, id, json));
  if (set === 1) await client.publish(channel, jobId);
  return set === 1 ? 'answered' : set === 2 ? 'answered-before' : 'unknown';
}

/** @internal A job handle's `input()` and `answer()` (ToolJob's), each through the queue's Redis gate. */
export interface JobInputMethods {
  input(): Promise<ToolJobInput>;
  answer(id: string, answer: ElicitResult | SampleResult): Promise<AnswerOutcome>;
}

/** @internal A job handle's `input()` and `answer()`, each through the queue's Redis gate. */
export function jobInput(
  redis: RedisGate,
  client: () => Promise<IORedis>,
  key: string,
  channel: string,
  id: string,
): JobInputMethods {
  return {
    input: () => redis.run(`input() of job ${id}`, 'What it waits for is unknown: ask again.', async () => readInput(await client(), key)),
    answer: async (askId, answer) => {
      if (typeof askId !== 'string' || askId === '') {
        throw new TypeError(`answer() of job ${id}: the ask's id must be a non-empty string; got ${describeValue(askId)}.`);
      }
      return redis.run(`answer() of job ${id}`, 'The answer may not have been taken: answer again.', async () =>
        answerAsk(await client(), key, channel, id, askId, answer),
      );
    },
  };
}

/** @internal Per worker: the asks of its running jobs that wait, woken by the input channel. */
export class InputWaits {
  private readonly waiting = new Map<string, Set<() => void>>();

  /** A message on the input channel: the job's asks look for their answers. */
  wake(jobId: string): void {
    for (const look of this.waiting.get(jobId) ?? []) look();
  }

  add(jobId: string, look: () => void): () => void {
    let set = this.waiting.get(jobId);
    if (!set) this.waiting.set(jobId, (set = new Set()));
    set.add(look);
    return () => {
      set.delete(look);
      if (set.size === 0) this.waiting.delete(jobId);
    };
  }
}

/** @internal The asks of one run of a job on a worker. */
export class JobAsks {
  private readonly token = randomBytes(6).toString('base64url');
  private asked = 0;
  private waiting = 0;
  /** Ends the asks still waiting (the run ended without awaiting them). */
  private readonly unsettled = new Set<() => void>();
  /** Set when an ask waited longer than the timeout: the run ends failed with it. */
  timedOut: string | undefined;

  constructor(
    private readonly client: IORedis,
    private readonly key: string,
    private readonly jobId: string,
    private readonly toolName: string,
    private readonly timeoutMs: number,
    private readonly waits: InputWaits,
  ) {}

  /** A fresh run: what an earlier run of the job asked is gone. */
  async start(): Promise<void> {
    await this.client.del(this.key);
  }

  /** The run ended: its asks go; a timeout's message stays for whoever reads the job (a day). */
  async end(): Promise<void> {
    for (const stop of [...this.unsettled]) stop();
    await this.client.del(this.key);
    if (this.timedOut === undefined) return;
    await this.client.hset(this.key, 'timedOut', this.timedOut);
    await this.client.expire(this.key, KEY_SECONDS);
  }

  /** Writes the ask, then waits for its answer (or the signal, or the timeout). */
  async ask(ask: QueuedAsk, signal: AbortSignal): Promise<unknown> {
    const what = `${this.toolName} (job ${this.jobId}) called context.${ask.kind}()`;
    if (this.asked >= INPUT_LIMITS.maxAsks || this.waiting >= INPUT_LIMITS.maxPending) {
      const full = this.asked >= INPUT_LIMITS.maxAsks;
      throw new JobInputError(
        full
          ? `${what} more than ${INPUT_LIMITS.maxAsks} times in one run (INPUT_LIMITS.maxAsks): ask for less per call.`
          : `${what} with ${INPUT_LIMITS.maxPending} asks already waiting (INPUT_LIMITS.maxPending): await some before asking more.`,
        'too-many',
      );
    }
    const json = JSON.stringify(ask);
    if (Buffer.byteLength(json) > INPUT_LIMITS.maxAskBytes) {
      throw new JobInputError(
        `${what} with an ask of ${formatCount(Buffer.byteLength(json))} bytes; an ask may take at most ${formatCount(INPUT_LIMITS.maxAskBytes)} bytes (INPUT_LIMITS.maxAskBytes). Ask with a shorter message or form.`,
        'too-large',
      );
    }
    if (signal.aborted) throw signal.reason;
    const id = `${this.token}-${++this.asked}`;
    this.waiting++;
    try {
      // One command each (BullMQ 6's client takes no MULTI of these): the key's expiry bounds a worker that died.
      await this.client.hset(this.key, `q:${id}`, json);
      await this.client.expire(this.key, KEY_SECONDS);
      return await this.answerOf(id, ask, signal);
    } finally {
      this.waiting--;
    }
  }

  private answerOf(id: string, ask: QueuedAsk, signal: AbortSignal): Promise<unknown> {
    return new Promise((resolve, reject) => {
      let done = false;
      const finish = (settle: () => void) => {
        if (done) return;
        done = true;
        this.unsettled.delete(ended);
        stopWaking();
        clearTimeout(timeout);
        clearInterval(recheck);
        signal.removeEventListener('abort', onAbort);
        settle();
      };
      const look = () => {
        this.client.hget(this.key, `a:${id}`).then(
          (answer) => {
            if (answer !== null) finish(() => resolve(JSON.parse(answer) as unknown));
          },
          () => undefined, // Redis away for a moment: the next look, or the timeout, settles it
        );
      };
      const onAbort = () => finish(() => reject(signal.reason));
      const ended = () =>
        finish(() =>
          reject(new JobInputError(`The call of ${this.toolName} (job ${this.jobId}) ended before ask ${id} was answered.`, 'ended')),
        );
      this.unsettled.add(ended);
      const stopWaking = this.waits.add(this.jobId, look);
      const timeout = setTimeout(() => {
        this.timedOut = `The task waited for an answer to its context.${ask.kind}() longer than ${this.timeoutMs} ms (the worker's inputTimeoutMs), so it was stopped; call the tool again and answer sooner.`;
        finish(() => reject(new JobInputError(this.timedOut!, 'timeout')));
      }, this.timeoutMs);
      const recheck = setInterval(look, RECHECK_MS);
      recheck.unref();
      signal.addEventListener('abort', onAbort, { once: true });
      look(); // answered before this process listened
    });
  }
}

/** Why a job cannot ask: it was enqueued without that kind in `asks` (its caller cannot answer while it runs). */
const cannotAsk = (kind: AskKind) =>
  `this job was enqueued without asks: ['${kind}'] (its caller cannot answer while it runs; an MCP task's can when its request declares the tasks extension and the capability), so go on without asking (context.supports('${kind}'))`;

/** @internal The tool context of a job's run: asks for the kinds it was enqueued with, through `asks`. */
export function jobContext(asks: JobAsks | undefined, kinds: readonly AskKind[] | undefined): CallContext {
  const may = (kind: AskKind) => asks !== undefined && kinds !== undefined && kinds.includes(kind);
  return {
    ...(may('elicit')
      ? { elicit: (message, schema, call) => asks!.ask({ kind: 'elicit', message, schema }, call.signal) as Promise<ElicitResult> }
      : {}),
    ...(may('sample') ? { sample: (request, call) => asks!.ask({ kind: 'sample', request }, call.signal) as Promise<SampleResult> } : {}),
    unavailable: { elicit: cannotAsk('elicit'), sample: cannotAsk('sample') },
  };
}
