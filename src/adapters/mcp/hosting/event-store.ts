import { randomUUID } from 'node:crypto';
import type { EventStore as SdkEventStore, JSONRPCMessage } from '@modelcontextprotocol/server';
import { describeValue } from '../../../adapter-kit';
import { DeclarationError } from '../../../index';

/**
 * Where resumable sessions keep their events: the SDK's `EventStore` (`storeEvent`,
 * `replayEventsAfter`, `getStreamIdForEventId`) and `forgetSession`. `serveHttp` hands every store
 * stream ids of the form `<session>/<stream>`, one `<session>` per session (its id and its owner's
 * identity), so events of two sessions are never in one stream, and it replays only after an event
 * of the requesting session's own streams: a store that replays "the events of the stream after
 * this one" is safe shared between sessions, users and processes.
 */
export interface EventStore extends SdkEventStore {
  /**
   * Drops every event whose stream id starts with `<session>/`: `serveHttp` calls it when the session
   * ends (DELETE, idle expiry, server close). Without it a store keeps them until its own limits.
   */
  forgetSession?(session: string): void | Promise<void>;
}

interface StoredEvent {
  readonly streamId: string;
  readonly message: JSONRPCMessage;
  readonly bytes: number;
}

/** Bytes an event holds, roughly: its message as JSON, its ids, and a little for the entry. */
function sizeOf(eventId: string, streamId: string, message: JSONRPCMessage): number {
  return Buffer.byteLength(JSON.stringify(message)) + eventId.length + streamId.length + 64;
}

function wholeNumber(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new DeclarationError(`InMemoryEventStore: ${name} must be a whole number of at least 1; got ${describeValue(value)}.`);
  }
  return value;
}

/**
 * An event store for resumable sessions (`serveHttp(options, { eventStore })`) in this process's
 * memory, for development and single-process servers: a client that lost its SSE stream reconnects
 * with `Last-Event-ID` and gets what it missed. Bounded in bytes (`maxBytes`, default 32 MiB) and in
 * events (`maxEvents`, default 10,000): past either, the oldest events are dropped; an event larger
 * than `maxBytes` by itself is not kept. A session's events are dropped when it ends. A server of
 * several processes needs a shared store implementing `EventStore`.
 */
export class InMemoryEventStore implements EventStore {
  private readonly events = new Map<string, StoredEvent>();
  private readonly maxEvents: number;
  private readonly maxBytes: number;
  private held = 0;

  constructor(options: { maxEvents?: number; maxBytes?: number } = {}) {
    const { maxEvents = 10_000, maxBytes = 32 * 1024 * 1024 } = options ?? {};
    this.maxEvents = wholeNumber(maxEvents, 'maxEvents');
    this.maxBytes = wholeNumber(maxBytes, 'maxBytes');
  }

  /** Events held now. */
  get size(): number {
    return this.events.size;
  }

  /** Bytes the held events take, as counted against `maxBytes`. */
  get bytes(): number {
    return this.held;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    // Random: an event id cannot be guessed, and says nothing about its stream or session.
    const eventId = randomUUID();
    const bytes = sizeOf(eventId, streamId, message);
    if (bytes > this.maxBytes) return eventId; // sent live, never kept: a resume after it is refused
    this.events.set(eventId, { streamId, message, bytes });
    this.held += bytes;
    while (this.events.size > this.maxEvents || this.held > this.maxBytes) this.drop(this.events.keys().next().value!);
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
    // Collected first: `send` may take its time, and events stored meanwhile are sent live.
    const after: Array<[string, JSONRPCMessage]> = [];
    let found = false;
    for (const [eventId, event] of this.events) {
      if (eventId === lastEventId) found = true;
      // The priming event of a stream carries no message (an empty object): nothing to replay.
      else if (found && event.streamId === last.streamId && Object.keys(event.message).length > 0) after.push([eventId, event.message]);
    }
    for (const [eventId, message] of after) await send(eventId, message);
    return last.streamId;
  }

  forgetSession(session: string): void {
    const prefix = `${session}/`;
    for (const [eventId, event] of this.events) if (event.streamId.startsWith(prefix)) this.drop(eventId);
  }

  private drop(eventId: string): void {
    const event = this.events.get(eventId);
    if (!event) return;
    this.events.delete(eventId);
    this.held -= event.bytes;
  }
}
