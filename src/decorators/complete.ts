import { declaredAt, Site, siteName } from '../metadata/site';
import type { CompletionFacts } from '../metadata/definitions';
import { describeValue, isClass, isPlainObject } from '../util/describe-value';
import { DeclarationError } from '../errors/declaration-errors';
import { MEMBER_OPTION_KEYS, MemberDecorator, MemberOptions, memberDecorator, optionalText } from './member';

/** The options of `@Complete(argument, { ... })`: the member options but a name, title or description (a completion has none), and `of`. */
export interface CompleteOptions extends Omit<MemberOptions, 'name' | 'title' | 'description'> {
  /**
   * When the class declares several prompts or templates (as methods): the method whose argument
   * this completes (`@Complete('applicant', { of: 'review' })`, `@Complete(LoanDesk, 'applicant', { of: 'review' })`).
   */
  of?: string;
}

/** What a completion receives: the argument being completed, what is typed so far, and the other arguments already given. */
export interface CompletionRequest {
  /** The prompt argument or template variable being completed. */
  readonly argument: string;
  /** What the user has typed so far. */
  readonly value: string;
  /** The prompt's other arguments (or the template's other variables) already given, by name. */
  readonly context: Readonly<Record<string, string>>;
}

/**
 * What a completion returns: the suggestions, or the suggestions with the total number of matches
 * and whether there are more than those returned. Transports cap the list (MCP: 100 values).
 */
export type CompletionAnswer =
  readonly string[] | { readonly values: readonly string[]; readonly total?: number; readonly hasMore?: boolean };

const OPTION_KEYS = [...MEMBER_OPTION_KEYS.filter((key) => key !== 'name' && key !== 'title' && key !== 'description'), 'of'];

/**
 * Declares completions (suggestions as the user types) for one argument of a prompt or one
 * variable of a resource template, on a method beside it (the same class). The member receives a
 * {@link CompletionRequest} and returns a {@link CompletionAnswer}; it is resolved through DI and
 * runs through the pipeline like a tool.
 *
 * @param argument the prompt argument or template variable completed.
 * @param options `of`: in a service class with several prompts or templates, the method whose argument this completes.
 * @example
 * ```ts
 * class LoanDesk {
 *   @Prompt({ description: 'Review a loan application' })
 *   review(input: ReviewInput) { … }
 *
 *   @Complete('tone', { of: 'review' })
 *   tones(request: CompletionRequest): string[] {
 *     return ['brief', 'thorough'].filter((tone) => tone.startsWith(request.value));
 *   }
 * }
 * ```
 */
export function Complete(argument: string, options?: CompleteOptions): MemberDecorator;
/**
 * Declares completions (see above) on a class of its own (entry method `call`) or a method
 * elsewhere: name the prompt's or template's class.
 *
 * @param of the class of the prompt or template, or `() => Class` for a circular import.
 * @param argument the prompt argument or template variable completed.
 * @param options `of` here too, when that class declares several (as methods).
 * @example
 * ```ts
 * @Complete(DraftLetter, 'applicant') // or () => DraftLetter
 * export class ApplicantNames {
 *   constructor(private readonly index: ApplicantIndex) {}
 *   call(request: CompletionRequest) { return this.index.search(request.value, 20); }
 * }
 * ```
 */
export function Complete(of: Function | (() => Function), argument: string, options?: CompleteOptions): MemberDecorator;
export function Complete(first: unknown, second?: unknown, third?: unknown): MemberDecorator {
  const besides = typeof first === 'string';
  const argument = besides ? first : second;
  const rawOptions = besides ? second : third;
  if (!besides && typeof first !== 'function') {
    throw new DeclarationError(
      `@Complete: the first argument is the argument's name ('applicant') or the class of the prompt or template (ReviewLoan, or () => ReviewLoan); got ${describeValue(first)}.`,
    );
  }
  if (typeof argument !== 'string' || argument.trim() === '') {
    throw new DeclarationError(
      `@Complete: name the argument or variable completed, e.g. @Complete('applicant') or @Complete(ReviewLoan, 'applicant'); got ${describeValue(argument)}.`,
    );
  }
  if (rawOptions !== undefined && !isPlainObject(rawOptions)) {
    throw new DeclarationError(`@Complete('${argument}'): the last argument must be an options object; got ${describeValue(rawOptions)}.`);
  }
  const options = (rawOptions ?? {}) as Record<string, unknown>;
  return memberDecorator('Complete', [options], OPTION_KEYS, (opts, site): CompletionFacts => {
    if (besides) {
      const method = optionalText('Complete', site, 'of', opts.of);
      checkOf(site, method);
      return { kind: 'completion', argument, of: { target: site.target, method, thunk: false } };
    }
    const target = first as Function;
    const method = optionalText('Complete', site, 'of', opts.of);
    return { kind: 'completion', argument, of: { target, method, thunk: !isClass(target) } };
  });
}

function checkOf(site: Site, method: string | undefined): void {
  if (method === undefined) return;
  if (typeof (site.target.prototype as Record<string, unknown>)[method] !== 'function') {
    throw new DeclarationError(
      `${siteName(site)}: @Complete option 'of' names '${method}', which is not a method of ${site.target.name}. Name the prompt or template method.`,
      declaredAt(site),
    );
  }
}
