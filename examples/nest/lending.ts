/** The loan desk's rules, shared by the controller and the tools (no Nest, no toolwright). */
import type { CreditBureau } from '../loan-desk/domain/credit-bureau';
import type { LoanRepository } from '../loan-desk/domain/loan-repository';
import type { ApprovalDto, ApproveLoanDto, CreditQueryDto, CreditReportDto } from './dto';

const MINIMUM_SCORE = 580;

export function creditReport(bureau: CreditBureau, query: CreditQueryDto): CreditReportDto {
  const score = bureau.score(query.applicant);
  const band = score < 580 ? 'poor' : score < 670 ? 'fair' : score < 740 ? 'good' : 'excellent';
  return { score, band };
}

export type ApprovalOutcome = { ok: true; approval: ApprovalDto } | { ok: false; missing: boolean; reason: string };

export function approveLoan(loans: LoanRepository, bureau: CreditBureau, input: ApproveLoanDto, officerId: string): ApprovalOutcome {
  const loan = loans.find(input.loanId);
  if (!loan) return { ok: false, missing: true, reason: 'no such loan' };
  if (loan.state !== 'pending') return { ok: false, missing: false, reason: `the loan is already ${loan.state}` };
  if (bureau.score(loan.applicant) < MINIMUM_SCORE) return { ok: false, missing: false, reason: 'the applicant’s credit score is too low' };
  const approvalId = loans.approve(loan, input.amount, officerId);
  return { ok: true, approval: { approvalId, approvedBy: officerId, tier: input.tier ?? 'standard' } };
}
