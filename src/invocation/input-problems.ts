/**
 * The problems with one call's input, gathered with a bound: however many unknown keys or broken
 * array items a caller sends, the answer names a few and counts the rest, so its size never grows
 * with the input. Whichever checker found a problem (the schema, class-validator), the ones named
 * are the first in the contract's declaration order, a wrong type first at its field.
 */
import type { FieldError, FieldErrorKeyword } from '../errors/errors';
import { formatCount, LISTED_INPUT_PROBLEMS, NAMED_UNKNOWN_KEYS, shorten } from '../util/limits';
import { joinWords } from '../util/describe-value';

const NO_PARAMS: Readonly<Record<string, unknown>> = Object.freeze({});

/** A field path's place in declaration order: each segment's field index, or its array index. */
export type FieldOrder = (field: string) => readonly number[];

/** A listed problem with its place: where its field is declared, then a wrong type first, then the order found. */
interface Ranked {
  readonly error: FieldError;
  readonly place: readonly number[];
  readonly type: boolean;
  readonly sequence: number;
}

function before(a: Ranked, b: Ranked): boolean {
  const p = a.place;
  const q = b.place;
  for (let i = 0; i < p.length && i < q.length; i++) if (p[i] !== q[i]) return p[i] < q[i];
  if (p.length !== q.length) return p.length < q.length;
  if (a.type !== b.type) return a.type;
  return a.sequence < b.sequence;
}

const NO_PLACE: readonly number[] = Object.freeze([]);

export class InputProblems {
  private readonly unknownNamed: string[] = [];
  private unknownCount = 0;
  /** The first LISTED_INPUT_PROBLEMS problems in `order`, kept sorted. */
  private readonly listed: Ranked[] = [];
  private problemCount = 0;
  /** Made with the first problem: a call that passes allocates none. */
  private seen: Set<string> | undefined;
  /** The fields some check found a problem with. */
  private fields: Set<string> | undefined;

  /** Without an order, problems are listed as found. */
  constructor(private readonly order?: FieldOrder) {}

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
    (this.fields ??= new Set()).add(field);
    const sequence = this.problemCount++;
    const listed = this.listed;
    const place = this.order?.(field) ?? NO_PLACE;
    const ranked: Ranked = { error: { field: field || 'base', message, keyword, params }, place, type: keyword === 'type', sequence };
    let at = listed.length;
    while (at > 0 && before(ranked, listed[at - 1])) at--;
    if (at === LISTED_INPUT_PROBLEMS) return;
    listed.splice(at, 0, ranked);
    if (listed.length > LISTED_INPUT_PROBLEMS) listed.pop();
  }

  /**
   * Whether a check already found a problem with this field (`amount`, `contacts[3].email`):
   * class-validator does not run on a value the schema refused (it may be of any type), nor inside it.
   */
  refused(field: string): boolean {
    return this.fields !== undefined && this.fields.has(field);
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
    for (const { error } of this.listed) errors.push(error);
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
    for (const { error } of this.listed) parts.push(error.message);
    const moreProblems = this.problemCount - this.listed.length;
    if (moreProblems > 0) parts.push(`${formatCount(moreProblems)} more problems`);
    return joinWords(parts);
  }
}
