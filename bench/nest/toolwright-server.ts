/** bench/nest's toolwright contender: `check_credit` declared with toolwright's decorators, served by `serveHttp`. */
import { IsString, MaxLength } from 'class-validator';
import { injectable } from 'tsyringe';
import { Description, Expects, Exposes, Field, Integer, Tool } from 'toolwright';
import { serveHttp } from 'toolwright/mcp';
import { band, CreditBureau } from './tool';
import type { Started } from './servers';

export class CheckCreditInput {
  @Field({ description: 'Full name of the applicant' }) @IsString() @MaxLength(200) applicant!: string;
}

export class CreditReport {
  @Field({ type: () => Integer, description: 'Score between 300 and 850' }) score!: number;
  @Field({ enum: ['poor', 'fair', 'good', 'excellent'] }) band!: string;
}

@Tool('mcp', { name: 'check_credit' })
@Description('Credit score of an applicant')
@Expects(CheckCreditInput)
@Exposes(CreditReport)
@injectable()
export class CheckCredit {
  constructor(private readonly bureau: CreditBureau) {}

  call(input: CheckCreditInput): CreditReport {
    const score = this.bureau.score(input.applicant);
    return { score, band: band(score) };
  }
}

export async function start(stateless: boolean): Promise<Started> {
  const handle = await serveHttp(
    { name: 'nest-bench', version: '1.0.0', tools: [CheckCredit] },
    { port: 0, stateless, maxSessions: 1_000_000 },
  );
  return { url: handle.url, close: () => handle.close() };
}
