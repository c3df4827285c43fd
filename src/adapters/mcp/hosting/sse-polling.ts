/**
 * SSE polling (SEP-1699, MCP 2025-11-25 session mode): the server tells clients how long to wait
 * before reconnecting (the `retry` field of each stream's priming event), so a long call can let go
 * of its stream (`McpRequestContext.closeStream()`) and its client come back with `Last-Event-ID` for
 * the rest, from the event store.
 */
import { describeValue } from '../../../adapter-kit';
import { isPlainObject } from '../../../adapter-kit/internal';
import { DeclarationError } from '../../../index';

/** `serveHttp(options, { ssePolling })`: how clients reconnect to a stream the server closed. */
export interface McpSsePolling {
  /**
   * Milliseconds a client waits before reconnecting to a stream the server closed (the SSE `retry`
   * field, sent in every stream's priming event). A whole number from 1 to less than
   * `sessionIdleTimeoutMs`: a client coming back later would find its session expired.
   */
  retryMs: number;
}

/** The checked `ssePolling` option, or undefined; a DeclarationError naming what is wrong otherwise. */
export function checkSsePolling(
  where: string,
  value: unknown,
  context: { eventStore: boolean; sessionIdleTimeoutMs: number },
): McpSsePolling | undefined {
  if (value === undefined) return undefined;
  const example = 'e.g. { retryMs: 2000 }';
  if (!isPlainObject(value))
    throw new DeclarationError(`${where}: 'ssePolling' must be an object, ${example}; got ${describeValue(value)}.`);
  const unknown = Object.keys(value).filter((key) => key !== 'retryMs');
  if (unknown.length > 0)
    throw new DeclarationError(`${where}: 'ssePolling' has unknown key(s) ${unknown.join(', ')}; it takes retryMs only, ${example}.`);
  const { retryMs } = value;
  const { sessionIdleTimeoutMs } = context;
  if (typeof retryMs !== 'number' || !Number.isSafeInteger(retryMs) || retryMs < 1 || retryMs >= sessionIdleTimeoutMs) {
    throw new DeclarationError(
      `${where}: 'ssePolling.retryMs' must be a whole number of milliseconds from 1 to less than sessionIdleTimeoutMs (${sessionIdleTimeoutMs}), ` +
        `or a reconnecting client finds its session expired; got ${describeValue(retryMs)}.`,
    );
  }
  if (!context.eventStore) {
    throw new DeclarationError(
      `${where}: 'ssePolling' needs an 'eventStore' (session mode): a client reconnecting to a closed stream is sent the rest from it. Add eventStore: new InMemoryEventStore(), or drop ssePolling.`,
    );
  }
  return { retryMs };
}
