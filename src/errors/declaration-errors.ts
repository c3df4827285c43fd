import { ToolwrightError } from './toolwright-error';

/**
 * Where a declaration mistake sits: the class (a tool, a DTO, a service) and, where the message
 * names one, the member (a field, a method tool, an option). A part that is not known is undefined.
 */
export interface DeclarationSite {
  readonly class: string | undefined;
  readonly member: string | undefined;
}

/** The site as a throw site passes it: a class or its name, a member name or key. */
export interface DeclarationSiteInput {
  readonly class?: Function | string;
  readonly member?: string | symbol;
}

function siteOf(input: DeclarationSiteInput | undefined): DeclarationSite {
  const owner = input?.class;
  const member = input?.member;
  return Object.freeze({
    class: (typeof owner === 'function' ? owner.name : owner) || undefined,
    member: member === undefined ? undefined : String(member),
  });
}

/** What a declaration error and a setup error share: a `TypeError` in the family that names its site. */
@ToolwrightError.mark
class SitedTypeError extends TypeError {
  /** `DECLARATION`, `TOOL_CONFLICT` or `SETUP`. */
  readonly code: string = 'DECLARATION';
  /** The class and member the message names (`{ class: 'Loan', member: 'amount' }`), when known. */
  readonly site: DeclarationSite;

  constructor(message: string, site?: DeclarationSiteInput, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.site = siteOf(site);
  }
}

/**
 * A mistake in how tools, contracts or their settings are declared or configured: a decorator's
 * arguments, a contract field, a schema option, a registry or adapter option. Thrown at decoration,
 * setup or enumeration time, never for a caller's input. It is a `TypeError` (what it always was)
 * and a member of the toolwright family, with `code` (`DECLARATION`; `TOOL_CONFLICT` for a
 * {@link ToolConflictError}) and the `site` its message names.
 */
export class DeclarationError extends SitedTypeError {}

/**
 * The project is set up in a way toolwright cannot work with, whatever its classes declare: the
 * TC39 standard decorators instead of `experimentalDecorators`, no `emitDecoratorMetadata`,
 * reflect-metadata imported too late. The fix is in tsconfig.json or the entry point, not in a
 * class. A `TypeError`, like the declaration errors it is found beside, but not one of them.
 */
export class SetupError extends SitedTypeError {
  override readonly code: string = 'SETUP';
}

/**
 * Two tools of one adapter share a `(toolName, version)`. Found when the adapter is enumerated;
 * `tools` holds both (in the order the message names them).
 */
export class ToolConflictError extends DeclarationError {
  override readonly code = 'TOOL_CONFLICT';

  constructor(
    message: string,
    /** The tool name both share, as the adapter sees it. */
    readonly toolName: string,
    /** The version both declare (or inherit). */
    readonly version: number,
    /** The adapter key whose enumeration found the conflict. */
    readonly adapter: string,
    /** Both tools: the class and, for a method tool, its method; `id` is `Class` or `Class.method`. */
    readonly tools: readonly [ConflictingTool, ConflictingTool],
  ) {
    super(message);
  }
}

/** One side of a {@link ToolConflictError}. */
export interface ConflictingTool {
  readonly id: string;
  readonly target: Function;
  /** The method of a method tool; undefined for a class tool. */
  readonly method: string | undefined;
}

/** An adapter key was enumerated (`Tools.forAdapter('mcp')`) that no one registered. */
export class UnknownAdapterError extends ToolwrightError {
  override readonly code = 'UNKNOWN_ADAPTER';

  constructor(
    message: string,
    /** The key that was asked for. */
    readonly adapter: string,
    /** The keys registered at the time. */
    readonly registered: readonly string[],
  ) {
    super(message);
  }
}
