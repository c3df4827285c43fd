import { ToolwrightError } from './toolwright-error';

/** A tool's class (or one of its dependencies) could not be resolved through DI. */
export class ToolResolutionError extends ToolwrightError {
  override readonly code = 'TOOL_RESOLUTION';
  constructor(
    message: string,
    /** The dependency that failed, as tsyringe named it. */
    readonly dependency: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
