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
 * `Content.assistant(…)` messages, or `{ description, messages }`.
 *
 * `@Prompt({ description: 'Review a loan application' })`
 */
export function Prompt(...args: PromptArgument[]): MemberDecorator {
  return memberDecorator('Prompt', args, MEMBER_OPTION_KEYS, () => ({ kind: 'prompt' }));
}
