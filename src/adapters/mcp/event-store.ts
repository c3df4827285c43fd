import { randomUUID } from 'node:crypto';
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describeValue } from '../../adapter-kit';
import { DeclarationError } from '../../index';

export type { EventStore };

/**
 * An event store for resumable sessions (`serveHttp(options, { eventStore })`) in this process's
 * memory, for development and single-process servers: a client that lost its SSE stream reconnects
 * with `Last-Event-ID` and gets what it missed. Bounded: past `maxEvents` the oldest are dropped. A
 * server of several processes needs a shared store implementing the SDK's `EventStore` interface
 * (`storeEvent`, `replayEventsAfter`, `getStreamIdForEventId`).
 */
export class InMemoryEventStore implements EventStore {
  private readonly events = new Map<string, { streamId: string; message: JSONRPCMessage }>();
  private readonly maxEvents: number;

  constructor(options: { maxEvents?: number } = {}) {
    const { maxEvents = 10_000 } = options ?? {};
    if (!Number.isInteger(maxEvents) || maxEvents < 1) {
      throw new DeclarationError(`InMemoryEventStore: maxEvents must be a whole number of at least 1; got ${describeValue(maxEvents)}.`);
    }
    this.maxEvents = maxEvents;
  }

  /** Events held now. */
  get size(): number {
    return this.events.size;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    // The stream id and a random part: an event id names its stream and cannot be guessed.
    const eventId = `${streamId}_${randomUUID()}`;
    this.events.set(eventId, { streamId, message });
    if (this.events.size > this.maxEvents) this.events.delete(this.events.keys().next().value!);
    return eventId;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.events.get(lastEventId);
    if (!last) throw new Error(`Unknown event id (expired or never stored): ${lastEventId.slice(0, 80)}`);
    let after = false;
    for (const [eventId, event] of this.events) {
      if (eventId === lastEventId) after = true;
      // The priming event of a stream carries no message (an empty object): nothing to replay.
      else if (after && event.streamId === last.streamId && Object.keys(event.message).length > 0) await send(eventId, event.message);
    }
    return last.streamId;
  }
}
