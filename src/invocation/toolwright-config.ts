import type { Middleware } from './pipeline';
import { checkMiddleware } from './pipeline';
import type { ToolDefinition } from '../registry/tool-definition';
import { describeValue } from '../util/describe-value';
import { isTimeoutMs, TIMEOUT_RULE } from '../util/limits';
import { setDefaultContextHandlers, ToolContextHandlers } from './tool-context';
import { setWarningHandler, WarningHandler } from '../util/warnings';
import { DeclarationError } from '../errors/declaration-errors';

/** What an exception report knows: the tool, and the arguments as the caller sent them. */
export interface ExceptionContext {
  readonly tool: ToolDefinition;
  readonly args?: unknown;
}

/** Receives each exception outcome once (`configure({ onException })`, `InvokerOptions.onException`). */
export type ExceptionHandler = (error: unknown, context: ExceptionContext) => void;

/** The process-wide settings of `configure({ ... })`. */
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
   * Process-wide handlers of the tool context (`progress`, `log`, `elicit`, `sample`, `roots`) for calls
   * whose transport passes none, e.g. `{ log: (level, message) => logger[level]?.(message) }`.
   * Default none: progress and logs go nowhere, `elicit`, `sample` and `roots` fail naming the fix.
   */
  toolContext?: ToolContextHandlers;
  /**
   * Receives every toolwright warning (`{ code, message, tool?, key? }`): a returned key the
   * `@Exposes` contract does not declare (once per tool and key), a constraint JSON Schema cannot
   * express, a tool-root module that failed to load. Default: a Node process warning
   * (`process.emitWarning`); undeclared output keys only when NODE_ENV is not 'production'.
   */
  onWarning?: WarningHandler;
  /**
   * Middleware for every call of every Invoker, outside each Invoker's own (first listed is
   * outermost). Default none; `configure({ middleware: [] })` clears it.
   */
  middleware?: readonly Middleware[];
  /** Tools with the `destructive` hint need a person's approval, as if they declared `approval: 'required'` (default false). */
  requireApprovalForDestructive?: boolean;
  /**
   * Checks input through each contract's compiled path (default true); `false` runs the generic
   * path everywhere, for invokers that set no `compiled` of their own.
   */
  compiled?: boolean;
  /**
   * The compiled path generates one function per contract with `new Function` (default true).
   * `false` keeps it to closures, for environments that forbid generated code (a
   * Content-Security-Policy without 'unsafe-eval'); ajv, which compiles the schemas, needs it too.
   */
  generatedCode?: boolean;
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
let middleware: readonly Middleware[] = [];
let destructiveApproval = false;
let compiled = true;
let generatedCode = true;

/** The handler `configure({ onException })` set, or undefined while the default (stderr) reports. */
export function configuredExceptionHandler(): ExceptionHandler | undefined {
  return handler === defaultHandler ? undefined : handler;
}

/** Process-wide settings. `configure({ onException: undefined })` (or `onWarning`) restores the default. */
export function configure(settings: ToolwrightSettings): void {
  if ('onException' in settings) {
    const next = settings.onException;
    if (next !== undefined && typeof next !== 'function') {
      throw new DeclarationError(`configure: onException must be a function; got ${describeValue(next)}.`);
    }
    handler = next ?? defaultHandler;
  }
  if ('onWarning' in settings) {
    const next = settings.onWarning;
    if (next !== undefined && typeof next !== 'function') {
      throw new DeclarationError(`configure: onWarning must be a function; got ${describeValue(next)}.`);
    }
    setWarningHandler(next);
  }
  if ('defaultTimeoutMs' in settings) {
    const next = settings.defaultTimeoutMs;
    if (next !== undefined && !isTimeoutMs(next)) {
      throw new DeclarationError(
        `configure: defaultTimeoutMs must be ${TIMEOUT_RULE} (or undefined for none); got ${describeValue(next)}.`,
      );
    }
    defaultTimeoutMs = next;
  }
  if ('toolContext' in settings) setDefaultContextHandlers(settings.toolContext);
  if ('middleware' in settings) middleware = settings.middleware === undefined ? [] : checkMiddleware(settings.middleware, 'configure');
  if ('requireApprovalForDestructive' in settings) {
    const next = settings.requireApprovalForDestructive;
    if (next !== undefined && typeof next !== 'boolean') {
      throw new DeclarationError(`configure: requireApprovalForDestructive must be true or false; got ${describeValue(next)}.`);
    }
    destructiveApproval = next === true;
  }
  if ('compiled' in settings) {
    const next = settings.compiled;
    if (next !== undefined && typeof next !== 'boolean') {
      throw new DeclarationError(`configure: compiled must be true or false; got ${describeValue(next)}.`);
    }
    compiled = next !== false;
  }
  if ('generatedCode' in settings) {
    const next = settings.generatedCode;
    if (next !== undefined && typeof next !== 'boolean') {
      throw new DeclarationError(`configure: generatedCode must be true or false; got ${describeValue(next)}.`);
    }
    generatedCode = next !== false;
  }
}

/** The process-wide middleware, outermost first. */
export function configuredMiddleware(): readonly Middleware[] {
  return middleware;
}

/** Do invokers that set no `compiled` of their own check input through the compiled path? */
export function configuredCompiled(): boolean {
  return compiled;
}

/** Does the compiled path generate code (`configure({ generatedCode })`)? */
export function configuredGeneratedCode(): boolean {
  return generatedCode;
}

/** Do destructive tools need approval process-wide? */
export function configuredDestructiveApproval(): boolean {
  return destructiveApproval;
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
