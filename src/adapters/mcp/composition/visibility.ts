/**
 * Who sees what: a request sees and uses a member when it holds every scope the member declares
 * and the server's `visible` rule (if any) says yes for it. A member it may not see answers exactly
 * as one that does not exist. The rule is asked once per member per list, and only about the one
 * member a call names; a rule that throws, answers anything but a boolean, or does not answer in
 * time hides the member (fail-closed) and is reported to the server, never to the client.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { describeValue } from '../../../adapter-kit';
import { DeclarationError } from '../../../index';
import type { McpRequestContext } from '../members/request-context';
import type { McpMember, ServedMember } from '../members/served-members';

/**
 * `createMcpServer({ visible })`: whether this request may see and use this member. `request` is the
 * same McpRequestContext `ambientContext` gets: the verified token (`authInfo`: scopes, clientId,
 * `extra` claims), headers, session, protocol revision.
 */
export type McpVisibleRule = (member: McpMember, request: McpRequestContext) => boolean | Promise<boolean>;

/** How long a `visible` rule may take for one member by default, in milliseconds. */
export const DEFAULT_VISIBLE_TIMEOUT_MS = 5_000;

/** The rule and the scopes, applied per request. */
export class Visibility {
  constructor(
    private readonly rule: McpVisibleRule | undefined,
    private readonly timeoutMs: number,
    private readonly unauthenticated: readonly string[],
  ) {}

  /** Checks the options; a Visibility for them. */
  static of(rule: unknown, timeoutMs: unknown, unauthenticated: readonly string[]): Visibility {
    if (rule !== undefined && typeof rule !== 'function') {
      throw new DeclarationError(
        `createMcpServer: 'visible' must be a function (member, request) => boolean | Promise<boolean>, e.g. (member, request) => !member.tags.includes('admin') || request.authInfo?.extra?.role === 'admin'; got ${describeValue(rule)}.`,
      );
    }
    const ms = timeoutMs ?? DEFAULT_VISIBLE_TIMEOUT_MS;
    if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 1) {
      throw new DeclarationError(
        `createMcpServer: visibleTimeoutMs must be a whole number of milliseconds of at least 1; got ${describeValue(ms)}.`,
      );
    }
    return new Visibility(rule as McpVisibleRule | undefined, ms, unauthenticated);
  }

  /** Whether a rule decides per request (then lists differ per caller: their cache scope is private). */
  get ruled(): boolean {
    return this.rule !== undefined;
  }

  /** Whether a request with this verified token (undefined: none) holds every scope the member declares. */
  scoped({ scopes }: ServedMember, authInfo: AuthInfo | undefined): boolean {
    if (scopes.length === 0) return true;
    const held = authInfo ? authInfo.scopes : this.unauthenticated;
    return scopes.every((scope) => held.includes(scope));
  }

  /** Whether this request may see and use the member: its scopes, then the rule. */
  allows(
    served: ServedMember,
    authInfo: AuthInfo | undefined,
    request: () => McpRequestContext,
    report: (error: Error) => void,
  ): boolean | Promise<boolean> {
    if (!this.scoped(served, authInfo)) return false;
    return this.rule ? this.ask(served.member, request(), report) : true;
  }

  /** The members of a list this request may see, the rule asked once for each (all at once). */
  async filter<T extends ServedMember>(
    all: Iterable<T>,
    authInfo: AuthInfo | undefined,
    request: () => McpRequestContext,
    report: (error: Error) => void,
  ): Promise<T[]> {
    const candidates = [...all].filter((served) => this.scoped(served, authInfo));
    if (!this.rule) return candidates;
    const seen = request();
    const verdicts = await Promise.all(candidates.map((served) => this.ask(served.member, seen, report)));
    return candidates.filter((_, i) => verdicts[i]);
  }

  private ask(member: McpMember, request: McpRequestContext, report: (error: Error) => void): boolean | Promise<boolean> {
    const failed = (why: string, cause?: unknown): false => {
      report(
        new Error(`the server's visible rule ${why} for ${member.kind} '${member.name}'; it is hidden from this request (fail-closed).`, {
          cause,
        }),
      );
      return false;
    };
    let verdict: unknown;
    try {
      verdict = this.rule!(member, request);
    } catch (error) {
      return failed(`threw (${(error as Error)?.message ?? String(error)})`, error);
    }
    if (typeof verdict === 'boolean') return verdict;
    if (typeof (verdict as PromiseLike<unknown> | null)?.then !== 'function')
      return failed(`answered ${describeValue(verdict)}, not true or false`);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), this.timeoutMs)));
    return Promise.race([Promise.resolve(verdict as PromiseLike<unknown>), late]).then(
      (answer) => {
        clearTimeout(timer);
        if (answer === 'late') return failed(`did not answer within ${this.timeoutMs} ms (visibleTimeoutMs)`);
        return typeof answer === 'boolean' ? answer : failed(`answered ${describeValue(answer)}, not true or false`);
      },
      (error: unknown) => {
        clearTimeout(timer);
        return failed(`threw (${(error as Error)?.message ?? String(error)})`, error);
      },
    );
  }
}
