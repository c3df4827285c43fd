import { injectable } from 'tsyringe';
import { Expects, Exposes, FailsOn, Field, SemanticHints, Tool, fail } from 'toolwright';
import { LoanRepository } from '../domain/loan-repository';
import { LOANS_WRITE } from '../scopes';
import { LoanIdInput } from './loan-service';

export class LoanLockedError extends Error {}

export class Cancellation {
  @Field() loanId!: string;
  @Field() cancelled!: boolean;
}

@Tool('mcp', 'openai', 'http', {
  description: 'Cancel a loan that is not yet approved',
  error: 'Could not cancel the loan',
  adapters: { mcp: { scopes: [LOANS_WRITE] }, http: { failureStatus: { on: [[LoanLockedError, 409]] } } },
})
@SemanticHints('destructive')
@FailsOn(LoanLockedError, 'the loan is locked by another officer')
@Expects(LoanIdInput)
@Exposes(Cancellation)
@injectable()
export class CancelLoan {
  constructor(private readonly loans: LoanRepository) {}

  call(input: LoanIdInput): Cancellation {
    const loan = this.loans.find(input.loanId);
    if (!loan) fail('no such loan');
    if (loan.state === 'approved') fail('an approved loan cannot be cancelled');
    this.loans.cancel(loan);
    return { loanId: loan.id, cancelled: true };
  }
}
