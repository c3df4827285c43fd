/**
 * The one channel for toolwright's warnings: things that are not errors but that a developer must
 * hear about (a value's key left out of a response, a constraint JSON Schema cannot express, a
 * tool-root module that failed to load). `configure({ onWarning })` takes them over.
 */

/** A warning, with a stable `code` and a message that names the tool, class or file and the fix. */
export interface ToolwrightWarning {
  /** `TOOLWRIGHT_UNDECLARED_OUTPUT_KEY`, `TOOLWRIGHT_UNSCHEMABLE_CONSTRAINT`, `TOOLWRIGHT_TOOL_ROOT_LOAD`. */
  readonly code: string;
  readonly message: string;
  /** The tool concerned (its name), when there is one. */
  readonly tool?: string;
  /** The key or property concerned, when there is one. */
  readonly key?: string;
}

/** Receives toolwright's warnings (`configure({ onWarning })`). */
export type WarningHandler = (warning: ToolwrightWarning) => void;

/** Warnings about the values a running tool returns; the default handler keeps them out of production logs. */
const DEVELOPMENT_ONLY = new Set(['TOOLWRIGHT_UNDECLARED_OUTPUT_KEY']);

/** A Node process warning (stderr, `--no-warnings`, `process.on('warning')`), with the warning's code. */
export const defaultWarningHandler: WarningHandler = (warning) => {
  if (DEVELOPMENT_ONLY.has(warning.code) && process.env.NODE_ENV === 'production') return;
  process.emitWarning(warning.message, { code: warning.code });
};

let handler: WarningHandler = defaultWarningHandler;

export function setWarningHandler(next: WarningHandler | undefined): void {
  handler = next ?? defaultWarningHandler;
}

/** Reports a warning; a failing handler never breaks the work that warned. */
export function warn(warning: ToolwrightWarning): void {
  try {
    handler(warning);
  } catch (error) {
    console.error('toolwright: the onWarning handler itself threw:', error);
  }
}
