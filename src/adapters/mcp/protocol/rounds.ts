/**
 * The tool context over MCP 2026-07-28 input-required rounds. A call re-runs from the start on each
 * round with the answers recorded so far, each under its ask's key: the tool's own (`{ key }`), or
 * its position in the run (`ask-1`, `ask-2`, …). An ask with a recorded answer for the same request
 * gets it at once; one without suspends the run. Asks made together (`Promise.all`) go out together:
 * the run is not stopped at the first unanswered ask, but once a macrotask passes with no new ask
 * (or the round's bound of asks is reached); then its signal is aborted with the suspension (so the
 * invoker ends the call as cancelled and reports nothing), the waiting asks reject with it, and the
 * server answers input-required with every pending request. A recorded answer whose request differs
 * from what the run now asks is dropped, with the answers recorded after it, and asked again. The
 * answers travel in the sealed requestState (../protocol/request-state.ts).
 */
import { createHash } from 'node:crypto';
import {
  inputRequired,
  MissingRequiredClientCapabilityError,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequest,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Approver, AskCall, ClientRoot, ElicitResult, ElicitSchema, SampleRequest, SampleResult } from '../../../index';
import { approvalForm, canElicitForm, decisionOf } from './approval';
import { checkResponse, fitsForm, type AskKind } from './round-answers';
import {
  invalidState,
  missingKeysError,
  RequestStateSeal,
  StateBinding,
  warnMissingKeysOnce,
  type McpSpentApprovals,
} from './request-state';

/** What a run stops with when it reaches an ask nobody has answered yet. Never a tool's business. */
export class InputSuspension extends Error {
  constructor() {
    super('toolwright: this run of the call stopped to ask the client for input (MCP 2026-07-28 input-required round)');
    this.name = 'InputSuspension';
  }
}

/** At most this many asks go out in one round; more asks made together wait for the next round. */
export const MAX_ASKS_PER_ROUND = 16;

/** One recorded answer: the key it was asked under, the digest of the request it answered, and the checked answer. */
interface Recorded {
  k: string;
  q: string;
  r: unknown;
}
/** An ask the last round sent: its inputRequests key, the digest of its request, its kind. */
interface Pending {
  k: string;
  q: string;
  t: AskKind;
}

/** The digest of an ask: of its request, and of what else its answer is bound to (an approval: the digest of the call's arguments). */
const digestOf = (request: InputRequest, bound: string | undefined) => {
  const hash = createHash('sha256').update(JSON.stringify(request));
  if (bound !== undefined) hash.update(`\0${bound}`);
  return hash.digest('base64url').slice(0, 22);
};

/** Why a replayed approval round runs nothing. */
const ALREADY_RAN = 'this approval already ran the call once (the round was sent again); call the tool again to be asked again';

/** The answers of one call so far, and the asks this run stopped at (if it did). */
export class CallRounds {
  /** Input-required rounds this call has taken before this one. */
  readonly taken: number;
  private readonly answers: Recorded[];
  /** Asks this run made so far (an ask without a key is keyed by its position among them). */
  private asked = 0;
  /** The asks of this run nobody has answered yet, in the order made: this round sends them (at most MAX_ASKS_PER_ROUND). */
  private readonly pending: Array<{ ask: Pending; request: InputRequest }> = [];
  /** The waiting asks of this run: each rejects with the suspension once the run stops. */
  private readonly waiting: Array<(suspension: InputSuspension) => void> = [];
  /** Whether the run stopped: its asks are collected, its signal aborted; any later ask rejects at once. */
  private closed = false;
  /** A capability the run needed and the request did not declare (the tool was told it cannot ask). */
  missing?: 'elicitation' | 'sampling' | 'roots';
  private made?: InputSuspension;
  /** The id of a remote call held open for this call's next round (../composition/held-calls.ts), from its state or from this run. */
  private held?: string;
  /** Ends this run as a held remote call no round will reach (the round did not end input-required after all). */
  private release?: () => void;
  /** The tool error this suspended run ends with instead of asking (a remote call that could not be held). */
  private refused?: string;
  /** The state this round came with (its spent-approval id and expiry) and where approvals are claimed. */
  private state?: { id: string; expiresAt: number; spent: McpSpentApprovals };
  /**
   * Stops the run's signal following the caller's, once the run is over: the SDK aborts a
   * 2026-07-28 request's signal when it closes the request's server after the answer, and that
   * abort is no news to a run that has ended (passed on, it costs an event dispatch per call).
   */
  detach: () => void = () => undefined;
  /** What the run is stopped with: made only when a run does stop (an Error captures a stack, a call pays nothing for it). */
  get suspension(): InputSuspension {
    return (this.made ??= new InputSuspension());
  }

