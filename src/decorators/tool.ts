import {
  approvalOption,
  MEMBER_OPTION_KEYS,
  MemberArgument,
  MemberDecorator,
  MemberOptions,
  memberDecorator,
  optionalText,
} from './member';
import type { ToolApproval } from '../metadata/definitions';

export type { AdapterToolOptions } from './member';

/** The options of `@Tool({ ... })`: the member options (`name`, `description`, `adapters`, `except`, `method`, `tags`, ...) plus the tool's failure and success messages and its approval rule. */
export interface ToolOptions extends MemberOptions {
  /** Failure headline: `fail('no such loan')` reads "Could not approve the loan: no such loan". */
  error?: string;
  /** Message on success (`Result.message`). */
  success?: string;
  /**
   * A person must approve each call before it runs: `'required'`, or a function of the validated
   * input (`(input) => input.amount > 10_000`). Every transport asks in its own way (AI SDK
   * `needsApproval`, MCP elicitation, the Toolbox's `approval_required` records, `invoke({ approve })`);
   * an unapproved call never runs the tool.
   */
  approval?: ToolApproval;
}

/** One argument of `@Tool(...)`: an adapter key (`'mcp'`), `false` (opts out of every adapter) or `ToolOptions`. */
export type ToolArgument = MemberArgument<ToolOptions>;

/** What `@Tool(...)` returns: a decorator for a class or a method. */
export type ToolDecorator = MemberDecorator;

const OPTION_KEYS = [...MEMBER_OPTION_KEYS, 'error', 'success', 'approval'];

/**
 * Declares a tool: on a class (entry method `call`, or `method`) or on a method of a service class.
 *
 * `@Tool()` every registered adapter · `@Tool('mcp', 'openai')` these · `@Tool({ name, adapters:
 * { mcp: { name } } })` · `@Tool({ except: 'openai' })` · `@Tool(false)` opts out of everything.
 */
export function Tool(...args: ToolArgument[]): ToolDecorator {
  return memberDecorator('Tool', args, OPTION_KEYS, undefined, (options, site) => ({
    error: optionalText('Tool', site, 'error', options.error),
    success: optionalText('Tool', site, 'success', options.success),
    ...approvalOption(site, options.approval),
  }));
}
