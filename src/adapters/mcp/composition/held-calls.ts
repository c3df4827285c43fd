/**
 * A mounted remote tool's call kept open across a 2026-07-28 client's input-required rounds.
 *
 * Our call re-runs from the start on each round (../protocol/rounds.ts). A remote call cannot: sent again, the
 * remote tool runs again (a charge made twice). So when a remote call asks mid-call (its
 * elicitation or sampling) and our round stops to ask our client, the call stays open here, in this
 * process, under a random id the sealed requestState carries; the next round re-runs up to the
 * remote call, takes it by that id (once: a replayed round finds nothing) and gives the waiting
 * remote its answer instead of sending the call again. A round that cannot reach it (it ended after
 * the mount's timeoutMs, was taken already, the round reached another replica or a restarted
 * process) fails with a tool error and sends nothing, unless the remote tool says it is read-only
 * or idempotent: that one is sent again, and its questions answered from the recorded answers.
 *
 * Bounded: a held call lives at most the mount's `timeoutMs` from when it was sent (then the remote
 * call is cancelled), and at most `maxHeldCalls` wait at once per mount (one more is cancelled and
 * the call answers a tool error). A 2025-11-25 request asks live: nothing is held.
 */
import { randomBytes } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { fail } from '../../../index';
import type { McpInputHandlers, RemoteToolCall } from '../../mcp-client/index';
import { RequestContext } from '../members/call-request';
import { mcpRequest } from '../members/request-context';
import { InputSuspension } from '../protocol/rounds';

/** One question of the remote: which handler, with what. */
interface Ask {
  kind: 'elicit' | 'sample';
  args: unknown[];
}

/** A question the remote waits on, with how to answer it. */
interface Waiting {
  ask: Ask;
  answer(value: unknown): void;
  refuse(error: unknown): void;
}

/** Asks `ask` through one round's handlers (recorded answers come back at once; a new one suspends the round). */
function through(input: McpInputHandlers, ask: Ask): Promise<unknown> {
  const handler = input[ask.kind] as ((...args: unknown[]) => Promise<unknown>) | undefined;
  if (!handler) throw new Error(`this round's request does not declare the client capability the remote's ${ask.kind} request needs`);
  return Promise.resolve(handler(...ask.args));
}

/** One remote call in flight: its questions queue until a round answers them. */
class HeldCall {
  private readonly stop = new AbortController();
  /** Questions answered before (a round that takes the call asks them again, answered from its record). */
  private readonly answered: Ask[] = [];
  private readonly waiting: Waiting[] = [];
  private ended?: { result: CallToolResult } | { error: unknown };
  private wake?: () => void;
  private expired = false;
  /** Its id while it waits in the registry. */
  id?: string;

  constructor(call: RemoteToolCall, timeoutMs: number, onEnd: (held: HeldCall) => void) {
    const input: McpInputHandlers = {};
    if (call.input.elicit) input.elicit = (...args) => this.asked({ kind: 'elicit', args }) as never;
    if (call.input.sample) input.sample = (...args) => this.asked({ kind: 'sample', args }) as never;
    const timer = setTimeout(() => {
      this.expired = true;
      this.cancel();
    }, timeoutMs);
    timer.unref();
    const end = (ended: NonNullable<HeldCall['ended']>) => {
      clearTimeout(timer);
      this.ended = ended;
      for (const question of this.waiting.splice(0)) question.refuse(new Error('the call ended'));
      onEnd(this);
      this.wake?.();
    };
    call.send(this.stop.signal, input).then(
      (result) => end({ result }),
      (error: unknown) => end({ error }),
    );
  }

  get over(): boolean {
    return this.ended !== undefined;
  }

  cancel(reason?: unknown): void {
    this.stop.abort(reason);
  }

  private asked(ask: Ask): Promise<unknown> {
    return new Promise((answer, refuse) => {
      this.waiting.push({ ask, answer, refuse });
      this.wake?.();
    });
  }

  /**
   * Follows the call from one round: answers its questions through the round's handlers until it
   * ends. Throws the round's suspension when a question needs our client (the call stays open); the
   * round's own cancellation or time limit cancels it.
   */
  async follow(call: RemoteToolCall, suspended: () => boolean): Promise<CallToolResult> {
    const { signal, input } = call;
    const cancel = () => {
      if (!suspended()) this.cancel(signal.reason);
    };
    if (signal.aborted) cancel();
    else signal.addEventListener('abort', cancel, { once: true });
    try {
      for (const ask of this.answered) await through(input, ask);
      for (;;) {
        const question = this.waiting[0];
        if (question) {
          let answer: unknown;
          try {
            answer = await through(input, question.ask);
          } catch (error) {
            if (error instanceof InputSuspension || suspended()) throw error;
            this.waiting.shift();
            question.refuse(error);
            continue;
          }
          this.waiting.shift();
          this.answered.push(question.ask);
          question.answer(answer);
          continue;
        }
        if (this.ended) {
          if ('result' in this.ended) return this.ended.result;
          if (this.expired) call.late();
          throw this.ended.error;
        }
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
      }
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }
}

/** The remote calls of one mount held open for their next round. */
export class HeldRemoteCalls {
  private readonly held = new Map<string, HeldCall>();

  constructor(
    private readonly max: number,
    private readonly timeoutMs: number,
  ) {}

  /** Sends one remote tool call (RemoteToolOptions.sender): on 2026-07-28 through a held call. */
  readonly sender = async (call: RemoteToolCall): Promise<CallToolResult> => {
    const request = mcpRequest();
    const rounds = request instanceof RequestContext ? request.rounds : undefined;
    if (!rounds) return call.send(call.signal, call.input);
    const id = rounds.takeHeld();
    let held = id === undefined ? undefined : this.take(id);
    if (id !== undefined && !held && !call.retryable) {
      fail(
        `${call.what} was waiting for this answer in a call this server no longer holds (it ended after the mount's timeoutMs of ${this.timeoutMs} ms, ` +
          'was answered already, or this round reached another server process), so the call was not sent again: it may already have done its work. ' +
          'Check whether it did before calling the tool again.',
        { standalone: true },
      );
    }
    held ??= new HeldCall(call, this.timeoutMs, (ended) => ended.id !== undefined && this.held.delete(ended.id));
    try {
      return await held.follow(call, () => rounds.suspended);
    } catch (error) {
      if (rounds.suspended && !held.over) this.park(held, call, rounds);
      else held.cancel();
      throw error;
    }
  };

  /** Keeps a call whose round stopped to ask our client, for the next round (or refuses it past the bound). */
  private park(held: HeldCall, call: RemoteToolCall, rounds: NonNullable<RequestContext['rounds']>): void {
    if (this.held.size >= this.max) {
      held.cancel();
      rounds.refuse(
        `${call.what} asked a question mid-call while ${this.max} of its server's calls were already waiting for answers (the mount's maxHeldCalls), ` +
          'so it was cancelled and not asked; it may have done part of its work already. Try again later.',
      );
      return;
    }
    const id = randomBytes(16).toString('base64url');
    held.id = id;
    this.held.set(id, held);
    rounds.hold(id, () => this.take(id)?.cancel());
  }

  /** The held call `id`, taken out (a second round with the same id finds nothing). */
  private take(id: string): HeldCall | undefined {
    const held = this.held.get(id);
    this.held.delete(id);
    if (held) held.id = undefined;
    return held;
  }

  /** Cancels every held call (the mount closes). */
  close(): void {
    for (const id of [...this.held.keys()]) this.take(id)?.cancel();
  }
}