  private constructor(
    taken: number,
    answers: Recorded[],
    private readonly abort: AbortController,
    held: string | undefined,
  ) {
    this.taken = taken;
    this.answers = answers;
    this.held = held;
  }

  /** The remote call the last round held open for this one (once: who takes it owns it). */
  takeHeld(): string | undefined {
    const id = this.held;
    this.held = undefined;
    return id;
  }

  /** A remote call held open under `id` for the next round; `release` ends it when that round will not come. */
  hold(id: string, release: () => void): void {
    this.held = id;
    this.release = release;
  }

  /** Ends this suspended run with a tool error instead of asking (`text` is what the model reads). */
  refuse(text: string): void {
    this.refused = text;
  }

  /**
   * The rounds of a call from its opened state (none on a first round) and this round's
   * `inputResponses`: each pending ask's response, checked, becomes a recorded answer (one not
   * answered is asked again). A state sealed before asks had keys (answers by position, one pending
   * ask) reads as the same answers under their positional keys.
   */
  static from(
    state: Record<string, unknown> | undefined,
    responses: Record<string, unknown> | undefined,
    abort: AbortController,
  ): CallRounds {
    const taken = typeof state?.n === 'number' ? state.n : 0;
    const recorded = Array.isArray(state?.a) ? (state.a as Array<Omit<Recorded, 'k'> & { k?: string }>) : [];
    let answers = recorded.map((answer, index) => ({ k: `ask-${index + 1}`, ...answer }));
    const pending = (Array.isArray(state?.p) ? state.p : state?.p ? [state.p] : []) as Pending[];
    for (const ask of pending) {
      if (!responses || !Object.prototype.hasOwnProperty.call(responses, ask.k)) continue;
      answers = answers.filter((answer) => answer.k !== ask.k);
      answers.push({ k: ask.k, q: ask.q, r: checkResponse(ask.t, ask.k, responses[ask.k]) });
    }
    return new CallRounds(taken, answers, abort, typeof state?.h === 'string' ? state.h : undefined);
  }

  /**
   * The rounds of a 2026-07-28 call from its request: its sealed state opened for this call (a bad
   * one is refused with -32602 before anything runs), this round's answer recorded, and the signal
   * the run gets (the caller's, and the suspension's).
   */
  static open(
    seal: RequestStateSeal,
    ctx: ServerContext,
    binding: StateBinding,
    signal: AbortSignal,
    onRefused: (reason: string) => void,
  ): { rounds: CallRounds; signal: AbortSignal } {
    const raw: unknown = ctx.mcpReq.requestState();
    if (raw !== undefined && typeof raw !== 'string') throw invalidState();
    const opened = raw === undefined ? undefined : seal.open(raw, binding, onRefused);
    // The run's signal: aborted by the suspension (stop()) or with the caller's reason. One listener
    // forwards the caller's abort: AbortSignal.any costs tens of µs per call on Node 20 (its WeakRefs).
    const run = new AbortController();
    const forward = () => run.abort(signal.reason);
    if (signal.aborted) run.abort(signal.reason);
    else signal.addEventListener('abort', forward, { once: true });
    const rounds = CallRounds.from(opened, ctx.mcpReq.inputResponses, run);
    rounds.detach = () => signal.removeEventListener('abort', forward);
    if (raw !== undefined) rounds.state = { id: RequestStateSeal.idOf(raw), expiresAt: opened!.e as number, spent: seal.spent };
    return { rounds, signal: run.signal };
  }

