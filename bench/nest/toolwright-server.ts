/** bench/nest's toolwright contender: `check_credit` declared with toolwright's decorators, served by `serveHttp`. */
import { injectable } from 'tsyringe';
import { Description, Expects, Exposes, Tool } from 'toolwright';
import { serveHttp } from 'toolwright/mcp';
import { CheckCreditInput, CreditReport } from './dto';
import { band, CreditBureau } from './tool';
import type { Started } from './servers';

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
