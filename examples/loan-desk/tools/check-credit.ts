import { IsString, MaxLength } from 'class-validator';
import { injectable } from 'tsyringe';
import { Description, Expects, Exposes, Field, Integer, SemanticHints, Tool } from 'toolwright';
import { CreditBureau } from '../domain/credit-bureau';
import { LOANS_READ } from '../scopes';

export class CheckCreditInput {
  @Field({ description: 'Full name of the applicant' }) @IsString() @MaxLength(200) applicant!: string;
}

export class CreditReport {
  @Field({ type: () => Integer, description: 'Score between 300 and 850' }) score!: number;
  @Field({ enum: ['poor', 'fair', 'good', 'excellent'] }) band!: string;
}

@Tool('mcp', 'openai', 'http', { adapters: { mcp: { scopes: [LOANS_READ] } } })
@Description('Credit score of an applicant')
@SemanticHints('readOnly', 'idempotent')
@Expects(CheckCreditInput)
@Exposes(CreditReport)
@injectable()
export class CheckCredit {
  constructor(private readonly bureau: CreditBureau) {}

  call(input: CheckCreditInput): CreditReport {
    const score = this.bureau.score(input.applicant);
    const band = score < 580 ? 'poor' : score < 670 ? 'fair' : score < 740 ? 'good' : 'excellent';
    return { score, band };
  }
}