  /**
   * Claims the approval this round's state carries: true once per state, false when the state
   * already ran its call (a replayed round runs nothing twice).
   */
  async claimApproval(): Promise<boolean> {
    return this.state === undefined || (await this.state.spent.claim(this.state.id, this.state.expiresAt)) === true;
  }

  /** Whether this run made an ask nobody has answered yet (even when the tool caught the suspension). */
  get suspended(): boolean {
    return this.pending.length > 0;
  }

  /**
   * An ask of this run under `key` (none: its position, `ask-<n>`): its recorded answer, or a wait
   * that rejects with the suspension once the run stops (the ask then goes out in this round).
   * `bound`: what else the answer is bound to (an approval: the digest of the call's arguments).
   */
  ask(kind: AskKind, request: InputRequest, fits: (answer: unknown) => boolean = () => true, bound?: string, key?: string): Promise<unknown> {
    if (this.closed) return Promise.reject(this.suspension);
    const k = key ?? `ask-${this.asked + 1}`;
    this.asked++;
    const q = digestOf(request, bound);
    const at = this.answers.findIndex((answer) => answer.k === k);
    const recorded = at < 0 ? undefined : this.answers[at];
    // An answer that does not fit what was asked (a form filled wrongly) is asked again, as a differing one.
    if (recorded !== undefined && recorded.q === q && fits(recorded.r)) return Promise.resolve(recorded.r);
    // Answered for another request (the run differs from the last one): from here on, ask again.
    if (recorded !== undefined) this.answers.length = at;
    const waits = new Promise<never>((_, reject) => this.waiting.push(reject));
    if (this.pending.length === MAX_ASKS_PER_ROUND) {
      // The round is full: this ask waits for the next one, and the run stops now.
      this.stop();
      return waits;
    }
    this.pending.push({ ask: { k, q, t: kind }, request });
    if (this.pending.length === 1) this.stopOnceQuiet(this.asked);
    return waits;
  }

  /**
   * Stops the run once a macrotask passes with no new ask, so that asks made together (in one
   * turn, or in the microtasks after it) go out in one round. `asked`: the asks made so far.
   */
  private stopOnceQuiet(asked: number): void {
    setImmediate(() => (this.asked === asked ? this.stop() : this.stopOnceQuiet(this.asked)));
  }

  /**
   * Stops the run (once): its signal is aborted with the suspension first (so the invoker ends the
   * run as cancelled and reports nothing, and an approval's wait hears it), then its waiting asks
   * reject with it.
   */
  private stop(): void {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort(this.suspension);
    for (const reject of this.waiting.splice(0)) reject(this.suspension);
  }

