import type { ToolDefinition } from '../../index';

/** May this tool run more than once for one call? Only when it says so: `idempotent` or `readOnly`. */
export function isRetryable(tool: ToolDefinition): boolean {
  return tool.hints.includes('idempotent') || tool.hints.includes('readOnly');
}

/** The attempts a retryable tool gets when the caller does not say. */
export const DEFAULT_ATTEMPTS = 3;
/** The first retry's delay; each next one doubles it. */
export const DEFAULT_BACKOFF_MS = 1000;

/** The Redis key prefix BullMQ uses unless told otherwise; toolwright's own keys live beside it. */
export const DEFAULT_PREFIX = 'bull';
export const DEFAULT_QUEUE_NAME = 'toolwright';

export function cancelChannel(prefix: string, name: string): string {
  return `${prefix}:${name}:toolwright:cancel`;
}

export function cancelledKey(prefix: string, name: string, jobId: string): string {
  return `${prefix}:${name}:toolwright:cancelled:${jobId}`;
}

/** How long a cancellation mark outlives the job (a day). */
export const CANCEL_MARK_SECONDS = 86_400;
