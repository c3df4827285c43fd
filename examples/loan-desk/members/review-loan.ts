import { injectable } from 'tsyringe';
import { Complete, CompletionRequest, Content, Description, Expects, Prompt, fail } from 'toolwright';
import { LoanRepository } from '../domain/loan-repository';
import { LENDING_POLICY } from './lending-policy';

/** A prompt a person picks in their client: review one pending loan against the policy. */
@Prompt({ name: 'review_loan', title: 'Review a loan' })
@Description('Asks the model to review a pending loan against the lending policy')
@Expects({ applicant: { type: String, description: 'The applicant whose pending loan to review' } })
@injectable()
export class ReviewLoan {
  constructor(private readonly loans: LoanRepository) {}

  call(input: { applicant: string }) {
    const loan = this.loans.list('pending').find((candidate) => candidate.applicant === input.applicant);
    if (!loan) fail(`${input.applicant} has no pending loan`);
    return [
      Content.user(Content.resource({ uri: 'loans://policy', mimeType: 'text/markdown', text: LENDING_POLICY })),
      Content.user(
        `Review the pending loan ${loan.id}: ${loan.applicant} asks for ${loan.amount}. ` +
          'Check their credit, then say whether to approve it and on which tier, citing the policy.',
      ),
    ];
  }

  /** Applicants with a pending loan, as the user types. */
  @Complete('applicant')
  applicants(request: CompletionRequest): string[] {
    const typed = request.value.toLowerCase();
    return this.loans
      .list('pending')
      .map((loan) => loan.applicant)
      .filter((name) => name.toLowerCase().startsWith(typed));
  }
}
