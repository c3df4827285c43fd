/**
 * What the promise matrix asks of a way in: call a tool as a caller (answering any approval question
 * it is asked), list and use the other member kinds, read back what ran, and, where the way in keeps
 * something per caller (a session, a task), try it as another caller.
 */
import type { MemberKind } from 'toolwright';
import type { Caller } from '../fixtures/promises/members';

export type Kind = MemberKind;

/** How a test answers an approval question: approve it, or deny it. */
export type Answer = 'approve' | 'deny';

/** A call's outcome as the caller saw it, and every approval question the call asked. */
export interface Outcome {
  readonly ok: boolean;
  /** The text the caller (a model, a client) reads: content, structured content or the error. */
  readonly text: string;
  /** The questions a person was asked before the call ran (text of each). */
  readonly questions: readonly string[];
}

/** What ran, as the ledger tool answers. */
export interface Runs {
  pay: number;
  vault: number;
  reset: number;
  users: string[];
}

export interface Harness {
  call(tool: string, args: Record<string, unknown>, options: { answer: Answer; caller: Caller }): Promise<Outcome>;
  /** The names (tools, prompts), URIs (resources) or URI templates (templates) `caller` is listed. */
  list?(kind: Exclude<Kind, 'completion'>, caller: Caller): Promise<string[]>;
  /** The name a tool or prompt is served under here (a mount's namespace), default itself. */
  rename?(name: string): string;
  /** The answer to reading, getting or completing `target` as `caller`, as text (an error's text included). */
  use?(kind: Exclude<Kind, 'tool'>, target: string, caller: Caller): Promise<string>;
  /** The answer to subscribing to (2025-11-25) or listening for (2026-07-28) updates of `uri`. */
  subscribe?(uri: string, caller: Caller): Promise<string>;
  /** What ran. */
  runs(): Promise<Runs>;
  /**
   * What something a caller made (a session, a task) answers to its own caller, to another caller,
   * and what an unknown one answers to that other caller.
   */
  crossIdentity?(): Promise<{ own: string; other: string; unknown: string }>;
  /** Everything this way in wrote where the application or an operator reads it (logs, audit, reports). */
  observed(): Promise<string>;
  close(): Promise<void>;
}

/** A caller-facing text with `name` put in place of `other`, to compare a hidden member's answer with an unknown one's. */
export const renamed = (text: string, from: string, to: string): string => text.split(from).join(to);
