/**
 * A deliberate failure: control flow, not a fault. `fail()` inside a tool ends the call with a
 * user-facing failure. It is deliberately not a ToolwrightError: catching the error family around
 * a call means "toolwright objected", not "the tool said no".
 */
export class ToolFailure extends Error {
  constructor(
    /** The reason as the tool gave it, or undefined for the headline alone. */
    readonly reason: string | undefined,
    /** Drop the tool's headline: the reason is the whole message. */
    readonly standalone: boolean,
  ) {
    super(reason ?? 'The tool failed');
    this.name = 'ToolFailure';
  }
}

/** The options of `fail(reason, { ... })`. */
export interface FailOptions {
  /** Show the reason alone, without the tool's `error` headline. */
  standalone?: boolean;
}

/**
 * Ends the current tool call with a user-facing failure. With a headline
 * (`@Tool({ error: 'Could not approve the loan' })`) the caller reads "Could not approve the loan:
 * no such loan"; `standalone: true` shows the reason alone.
 */
export function fail(reason?: string, options: FailOptions = {}): never {
  if (reason !== undefined && typeof reason !== 'string') {
    throw new TypeError(`fail() takes a reason string; got ${typeof reason}.`);
  }
  throw new ToolFailure(reason, options.standalone === true);
}
