/**
 * The inputs an SDK with its own human-in-the-loop (the AI SDK, the OpenAI Agents SDK) was told need
 * approval, so that the call it later runs as approved runs with that input and no other. Such an
 * SDK takes the input to run from the messages or run state the application passes back; a call
 * changed between the approval request and its answer would otherwise run with the approval given
 * for another input. Bounded: a request never answered is forgotten once `MAX_ASKED` newer ones
 * wait. A call asked in another process (or forgotten) is not known here.
 */
import { canonicalJson } from './canonical-json';

const MAX_ASKED = 1_000;

/** What the model reads when the input changed after its approval was asked. */
export const CHANGED_AFTER_APPROVAL =
  'The arguments of this call changed after its approval was requested, so it did not run. Ask for approval again.';

export class AskedApprovals {
  /** The input shown for each call, as canonical JSON (tool-call input is JSON: the SDK parsed it). */
  private readonly asked = new Map<string, string | undefined>();
  /** The question a person is to be shown for each call, by tool call id (approvalQuestionOf). */
  private readonly questions = new Map<string, string>();

  /** Keeps the input shown for approval and its question; the first one asked for a call is the one kept. */
  remember(name: string, toolCallId: string, input: unknown, question: string): void {
    const key = `${name}\0${toolCallId}`;
    if (this.asked.has(key)) return; // the SDK asks again when the answer comes: the input first shown stands
    this.asked.set(key, canonicalJson(input));
    this.questions.set(toolCallId, question);
    if (this.asked.size > MAX_ASKED) this.asked.delete(this.asked.keys().next().value!);
    if (this.questions.size > MAX_ASKED) this.questions.delete(this.questions.keys().next().value!);
  }

  /** The question of a call whose approval was asked here (undefined for another call). */
  question(toolCallId: string): string | undefined {
    return this.questions.get(toolCallId);
  }

  /**
   * For a call whose approval was asked here with another input: true, and the call must not run
   * (the model reads CHANGED_AFTER_APPROVAL). False when it was asked with this input (it is
   * forgotten now) or not asked here.
   */
  changed(name: string, toolCallId: string, input: unknown): boolean {
    const key = `${name}\0${toolCallId}`;
    if (!this.asked.has(key)) return false;
    const shown = this.asked.get(key);
    this.asked.delete(key);
    // An input that cannot be written as JSON (undefined here) equals nothing: such a call never runs as approved.
    return !(shown !== undefined && shown === canonicalJson(input));
  }
}
