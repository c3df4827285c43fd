import { MEMBER_OPTION_KEYS, MemberArgument, MemberDecorator, MemberOptions, memberDecorator } from './member';

/** The options of `@Prompt({ ... })`: the member options (`name`, `title`, `description`, `adapters`, `except`, `tags`, ...). */
export type PromptOptions = MemberOptions;

/** One argument of `@Prompt(...)`: an adapter key, `false` (opts out) or `PromptOptions`. */
export type PromptArgument = MemberArgument<PromptOptions>;

/**
 * Declares a prompt: a class (entry method `call`) or a method that returns the messages a client
 * puts before the model. Its arguments are its input contract (`@Expects`, or a method's DTO
 * parameter): scalar fields (strings, numbers, booleans, enums), since clients send them as text
 * and they are coerced like a tool's input. Return a string (one user message), `Content.user(…)` /
 * `Content.assistant(…)` messages, or `{ description, messages }`. A member of every registered
 * adapter that serves prompts, or of the adapters named before the options.
 *
 * @param args adapter keys (none: every adapter), then the options: `name`, `title`, `description`, `tags`, ….
 * @example
 * ```ts
 * @Prompt({ description: 'Review a loan application' })
 * @Expects({ loanId: String, tone: { type: String, enum: ['brief', 'thorough'], optional: true } })
 * export class ReviewLoan {
 *   call(input: { loanId: string; tone?: 'brief' | 'thorough' }) {
 *     return [Content.user(`Review loan ${input.loanId}${input.tone ? `, ${input.tone}` : ''}.`)];
 *   }
 * }
 * ```
 */
export function Prompt(...args: [...adapters: string[], options: PromptOptions]): MemberDecorator;
/**
 * Declares a prompt (see above), a member of the adapters named; with none, `@Prompt()`, of every
 * registered adapter that serves prompts.
 *
 * @param adapters adapter keys.
 * @example
 * ```ts
 * class Letters {
 *   @Prompt('mcp')
 *   draft(input: DraftInput) { return `Draft a letter to ${input.applicant}.`; }
 * }
 * ```
 */
export function Prompt(...adapters: string[]): MemberDecorator;
/**
 * Keeps a class or method out of every adapter: on a subclass, it keeps the class out of the
 * prompt its parent declares (`false` combined with anything else is an error).
 *
 * @param optOut `false`.
 * @example
 * ```ts
 * @Prompt(false)
 * export class InternalReview extends ReviewLoan {}
 * ```
 */
export function Prompt(optOut: false): MemberDecorator;
export function Prompt(...args: PromptArgument[]): MemberDecorator {
  return memberDecorator('Prompt', args, MEMBER_OPTION_KEYS, () => ({ kind: 'prompt' }));
}
