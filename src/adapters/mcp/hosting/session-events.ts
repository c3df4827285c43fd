/**
 * One session's view of the server's event store: its stream ids are scoped by the session (its id
 * and its owner's identity) before they reach the store, and a resume is served only from an event
 * of the session's own streams. Whatever the store, a `Last-Event-ID` of another session replays
 * nothing of it.
 */
import { createHash } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode, type EventStore as SdkEventStore, type JSONRPCMessage } from '@modelcontextprotocol/server';
import type { EventStore } from './event-store';

/** The `<session>` part of a session's stream ids: its id and a digest of who owns it. */
export function sessionScope(sessionId: string, owner: string): string {
  return `${sessionId}.${createHash('sha256').update(owner).digest('base64url').slice(0, 22)}`;
}

function foreign(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidRequest, 'Last-Event-ID names no event of this session.');
}

/** The store as one session's transport sees it. */
export function sessionEventStore(store: EventStore, scope: string): SdkEventStore {
  const prefix = `${scope}/`;
  /** The session's own stream id, or undefined when the stream is another session's (or unknown). */
  const own = (streamId: unknown): string | undefined =>
    typeof streamId === 'string' && streamId.startsWith(prefix) ? streamId.slice(prefix.length) : undefined;
  const scoped: SdkEventStore = {
    storeEvent: (streamId, message) => store.storeEvent(prefix + streamId, message),
    async replayEventsAfter(lastEventId, { send }) {
      if (store.getStreamIdForEventId && own(await store.getStreamIdForEventId(lastEventId)) === undefined) throw foreign();
      // Held until the store says whose stream it replayed: nothing of another session is sent.
      const replayed: Array<[string, JSONRPCMessage]> = [];
      const streamId = own(await store.replayEventsAfter(lastEventId, { send: async (id, message) => void replayed.push([id, message]) }));
      if (streamId === undefined) throw foreign();
      for (const [id, message] of replayed) await send(id, message);
      return streamId;
    },
  };
  // The SDK answers 400 for an event id this says nothing about: another session's is such an id.
  // A store without the lookup is asked by a replay that sends nothing.
  scoped.getStreamIdForEventId = async (eventId) => {
    try {
      if (store.getStreamIdForEventId) return own(await store.getStreamIdForEventId(eventId));
      return own(await store.replayEventsAfter(eventId, { send: async () => undefined }));
    } catch {
      return undefined;
    }
  };
  return scoped;
}
