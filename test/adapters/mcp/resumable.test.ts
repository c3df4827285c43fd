/**
 * Session mode with an event store: a client that loses a tool call's SSE stream reconnects with
 * Last-Event-ID and receives what it missed, the call's result included.
 */
import 'reflect-metadata';
import { IncomingMessage, request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { Tool, ToolContext, Expects } from 'toolwright';
import { InMemoryEventStore, serveHttp } from 'toolwright/mcp';
import { rawInitialize, takeSseEvents } from '../../helpers/mcp';

let release: () => void;
const released = new Promise<void>((resolve) => (release = resolve));

@Tool({ description: 'Reports a step, waits, then finishes' })
@Expects({})
class SlowJob {
  async call(_input: unknown, context: ToolContext) {
    await context.progress(1, 2);
    await released;
    return 'finished';
  }
}

const KIB_240 = 'x'.repeat(240 * 1024);

@Tool({ description: 'Answers 240 KiB' })
@Expects({})
class BigAnswer {
  call() {
    return KIB_240;
  }
}

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(transport);
  return { client, transport };
}

/** POSTs (or GETs) and hands back the response as it arrives. */
function send(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<{ res: IncomingMessage; abort: () => void }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers } });
    req.on('error', () => undefined);
    req.on('response', (res) => resolve({ res, abort: () => req.destroy() }));
    setTimeout(() => reject(new Error('no response')), 5_000).unref();
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** SSE events (id and data) of a response, read until `until` says stop. */
async function readEvents(res: IncomingMessage, until: (events: Array<{ id?: string; data?: unknown }>) => boolean) {
  const events: Array<{ id?: string; data?: unknown }> = [];
  let buffer = '';
  for await (const chunk of res) {
    buffer += String(chunk);
    buffer = takeSseEvents(buffer, events);
    if (until(events)) break;
  }
  return events;
}

it('replays a lost stream after Last-Event-ID, the result included', async () => {
  const store = new InMemoryEventStore();
  const handle = await serveHttp({ name: 'resumable', version: '1', tools: [SlowJob] }, { port: 0, eventStore: store });
  try {
    const init = await send(handle.url, 'POST', {}, rawInitialize(0));
    const sessionId = String(init.res.headers['mcp-session-id']);
    init.res.resume();
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
    (await send(handle.url, 'POST', headers, { jsonrpc: '2.0', method: 'notifications/initialized' })).res.resume();

    const call = await send(handle.url, 'POST', headers, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'slow_job', arguments: {}, _meta: { progressToken: 'p' } },
    });
    const first = await readEvents(call.res, (events) => events.some((event) => (event.data as { method?: string })?.method === 'notifications/progress'));
    const progress = first.find((event) => (event.data as { method?: string })?.method === 'notifications/progress')!;
    expect(progress.id).toBeDefined();
    call.abort(); // the stream is lost
    release();

    const resumed = await send(handle.url, 'GET', { ...headers, 'last-event-id': progress.id! });
    expect(resumed.res.statusCode).toBe(200);
    const replay = await readEvents(resumed.res, (events) => events.some((event) => (event.data as { id?: number })?.id === 1));
    resumed.abort();
    const result = replay.find((event) => (event.data as { id?: number })?.id === 1)!.data as { result: { content: unknown } };
    expect(result.result.content).toEqual([{ type: 'text', text: 'finished' }]);
  } finally {
    await handle.close();
  }
});

it('the in-memory store is bounded, and an unknown or dropped event id is refused', async () => {
  const store = new InMemoryEventStore({ maxEvents: 2 });
  const first = await store.storeEvent('s', { jsonrpc: '2.0', method: 'a' });
  await store.storeEvent('s', { jsonrpc: '2.0', method: 'b' });
  await store.storeEvent('s', { jsonrpc: '2.0', method: 'c' });
  expect(store.size).toBe(2);
  await expect(store.replayEventsAfter(first, { send: async () => undefined })).rejects.toThrow('Unknown event id (expired or never stored)');
  expect(() => new InMemoryEventStore({ maxEvents: 0 })).toThrow('InMemoryEventStore: maxEvents must be a whole number of at least 1; got 0.');
});