  /**
   * The protocol's answer to a run that needed a capability the request did not declare and did not
   * recover from it (SEP-2575: -32021, HTTP 400, naming the capability).
   */
  missingCapability(): MissingRequiredClientCapabilityError {
    return new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { [this.missing!]: {} } },
      `The tool needs the client's ${this.missing} capability, which this request does not declare in its client capabilities; declare it (and answer the input-required rounds), or call a tool that does not ask.`,
    );
  }

  /**
   * What a suspended run answers: input-required with its asks, sealed for this call; or the tool
   * error that ends the call instead (past the round cap, answers too large for a state), or the
   * server's fault (`fault`: no keys in production).
   */
  answer(
    seal: RequestStateSeal,
    binding: StateBinding,
    singleProcess: boolean,
    fault: (error: Error) => CallToolResult,
  ): CallToolResult | InputRequiredResult {
    // The run ends here if it has not yet: no ask joins this round once it is answered.
    this.stop();
    const answered = this.answerOf(seal, binding, singleProcess, fault);
    if (!('resultType' in answered)) this.release?.();
    return answered;
  }

  private answerOf(
    seal: RequestStateSeal,
    binding: StateBinding,
    singleProcess: boolean,
    fault: (error: Error) => CallToolResult,
  ): CallToolResult | InputRequiredResult {
    const failed = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });
    if (this.refused !== undefined) return failed(this.refused);
    if (this.taken >= seal.maxRounds) {
      return failed(
        `${binding.tool} asked for input more than ${seal.maxRounds} times in one call (the server's requestState.maxRounds), so the call was stopped; nothing after the last ask ran.`,
      );
    }
    if (!seal.shared && !singleProcess) {
      if (process.env.NODE_ENV === 'production') return fault(missingKeysError());
      warnMissingKeysOnce();
    }
    return (
      this.inputRequired(seal, binding) ??
      failed(`${binding.tool} collected more answers than one requestState may carry, so the call was stopped; ask for less per call.`)
    );
  }

  /** The input-required answer for the asks this run stopped at, sealed for this call; undefined if too large. */
  private inputRequired(seal: RequestStateSeal, binding: StateBinding): InputRequiredResult | undefined {
    const held = this.held === undefined ? {} : { h: this.held };
    const p = this.pending.map(({ ask }) => ask);
    const state = seal.seal({ e: Date.now() + seal.ttlMs, n: this.taken + 1, a: this.answers, p, ...held }, binding);
    const inputRequests = Object.fromEntries(this.pending.map(({ ask, request }) => [ask.k, request]));
    return state === undefined ? undefined : inputRequired({ inputRequests, requestState: state });
  }
}

/**
 * The elicit/sample/roots handlers and the approver of a 2026-07-28 call, as far as the request's own
 * client capabilities (its `_meta` envelope) declare them; each ask goes through the call's rounds,
 * under the key the tool gave it (AskCall.key) or its position.
 */
export function roundHandlers(
  rounds: CallRounds,
  capabilities: ClientCapabilities | undefined,
  toolName: string,
  trusted: boolean,
): {
  elicit?: (message: string, schema: ElicitSchema, call?: AskCall) => Promise<ElicitResult>;
  sample?: (request: SampleRequest, call?: AskCall) => Promise<SampleResult>;
  roots?: (call?: AskCall) => Promise<readonly ClientRoot[]>;
  approve: Approver | undefined;
} {
  const canElicit = canElicitForm(capabilities);
  const ask = async (message: string, schema: ElicitSchema, bound?: string, key?: string): Promise<ElicitResult> => {
    const request = inputRequired.elicit({ mode: 'form', message, requestedSchema: schema as never });
    return (await rounds.ask('elicit', request, (answer) => fitsForm(answer as ElicitResult, schema), bound, key)) as ElicitResult;
  };
  const elicit = (message: string, schema: ElicitSchema, call?: AskCall) => ask(message, schema, undefined, call?.key);
  const sample = async (request: SampleRequest, call?: AskCall) =>
    (await rounds.ask('sample', inputRequired.createMessage(request as never), undefined, undefined, call?.key)) as SampleResult;
  const roots = async (call?: AskCall) =>
    ((await rounds.ask('roots', inputRequired.listRoots(), undefined, undefined, call?.key)) as { roots: ClientRoot[] }).roots;
  return {
    ...(canElicit ? { elicit } : {}),
    ...(capabilities?.sampling ? { sample } : {}),
    ...(capabilities?.roots ? { roots } : {}),
    approve: canElicit
      ? async (call) => {
          // The recorded answer is bound to the exact arguments (sensitive ones included), not only to the question shown.
          const question = call.approvalQuestion(toolName);
          const { message, schema } = approvalForm(toolName, question);
          const decision = decisionOf(await ask(message, schema, question.digest));
          // An approval runs its call once: the round that carries it claims its state, and a replay of that round is refused.
          if (decision === true && !(await rounds.claimApproval())) return { approved: false, reason: ALREADY_RAN };
          return decision;
        }
      : trusted
        ? () => true
        : undefined,
  };
}
