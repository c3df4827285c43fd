/**
 * Calls of a toolbox waiting for a person's approval. What the person is shown is what runs: the
 * arguments are copied and deeply frozen when the approval is requested, the record that shows them
 * (and the question every way in asks about them) is frozen, and approve() runs that private copy,
 * only if its arguments are still those the question was shown from. Each record is answered once, and only a record
 * this toolbox made (a copy or a hand-made record is refused).
 */
import { describeValue } from '../../adapter-kit';
import { deepFreeze } from '../../adapter-kit/internal';
import { ApprovalQuestion, DeclarationError } from '../../index';
import { EntryOutcome, INVALID_ARGUMENTS, ToolboxCallOptions } from './entry';
import type { ToolCallMatch, ToolCallRecord } from './tool-calls';

/** The text an `approval_required` record carries (it is never meant for the model). */
export const APPROVAL_REQUIRED = 'This call is waiting for a person to approve it.';

/** @internal A call waiting for approval: what `approve` / `deny` run it with. */
export interface PendingApproval {
  /** The call, with the frozen copy of its arguments that the record shows. */
  readonly match: ToolCallMatch;
  readonly options: ToolboxCallOptions;
  readonly transport: string;
  /** The digest of the arguments the question was shown from (`ApprovalQuestion.digest`). */
  readonly digest: string;
}

/** @internal The Toolbox's calls waiting for approval, each with the frozen arguments it showed. */
export class PendingApprovals {
  private readonly pending = new WeakMap<object, PendingApproval>();

  /**
   * The frozen `approval_required` record of a call, remembered with a frozen copy of its
   * arguments; or, for arguments that cannot be copied, the failed outcome to record instead.
   */
  hold(
    match: ToolCallMatch,
    options: ToolboxCallOptions,
    transport: string,
    durationMs: number,
    question: ApprovalQuestion,
  ): ToolCallRecord | EntryOutcome {
    let shown: unknown;
    try {
      shown = deepFreeze(structuredClone(match.arguments));
    } catch (error) {
      return {
        status: 'failed',
        output: `${INVALID_ARGUMENTS}they cannot be copied to be shown for approval (${(error as Error).message}).`,
      };
    }
    const record: ToolCallRecord = Object.freeze({
      id: match.id,
      name: match.name,
      api: match.api,
      status: 'approval_required',
      durationMs,
      arguments: shown,
      result: undefined,
      output: APPROVAL_REQUIRED,
      question: question.text,
    });
    this.pending.set(record, { match: Object.freeze({ ...match, arguments: shown }), options, transport, digest: question.digest });
    return record;
  }

  /** The pending call of a record this toolbox made and nobody answered yet; it is answered now. */
  take(record: unknown, where: string): PendingApproval {
    const pending = typeof record === 'object' && record !== null ? this.pending.get(record) : undefined;
    if (!pending) {
      throw new DeclarationError(
        `${where}: expected an 'approval_required' record from this toolbox's invoke or invokeAll, not yet answered; got ${describeValue(record)}. ` +
          'Pass the record itself (not a copy); approve() runs the arguments it showed when the approval was requested.',
      );
    }
    this.pending.delete(record as object);
    return pending;
  }
}
