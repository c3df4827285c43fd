/**
 * The problems with one call's input, gathered with a bound: however many unknown keys or broken
 * array items a caller sends, the answer names a few and counts the rest, so its size never grows
 * with the input.
 */
import type { FieldError, FieldErrorKeyword } from '../errors/errors';
import { formatCount, LISTED_INPUT_PROBLEMS, NAMED_UNKNOWN_KEYS, shorten } from '../util/limits';
import { joinWords } from '../util/describe-value';

const NO_PARAMS: Readonly<Record<string, unknown>> = Object.freeze({});

export class InputProblems {
  private readonly unknownNamed: string[] = [];
  private unknownCount = 0;
  private readonly listed: FieldError[] = [];
  private problemCount = 0;
  /** Made with the first problem: a call that passes allocates none. */
  private seen: Set<string> | undefined;

  get empty(): boolean {
    return this.unknownCount === 0 && this.problemCount === 0;
  }

  /** An undeclared key, by its path (`colour`, `address.zip`). */
  unknown(path: string): void {
    if (this.unknownCount++ < NAMED_UNKNOWN_KEYS) this.unknownNamed.push(shorten(path));
  }

  /** Any other problem, with the rule it broke; the same problem twice counts once. */
  add(field: string, message: string, keyword: FieldErrorKeyword, params: Readonly<Record<string, unknown>> = NO_PARAMS): void {
    const key = `${field}\u0000${message}`;
    const seen = (this.seen ??= new Set());
    if (seen.has(key)) return;
    seen.add(key);
    if (this.problemCount++ < LISTED_INPUT_PROBLEMS) this.listed.push({ field: field || 'base', message, keyword, params });
  }

  /**
   * One entry per named problem, then one per count: `{ field: 'base', message: 'and 299,995 more
   * unknown inputs' }`.
   */
  fieldErrors(): FieldError[] {
    const errors: FieldError[] = this.unknownNamed.map((field) => ({
      field,
      message: `unknown input: ${field}`,
      keyword: 'unknown',
      params: NO_PARAMS,
    }));
    const moreUnknown = this.unknownCount - this.unknownNamed.length;
    if (moreUnknown > 0)
      errors.push({
        field: 'base',
        message: `and ${formatCount(moreUnknown)} more unknown inputs`,
        keyword: 'unknown',
        params: Object.freeze({ count: moreUnknown }),
      });
    errors.push(...this.listed);
    const moreProblems = this.problemCount - this.listed.length;
    if (moreProblems > 0)
      errors.push({
        field: 'base',
        message: `and ${formatCount(moreProblems)} more problems`,
        keyword: 'truncated',
        params: Object.freeze({ count: moreProblems }),
      });
    return errors;
  }

  /**
   * "unknown input: a and amount must be…"; past the cap, "unknown inputs: a, b, c, d, e and
   * 299,995 more and …".
   */
  sentence(): string {
    const parts: string[] = [];
    const moreUnknown = this.unknownCount - this.unknownNamed.length;
    if (moreUnknown > 0) parts.push(`unknown inputs: ${this.unknownNamed.join(', ')} and ${formatCount(moreUnknown)} more`);
    else for (const name of this.unknownNamed) parts.push(`unknown input: ${name}`);
    for (const error of this.listed) parts.push(error.message);
    const moreProblems = this.problemCount - this.listed.length;
    if (moreProblems > 0) parts.push(`${formatCount(moreProblems)} more problems`);
    return joinWords(parts);
  }
}
