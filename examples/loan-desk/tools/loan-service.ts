import { IsOptional, IsUUID } from 'class-validator';
import { injectable } from 'tsyringe';
import { Exposes, Expects, Field, SemanticHints, Tool, fail } from 'toolwright';
import { LoanRepository, LoanState } from '../domain/loan-repository';
import { LOANS_READ } from '../scopes';

export class LoanStatusInput {
  @Field({ description: 'The loan to look up' }) @IsUUID() loanId!: string;
}

export class LoanStatus {
  @Field() loanId!: string;
  @Field() applicant!: string;
  @Field() amount!: number;
  @Field({ enum: ['pending', 'approved', 'cancelled'] }) state!: LoanState;
  @Field({ type: () => String, nullable: true, description: 'Officer who approved it' }) approvedBy!: string | null;
}

export class LoanSummary {
  @Field() loanId!: string;
  @Field() applicant!: string;
  @Field() amount!: number;
  @Field({ enum: ['pending', 'approved', 'cancelled'] }) state!: LoanState;
}

export class LoanList {
  @Field({ type: () => [LoanSummary] }) loans!: LoanSummary[];
}

/** An existing service: two of its methods are exposed as tools, the rest stays private. */
@injectable()
export class LoanService {
  constructor(private readonly loans: LoanRepository) {}

  @Tool('mcp', 'openai', 'http', { name: 'loan_status', description: 'Status of a loan', adapters: { mcp: { scopes: [LOANS_READ] } } })
  @SemanticHints('readOnly', 'idempotent')
  @Exposes(LoanStatus)
  async status(input: LoanStatusInput): Promise<LoanStatus> {
    const loan = this.loans.find(input.loanId);
    if (!loan) fail('no such loan');
    return { loanId: loan.id, applicant: loan.applicant, amount: loan.amount, state: loan.state, approvedBy: loan.approvedBy ?? null };
  }

  @Tool('mcp', 'openai', 'http', {
    description: 'List loans, optionally only those in one state',
    adapters: { mcp: { scopes: [LOANS_READ] } },
  })
  @SemanticHints('readOnly', 'idempotent')
  @Expects({ state: { enum: ['pending', 'approved', 'cancelled'], optional: true, description: 'Only loans in this state' } })
  @Exposes(LoanList)
  async listLoans(input: { state?: LoanState }): Promise<LoanList> {
    return {
      loans: this.loans
        .list(input.state)
        .map((loan) => ({ loanId: loan.id, applicant: loan.applicant, amount: loan.amount, state: loan.state })),
    };
  }

  /** Not a tool: internal bookkeeping. */
  count(): number {
    return this.loans.list().length;
  }
}

export class LoanIdInput {
  @Field({ description: 'The loan' }) @IsUUID() loanId!: string;
  @Field({ description: 'Why', optional: true }) @IsOptional() reason?: string;
}
