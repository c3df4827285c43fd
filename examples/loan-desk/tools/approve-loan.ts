import { IsIn, IsInt, IsUUID, Max, Min } from 'class-validator';
import { injectable } from 'tsyringe';
import { AmbientContext, Expects, Exposes, Field, Tool, ToolVersion, fail } from 'toolwright';
import { CreditBureau } from '../domain/credit-bureau';
import { LoanRepository } from '../domain/loan-repository';
import { LOANS_WRITE } from '../scopes';

export class ApproveLoanInput {
  @Field({ description: 'The loan to approve' }) @IsUUID() loanId!: string;
  @Field({ description: 'Approved amount in euros' }) @IsInt() @Min(1) @Max(1_000_000) amount!: number;
  /** Supplied by the server from the signed-in officer, never by the model. */
  @AmbientContext() officerId!: string;
}

export class ApproveLoanV2Input extends ApproveLoanInput {
  @Field({ description: 'Processing tier', default: 'standard' }) @IsIn(['standard', 'express']) tier!: 'standard' | 'express';
}

export class Approval {
  @Field({ description: 'Reference of the approval' }) approvalId!: string;
  @Field() approvedAt!: Date;
  @Field({ description: 'Processing tier used' }) tier!: string;
}

const MINIMUM_SCORE = 580;

/** Shared by both versions; @injectable() records the constructor's dependencies for subclasses. */
@injectable()
class ApproveLoanBase {
  constructor(
    protected readonly loans: LoanRepository,
    protected readonly credit: CreditBureau,
  ) {}

  protected approve(input: ApproveLoanInput, tier: string): Approval {
    const loan = this.loans.find(input.loanId);
    if (!loan) fail('no such loan');
    if (loan.state !== 'pending') fail(`the loan is already ${loan.state}`);
    if (this.credit.score(loan.applicant) < MINIMUM_SCORE) fail('the applicant’s credit score is too low');
    const approvalId = this.loans.approve(loan, input.amount, input.officerId);
    return { approvalId, approvedAt: loan.approvedAt!, tier };
  }
}

@Tool('mcp', 'openai', 'http', {
  description: 'Approve a pending loan (standard tier)',
  error: 'Could not approve the loan',
  adapters: { mcp: { scopes: [LOANS_WRITE] }, http: { deprecated: true } },
})
@ToolVersion(1)
@Expects(ApproveLoanInput)
@Exposes(Approval)
export class ApproveLoanV1 extends ApproveLoanBase {
  async call(input: ApproveLoanInput): Promise<Approval> {
    return this.approve(input, 'standard');
  }
}

@Tool('mcp', 'openai', 'http', {
  description: 'Approve a pending loan, choosing the processing tier',
  error: 'Could not approve the loan',
  adapters: { mcp: { scopes: [LOANS_WRITE] } },
})
@ToolVersion(2)
@Expects(ApproveLoanV2Input)
@Exposes(Approval)
export class ApproveLoanV2 extends ApproveLoanBase {
  async call(input: ApproveLoanV2Input): Promise<Approval> {
    return this.approve(input, input.tier);
  }
}
