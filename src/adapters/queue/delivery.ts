import type IORedis from 'ioredis';
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

/**
 * The queue's own Redis client, for toolwright's keys beside BullMQ's: `queue.client` in BullMQ 5,
 * `queue.getBackend().client` in BullMQ 6 (there an ioredis proxy that still takes ioredis's calls).
 */
export function redisClientOf(queue: object): Promise<IORedis> {
  const either = queue as unknown as { client?: Promise<unknown>; getBackend?: () => { client: Promise<unknown> } };
  return (typeof either.getBackend === 'function' ? either.getBackend().client : either.client) as Promise<IORedis>;
}
