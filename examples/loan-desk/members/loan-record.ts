import { IsUUID } from 'class-validator';
import { injectable } from 'tsyringe';
import { Complete, CompletionRequest, Description, Expects, Field, ResourceTemplate, fail } from 'toolwright';
import { LoanRepository } from '../domain/loan-repository';
import { LOANS_READ } from '../scopes';

export class LoanRecordVariables {
  @Field({ description: 'The loan id' }) @IsUUID() id!: string;
}

/** One loan of the book as a JSON document, at loans://loans/{id}; the same DTO rules as the tools. */
@ResourceTemplate('loans://loans/{id}', {
  name: 'loan_record',
  title: 'Loan record',
  mimeType: 'application/json',
  adapters: { mcp: { scopes: [LOANS_READ] } },
})
@Description('A loan in the book, by id')
@Expects(LoanRecordVariables)
@injectable()
export class LoanRecord {
  constructor(private readonly loans: LoanRepository) {}

  call(input: LoanRecordVariables) {
    const loan = this.loans.find(input.id);
    if (!loan) fail('no such loan');
    return { id: loan.id, applicant: loan.applicant, amount: loan.amount, state: loan.state };
  }

  /** Loan ids as the user types them. */
  @Complete('id')
  ids(request: CompletionRequest): string[] {
    return this.loans
      .list()
      .map((loan) => loan.id)
      .filter((id) => id.startsWith(request.value));
  }
}
