/**
 * Nest's HttpException inside toolwright: what it carries (its message and status) is meant for the
 * client, as Nest's exception layer sends it for a controller, whether a guard, an interceptor or
 * the member itself throws it. So the model reads its message as a failure (./enhancers.ts), the
 * HTTP API answers its status, and it is no exception outcome to report. Any other exception is
 * reported through Nest's Logger (unless `onException` is set), never past it to stderr.
 */
import { HttpException, Logger } from '@nestjs/common';
import { describeValue } from '../../adapter-kit';
import { configuredExceptionHandler } from '../../adapter-kit/internal';
import type { ExceptionHandler } from '../../index';

/** The message an HttpException's response carries (Nest's `message`, a list joined), or undefined for any other error. */
export function clientMessage(error: unknown): string | undefined {
  if (!(error instanceof HttpException)) return undefined;
  const response = error.getResponse();
  const message = typeof response === 'object' && response !== null ? (response as { message?: unknown }).message : response;
  return Array.isArray(message) ? message.join('; ') : typeof message === 'string' && message !== '' ? message : error.message;
}

/** An HttpException's status, for the HTTP API's answer; undefined for any other error. */
export function clientStatus(error: unknown): number | undefined {
  return error instanceof HttpException ? error.getStatus() : undefined;
}

const logger = new Logger('Toolwright');

/**
 * The module's exception handler: an HttpException is not reported (it is the client's answer);
 * anything else goes to `own` (the invoker's `onException`), else to `configure({ onException })`,
 * else to Nest's Logger (silent under `logger: false`, in the application's own format otherwise).
 */
export function nestExceptionHandler(own: ExceptionHandler | undefined): ExceptionHandler {
  return (error, context) => {
    if (error instanceof HttpException) return;
    const handler = own ?? configuredExceptionHandler();
    if (handler) return handler(error, context);
    const { tool } = context;
    logger.error(`${tool.toolName()} (${tool.id}) raised an exception`, error instanceof Error ? error.stack : describeValue(error));
  };
}
