import { injectable } from 'tsyringe';

/** A stand-in for a credit bureau: a deterministic score from the applicant's name. */
@injectable()
export class CreditBureau {
  score(applicant: string): number {
    let hash = 0;
    for (const char of applicant) hash = (hash * 31 + char.charCodeAt(0)) % 1000;
    return 300 + (hash % 551);
  }
}
