/**
 * The tool every contender of bench/nest serves: the loan desk's credit check (the same
 * `CreditBureau` domain class, examples/loan-desk/domain), `applicant` (a string of at most 200
 * characters) in, `{ score, band }` out.
 */
import { CreditBureau } from '../../examples/loan-desk/domain/credit-bureau';

export { CreditBureau };

export function band(score: number): 'poor' | 'fair' | 'good' | 'excellent' {
  return score < 580 ? 'poor' : score < 670 ? 'fair' : score < 740 ? 'good' : 'excellent';
}
