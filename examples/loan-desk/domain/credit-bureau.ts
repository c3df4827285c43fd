import { injectable } from 'tsyringe';

/** Known applicants' scores; anyone else gets a deterministic score from their name. */
const KNOWN: Record<string, number> = {
  'Ada Lovelace': 812,
  'Grace Hopper': 768,
  'Alan Turing': 540,
};

/** A stand-in for a credit bureau. */
@injectable()
export class CreditBureau {
  score(applicant: string): number {
    if (applicant in KNOWN) return KNOWN[applicant];
    let hash = 0;
    for (const char of applicant) hash = (hash * 31 + char.charCodeAt(0)) % 1000;
    return 300 + (hash % 551);
  }
}
