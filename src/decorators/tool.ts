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
 * Declares a tool, a member of every registered adapter (with `adapters: { mcp: … }`, of the
 * adapters named there; `except` narrows either): on a class (entry method `call`, or
 * `options.method`) or on a method of a service class.
 *
 * @param options names, description, messages, per-adapter settings, `except`, `approval`, `timeoutMs`, `tags`.
 * @example
 * ```ts
 * @Tool({ description: 'Approve a pending loan', success: 'Loan approved' })
 * @Expects(ApproveLoanInput)
 * export class ApproveLoan {
 *   async call(input: ApproveLoanInput) { … }
 * }
 *
 * class LoanService {
 *   @Tool({ except: 'openai' }) // every adapter but openai
 *   async status(input: LoanStatusInput): Promise<LoanStatus> { … }
 * }
 * ```
 */
export function Tool(options: ToolOptions): ToolDecorator;
/**
 * Declares a tool, a member of the adapters named (`'mcp'`, `'openai'`, `'http'`, an adapter of
 * your own) and of no other; with none, `@Tool()`, a member of every registered adapter.
 *
 * @param adapters adapter keys.
 * @example
 * ```ts
 * @Tool() // every registered adapter
 * export class ListLoans { … }
 *
 * @Tool('mcp', 'openai') // these two only
 * export class CheckCredit { … }
 * ```
 */
export function Tool(...adapters: string[]): ToolDecorator;
/**
 * Declares a tool, a member of the adapters named, with its options last.
 *
 * @param args the adapter keys, then the options.
 * @example
 * ```ts
 * @Tool('mcp', 'openai', { name: 'approve_loan', adapters: { mcp: { name: 'loans_approve' } } })
 * export class ApproveLoan { … }
 * ```
 */
export function Tool(...args: [...adapters: string[], options: ToolOptions]): ToolDecorator;
/**
 * Declares a class or method a member of no adapter, even under a tool root (`false` combined with
 * anything else is an error).
 *
 * @param optOut `false`.
 * @example
 * ```ts
 * @Tool(false) // in a tool root's folder, but served by no adapter
 * export class RebuildIndex { … }
 * ```
 */
export function Tool(optOut: false): ToolDecorator;
export function Tool(...args: ToolArgument[]): ToolDecorator {
  return memberDecorator('Tool', args, OPTION_KEYS, undefined, (options, site) => ({
    error: optionalText('Tool', site, 'error', options.error),
    success: optionalText('Tool', site, 'success', options.success),
    ...approvalOption(site, options.approval),
  }));
}
