/**
 * The Redis connections of BullMQ's queues, listeners and workers: reaching them in BullMQ 5 and 6
 * alike, and closing them without waiting for a Redis that is gone.
 *
 * ioredis (5 and 6) strands a client disconnected between two reconnection attempts: the pending
 * attempt is cancelled, but with no stream left to close, the client stays `reconnecting` forever,
 * never emits 'end', and the commands in its offline queue never settle (redis/ioredis#1247; the
 * fix proposed upstream, redis/ioredis#2169, runs the client's close handler there). BullMQ's
 * `Worker.close()` disconnects its blocking connection and waits for that 'end', so a worker closed
 * in that window (after Redis went away, until the next attempt) never closes, and its lock-renewal
 * and stalled-job timers keep the process alive.
 *
 * `endStrandedDisconnects(client)` finishes such a disconnect the way ioredis finishes any other:
 * the close handler rejects the queued commands, sets the status to `end` and emits 'end'. Only the
 * stranded case is touched: where ioredis closes by itself (or once it is fixed), this does nothing.
 * An ioredis instance passed in as the connection gets the same fix.
 */
import type IORedis from 'ioredis';
import { EXPIRED, isConnectionError, within } from './reachability';

/** BullMQ 6's connections of a queue, listener or worker (its backend); BullMQ 5 has none. */
interface Backend {
  client: Promise<IORedis>;
  blockingClient?: Promise<IORedis>;
  close(force: boolean): Promise<void>;
}

function backendOf(bull: object): Backend | undefined {
  const either = bull as { getBackend?: () => Backend };
  return typeof either.getBackend === 'function' ? either.getBackend() : undefined;
}

/**
 * The queue's own Redis client, for toolwright's keys beside BullMQ's: `queue.client` in BullMQ 5,
 * `queue.getBackend().client` in BullMQ 6 (there an ioredis proxy that still takes ioredis's calls).
 */
export function redisClientOf(bull: object): Promise<IORedis> {
  return backendOf(bull)?.client ?? (bull as { client: Promise<IORedis> }).client;
}

type CloseHandler = (client: IORedis) => () => void;

let closeHandler: CloseHandler | null | undefined;

/** ioredis' own close handler (an internal module of ioredis 5 and 6), or null where it is not there. */
function ioredisCloseHandler(): CloseHandler | null {
  if (closeHandler === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const handler = (require('ioredis/built/redis/event_handler') as { closeHandler?: unknown }).closeHandler;
      closeHandler = typeof handler === 'function' ? (handler as CloseHandler) : null;
    } catch {
      closeHandler = null;
    }
  }
  return closeHandler;
}

const patched = new WeakSet<object>();

export function endStrandedDisconnects(client: IORedis): void {
  if (patched.has(client)) return;
  const handler = ioredisCloseHandler();
  if (!handler) return;
  patched.add(client);
  const disconnect = client.disconnect;
  client.disconnect = (reconnect = false) => {
    const stranded = !reconnect && client.status === 'reconnecting';
    disconnect.call(client, reconnect);
    if (stranded && client.status === 'reconnecting') handler(client)();
  };
}

/** `endStrandedDisconnects` on each connection of a BullMQ queue, listener or worker, once it is made. */
export function endStrandedDisconnectsOf(bull: object): void {
  const backend = backendOf(bull);
  const clients = backend ? [backend.client, backend.blockingClient] : [redisClientOf(bull)];
  for (const client of clients) void client?.then(endStrandedDisconnects, () => undefined);
}

/**
 * Closes a BullMQ event listener without waiting for Redis. Its own close first disconnects, which
 * waits for a connection still being made (until Redis answers) and then for the 'end' of the one it
 * disconnects. So its own close only marks it closing here (which ends its read loop), and BullMQ 6
 * closes its backend by force, disconnecting both connections at once (the listener's own close
 * reaches that backend close only after its disconnect); BullMQ 5 gets its client disconnected.
 */
export async function dropListener(events: { close(): Promise<void> }): Promise<void> {
  events.close().catch(() => undefined);
  const backend = backendOf(events);
  if (backend) return backend.close(true);
  (await redisClientOf(events)).disconnect();
}

/**
 * Closes a queue's connection and its event listener, waiting for Redis `timeoutMs` in all. The
 * queue's own close sends QUIT after the commands in flight, and the listener's own close can wait
 * for Redis (for a connection still being made, and for the QUIT of one whose offline queue is on);
 * the queue's close can also succeed just as Redis goes (ioredis answers a QUIT whose socket closes
 * as sent). What has not closed by then is dropped: closing never waits longer for a Redis that does
 * not answer, nor for one to come back.
 */
export async function closeConnections(
  queue: { close(): Promise<void> },
  events: { close(): Promise<void> } | undefined,
  timeoutMs: number,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  const down = await within(
    queue.close().then(
      () => false,
      (error: unknown) => {
        if (!isConnectionError(error)) throw error;
        return true;
      },
    ),
    timeoutMs,
  );
  if (down === false) {
    if (!events || (await within(events.close(), Math.max(1, end - Date.now()))) !== EXPIRED) return;
    return dropListener(events);
  }
  // Redis is down or silent and its QUIT is not answered: drop both connections, or they would reconnect forever.
  await Promise.all([redisClientOf(queue).then((client) => client.disconnect()), events && dropListener(events)]);
}
