import type { ToolDefinition } from '../registry/tool-definition';
import { describeValue } from '../util/describe-value';
import { isTimeoutMs, TIMEOUT_RULE } from '../util/limits';
import { setDefaultContextHandlers, ToolContextHandlers } from '../invocation/tool-context';

/** What an exception report knows: the tool, and the arguments as the caller sent them. */
export interface ExceptionContext {
  readonly tool: ToolDefinition;
  readonly args?: unknown;
}

export type ExceptionHandler = (error: unknown, context: ExceptionContext) => void;

export interface ToolwrightSettings {
  /**
   * Called exactly once for every exception outcome (a bug, a failed dependency, a broken
   * output contract, a failed response mapping), never for a deliberate failure or bad input.
   * Default: logs to stderr.
   */
  onException?: ExceptionHandler;
  /**
   * The time limit of every call that sets none closer to the tool (`@Tool({ timeoutMs })`, then
   * `InvokerOptions.defaultTimeoutMs`), in milliseconds. Default: none.
   */
  defaultTimeoutMs?: number;
  /**
   * Process-wide handlers of the tool context (`progress`, `log`, `elicit`, `sample`) for calls
   * whose transport passes none, e.g. `{ log: (level, message) => logger[level]?.(message) }`.
   * Default none: progress and logs go nowhere, `elicit` and `sample` fail naming the fix.
   */
  toolContext?: ToolContextHandlers;
}

/** Logs to stderr; a value that cannot even be printed (its getters or Proxy traps throw) is named, not printed. */
const defaultHandler: ExceptionHandler = (error, { tool }) => {
  const headline = `toolwright: ${tool.toolName()} (${tool.id}) raised an exception:`;
  try {
    console.error(headline, error);
  } catch {
    console.error(headline, 'a thrown value that cannot be printed');
  }
};

let handler: ExceptionHandler = defaultHandler;
let defaultTimeoutMs: number | undefined;

/** Process-wide settings. `configure({ onException: undefined })` restores the default. */
export function configure(settings: ToolwrightSettings): void {
  if ('onException' in settings) {
    const next = settings.onException;
    if (next !== undefined && typeof next !== 'function') {
      throw new TypeError(`configure: onException must be a function; got ${describeValue(next)}.`);
    }
    handler = next ?? defaultHandler;
  }
  if ('defaultTimeoutMs' in settings) {
    const next = settings.defaultTimeoutMs;
    if (next !== undefined && !isTimeoutMs(next)) {
      throw new TypeError(`configure: defaultTimeoutMs must be ${TIMEOUT_RULE} (or undefined for none); got ${describeValue(next)}.`);
    }
    defaultTimeoutMs = next;
  }
  if ('toolContext' in settings) setDefaultContextHandlers(settings.toolContext);
}

/** The process-wide default time limit of a call, if any. */
export function configuredTimeoutMs(): number | undefined {
  return defaultTimeoutMs;
}

/** Reports an exception once; a failing handler never breaks the call that reported. */
export function reportException(error: unknown, context: ExceptionContext, override?: ExceptionHandler): void {
  try {
    (override ?? handler)(error, context);
  } catch (handlerError) {
    try {
      console.error('toolwright: the onException handler itself threw:', handlerError);
    } catch {
      console.error('toolwright: the onException handler itself threw a value that cannot be printed.');
    }
  }
}

/** Re-raise in development so a real bug surfaces loudly instead of being masked. */
export function raisesInDevelopment(): boolean {
  return process.env.NODE_ENV === 'development';
}
