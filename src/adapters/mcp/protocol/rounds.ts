/**
 * The tool context over MCP 2026-07-28 input-required rounds. A call re-runs from the start on each
 * round with the answers recorded so far: the k-th ask of a run gets the k-th recorded answer; the
 * first ask without one suspends the run (its signal is aborted with the suspension, so the invoker
 * ends the call as cancelled and reports nothing) and the server answers input-required with that
 * one request. A recorded answer whose request differs from what the run now asks is dropped from
 * there on and asked again. The answers travel in the sealed requestState (../protocol/request-state.ts).
 */
import { createHash } from 'node:crypto';
import {
  inputRequired,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequest,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Approver, ElicitResult, ElicitSchema, SampleRequest, SampleResult } from '../../../index';
import { isPlainObject } from '../../../adapter-kit/internal';
import { approvalForm, canElicitForm, decisionOf } from './approval';
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

export type AskKind = 'elicit' | 'sample';
/** One recorded answer: the digest of the request it answered, and the checked answer. */
interface Recorded {
  q: string;
  r: unknown;
}
/** The ask the last round sent: its inputRequests key, the digest of its request, its kind. */
export interface Pending {
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

/** The answers of one call so far, and the ask this run stopped at (if it did). */
export class CallRounds {
  /** Input-required rounds this call has taken before this one. */
  readonly taken: number;
  private readonly answers: Recorded[];
  private asked = 0;
  private stopped?: { pending: Pending; request: InputRequest };
  /** A capability the run needed and the request did not declare (the tool was told it cannot ask). */
  missing?: 'elicitation' | 'sampling';
  private made?: InputSuspension;
  /** The id of a remote call held open for this call's next round (../composition/held-calls.ts), from its state or from this run. */
  private held?: string;
  /** Ends this run as a held remote call no round will reach (the round did not end input-required after all). */
  private release?: () => void;
  /** The tool error this suspended run ends with instead of asking (a remote call that could not be held). */
  private refused?: string;
  /** The state this round came with (its spent-approval id and expiry) and where approvals are claimed. */
  private state?: { id: string; expiresAt: number; spent: McpSpentApprovals };
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
   * `inputResponses`: the pending ask's response, checked, becomes the next recorded answer.
   */
  static from(
    state: Record<string, unknown> | undefined,
    responses: Record<string, unknown> | undefined,
    abort: AbortController,
  ): CallRounds {
    const taken = typeof state?.n === 'number' ? state.n : 0;
    const answers = Array.isArray(state?.a) ? (state.a as Recorded[]) : [];
    const pending = state?.p as Pending | undefined;
    if (pending && responses && Object.prototype.hasOwnProperty.call(responses, pending.k)) {
      answers.push({ q: pending.q, r: checkResponse(pending, responses[pending.k]) });
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
    const suspend = new AbortController();
    const rounds = CallRounds.from(opened, ctx.mcpReq.inputResponses, suspend);
    if (raw !== undefined) rounds.state = { id: RequestStateSeal.idOf(raw), expiresAt: opened!.e as number, spent: seal.spent };
    return { rounds, signal: AbortSignal.any([signal, suspend.signal]) };
  }

  /**
   * Claims the approval this round's state carries: true once per state, false when the state
   * already ran its call (a replayed round runs nothing twice).
   */
  async claimApproval(): Promise<boolean> {
    return this.state === undefined || (await this.state.spent.claim(this.state.id, this.state.expiresAt)) === true;
  }

  /** The ask this run stopped at, if any (even when the tool caught the suspension). */
  get suspended(): boolean {
    return this.stopped !== undefined;
  }

  /** The k-th ask of this run: its recorded answer, or the suspension. */
  ask(kind: AskKind, request: InputRequest, fits: (answer: unknown) => boolean = () => true, bound?: string): unknown {
    if (this.stopped) throw this.suspension;
    const index = this.asked++;
    const q = digestOf(request, bound);
    const recorded = this.answers[index];
    // An answer that does not fit what was asked (a form filled wrongly) is asked again, as a differing one.
    if (recorded !== undefined && recorded.q === q && fits(recorded.r)) return recorded.r;
    // Not answered yet, or answered for another request (the run differs from the last one): from here on, ask again.
    this.answers.length = index;
    this.stopped = { pending: { k: `ask-${index + 1}`, q, t: kind }, request };
    // The run's signal is aborted with the suspension (so the invoker ends the run as cancelled and
    // reports nothing) a microtask later: whoever awaits this ask (an approval's wait) is listening by then.
    queueMicrotask(() => this.abort.abort(this.suspension));
    throw this.suspension;
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
   * What a suspended run answers: input-required with its ask, sealed for this call; or the tool
   * error that ends the call instead (past the round cap, answers too large for a state), or the
   * server's fault (`fault`: no keys in production).
   */
  answer(
    seal: RequestStateSeal,
    binding: StateBinding,
    singleProcess: boolean,
    fault: (error: Error) => CallToolResult,
  ): CallToolResult | InputRequiredResult {
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

  /** The input-required answer for the ask this run stopped at, sealed for this call; undefined if too large. */
  private inputRequired(seal: RequestStateSeal, binding: StateBinding): InputRequiredResult | undefined {
    const { pending, request } = this.stopped!;
    const held = this.held === undefined ? {} : { h: this.held };
    const state = seal.seal({ e: Date.now() + seal.ttlMs, n: this.taken + 1, a: this.answers, p: pending, ...held }, binding);
    return state === undefined ? undefined : inputRequired({ inputRequests: { [pending.k]: request }, requestState: state });
  }
}

function badResponse(key: string, expected: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Invalid inputResponses['${key}']: expected ${expected}, the answer to the request the server sent under that key.`,
  );
}

const isElicitValue = (value: unknown) =>
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value)) ||
  (Array.isArray(value) && value.every((item) => typeof item === 'string'));

/** A client's response, checked for the kind of request it answers (a -32602 naming the key otherwise). */
export function checkResponse(pending: Pending, response: unknown): unknown {
  if (pending.t === 'elicit') {
    const expected = "an elicitation result { action: 'accept' | 'decline' | 'cancel', content? } with primitive content values";
    if (!isPlainObject(response) || !['accept', 'decline', 'cancel'].includes(response.action as string))
      throw badResponse(pending.k, expected);
    if (response.action !== 'accept') return { action: response.action };
    const content = response.content ?? {};
    if (!isPlainObject(content) || !Object.values(content).every(isElicitValue)) throw badResponse(pending.k, expected);
    return { action: 'accept', content };
  }
  const expected = "a sampling result { role: 'assistant', content: { type: 'text', text } (or image/audio), model }";
  if (!isPlainObject(response) || response.role !== 'assistant' || typeof response.model !== 'string' || !isPlainObject(response.content)) {
    throw badResponse(pending.k, expected);
  }
  const { content } = response;
  const fine =
    content.type === 'text'
      ? typeof content.text === 'string'
      : (content.type === 'image' || content.type === 'audio') && typeof content.data === 'string' && typeof content.mimeType === 'string';
  if (!fine) throw badResponse(pending.k, expected);
  return {
    role: 'assistant',
    content,
    model: response.model,
    ...(typeof response.stopReason === 'string' ? { stopReason: response.stopReason } : {}),
  };
}

/** Accepted content must fill the form that was asked: its fields only, its required ones present, of their types. */
export function fitsForm(result: ElicitResult, schema: ElicitSchema): boolean {
  if (result.action !== 'accept') return true;
  const content = result.content ?? {};
  for (const [name, value] of Object.entries(content)) {
    const field = schema.properties[name];
    if (!field) return false;
    const type = field.type === 'integer' ? 'number' : field.type;
    if (type === 'array' ? !Array.isArray(value) : typeof value !== type) return false;
    if (field.type === 'integer' && !Number.isInteger(value)) return false;
  }
  return (schema.required ?? []).every((name) => content[name] !== undefined);
}

/**
 * The elicit/sample handlers and the approver of a 2026-07-28 call, as far as the request's own
 * client capabilities (its `_meta` envelope) declare them; each ask goes through the call's rounds.
 */
export function roundHandlers(
  rounds: CallRounds,
  capabilities: ClientCapabilities | undefined,
  toolName: string,
  trusted: boolean,
): {
  elicit?: (message: string, schema: ElicitSchema) => Promise<ElicitResult>;
  sample?: (request: SampleRequest) => Promise<SampleResult>;
  approve: Approver | undefined;
} {
  const canElicit = canElicitForm(capabilities);
  const ask = async (message: string, schema: ElicitSchema, bound?: string): Promise<ElicitResult> => {
    const request = inputRequired.elicit({ mode: 'form', message, requestedSchema: schema as never });
    return rounds.ask('elicit', request, (answer) => fitsForm(answer as ElicitResult, schema), bound) as ElicitResult;
  };
  const elicit = (message: string, schema: ElicitSchema) => ask(message, schema);
  return {
    ...(canElicit ? { elicit } : {}),
    ...(capabilities?.sampling
      ? { sample: async (request: SampleRequest) => rounds.ask('sample', inputRequired.createMessage(request as never)) as SampleResult }
      : {}),
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