describe('the in-memory store is bounded in bytes and forgets ended sessions', () => {
  it('keeps at most maxBytes of events, oldest dropped first, while answers of 240 KiB keep coming', async () => {
    const store = new InMemoryEventStore({ maxBytes: 1024 * 1024 });
    const handle = await serveHttp({ name: 'big', version: '1', tools: [BigAnswer] }, { port: 0, eventStore: store });
    const { client } = await connect(handle.url);
    try {
      for (let i = 0; i < 12; i++) {
        const result = await client.callTool({ name: 'big_answer', arguments: {} });
        expect((result.content as Array<{ text: string }>)[0].text).toHaveLength(KIB_240.length);
        expect(store.bytes).toBeLessThanOrEqual(1024 * 1024);
      }
      // 12 answers of 240 KiB were stored (2.9 MiB); four fit, the oldest went first.
      expect(store.bytes).toBeGreaterThan(3 * 240 * 1024);
      expect(store.size).toBeLessThan(12);
    } finally {
      await client.close();
      await handle.close();
    }
  });

  it('keeps no event larger than maxBytes by itself, and refuses a resume from it cleanly', async () => {
    const store = new InMemoryEventStore({ maxBytes: 1000 });
    const small = await store.storeEvent('s/a', { jsonrpc: '2.0', method: 'small' });
    const big = await store.storeEvent('s/a', { jsonrpc: '2.0', method: 'big', params: { text: 'x'.repeat(2000) } });
    expect(store.size).toBe(1);
    expect(await store.getStreamIdForEventId(small)).toBe('s/a');
    await expect(store.replayEventsAfter(big, { send: async () => undefined })).rejects.toThrow('Unknown event id (expired or never stored)');
    expect(() => new InMemoryEventStore({ maxBytes: 0.5 })).toThrow('InMemoryEventStore: maxBytes must be a whole number of at least 1; got 0.5.');
  });

  it('drops a session’s events when it ends: DELETE and server close; a resume after DELETE is refused', async () => {
    const store = new InMemoryEventStore();
    const handle = await serveHttp({ name: 'big', version: '1', tools: [BigAnswer] }, { port: 0, eventStore: store });
    try {
      // DELETE: the ending session's events go, the other session's stay.
      const kept = await connect(handle.url);
      await kept.client.callTool({ name: 'big_answer', arguments: {} });
      const keptBytes = store.bytes;
      const ended = await connect(handle.url);
      await ended.client.callTool({ name: 'big_answer', arguments: {} });
      await ended.client.callTool({ name: 'big_answer', arguments: {} });
      expect(store.bytes).toBeGreaterThan(keptBytes + 2 * 240 * 1024);
      const sessionId = ended.transport.sessionId!;
      await ended.transport.terminateSession();
      expect(store.bytes).toBe(keptBytes);

      const resumed = await send(handle.url, 'GET', { 'mcp-session-id': sessionId, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION, 'last-event-id': 'any' });
      expect(resumed.res.statusCode).toBe(404);
      resumed.res.resume();
      await ended.client.close();

      // Server close: every session ends, and its events with it.
      await handle.close();
      expect(store.size).toBe(0);
      expect(store.bytes).toBe(0);
      await kept.client.close();
    } finally {
      await handle.close();
    }
  });

  it('drops a session’s events when it expires idle', async () => {
    const store = new InMemoryEventStore();
    const handle = await serveHttp({ name: 'big', version: '1', tools: [BigAnswer] }, { port: 0, eventStore: store, sessionIdleTimeoutMs: 50 });
    try {
      const quiet = await connect(handle.url);
      await quiet.client.callTool({ name: 'big_answer', arguments: {} });
      expect(store.bytes).toBeGreaterThan(240 * 1024);
      await quiet.client.close(); // no DELETE: the session ends by idle expiry
      while (handle.sessions() > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(store.size).toBe(0);
    } finally {
      await handle.close();
    }
  });
});

it('checks the option: an event store needs sessions', async () => {
  await expect(serveHttp({ name: 'x', version: '1', tools: [SlowJob] }, { port: 0, stateless: true, eventStore: new InMemoryEventStore() })).rejects.toThrow(
    "serveHttp: 'eventStore' needs sessions; a stateless server has no stream to resume. Drop one of the two.",
  );
  await expect(serveHttp({ name: 'x', version: '1', tools: [SlowJob] }, { port: 0, eventStore: {} as never })).rejects.toThrow(
    "serveHttp: 'eventStore' must implement storeEvent and replayEventsAfter (e.g. new InMemoryEventStore()); got {}.",
  );
});
