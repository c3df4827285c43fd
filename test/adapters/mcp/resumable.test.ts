/**
 * Session mode with an event store: a client that loses a tool call's SSE stream reconnects with
 * Last-Event-ID and receives what it missed, the call's result included; SSE polling (SEP-1699): the
 * server tells clients when to reconnect (`ssePolling.retryMs`) and a call lets go of its stream.
 */
import 'reflect-metadata';
import { IncomingMessage, request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { Tool, ToolContext, Expects } from 'toolwright';
import { InMemoryEventStore, mcpRequest, serveHttp } from 'toolwright/mcp';
import { postModernCall, rawInitialize, takeSseEvents } from '../../helpers/mcp';

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

@Tool({ description: 'Lets go of its stream, then reports and finishes' })
@Expects({})
class LetsGo {
  async call(_input: unknown, context: ToolContext) {
    const closed = mcpRequest()!.closeStream();
    await context.progress(1, 1);
    return closed ? 'let go' : 'held';
  }
}

async function connect(url: string, fetch?: typeof globalThis.fetch): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), fetch ? { fetch } : {});
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

describe('SSE polling (SEP-1699): a call lets go of its stream, the client resumes it', () => {
  it('the priming event carries retry; the SDK client reconnects with Last-Event-ID and gets the progress and the result', async () => {
    const handle = await serveHttp(
      { name: 'polling', version: '1', tools: [LetsGo] },
      { port: 0, eventStore: new InMemoryEventStore(), ssePolling: { retryMs: 20 } },
    );
    const resumes: string[] = [];
    const recording: typeof fetch = (url, init) => {
      const lastEventId = new Headers(init?.headers).get('last-event-id');
      if (init?.method === 'GET' && lastEventId) resumes.push(lastEventId);
      return fetch(url, init);
    };
    const { client } = await connect(handle.url, recording);
    try {
      const progress: number[] = [];
      const result = await client.callTool({ name: 'lets_go', arguments: {} }, undefined, { onprogress: (p) => progress.push(p.progress) });
      expect(result.content).toEqual([{ type: 'text', text: 'let go' }]);
      expect(progress).toEqual([1]); // sent after the stream closed: from the event store
      expect(resumes).toHaveLength(1);

      // The raw stream: its first event primes it (an id, no data) and says when to come back.
      const init = await send(handle.url, 'POST', {}, rawInitialize(0));
      const headers = { 'mcp-session-id': String(init.res.headers['mcp-session-id']), 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
      init.res.resume();
      const call = await send(handle.url, 'POST', headers, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'lets_go', arguments: {} } });
      const events = await readEvents(call.res, () => false); // the server ends the stream mid-call
      expect(events).toEqual([{ id: expect.any(String), retry: 20 }]);
      const resumed = await send(handle.url, 'GET', { ...headers, 'last-event-id': events[0].id! });
      const rest = await readEvents(resumed.res, () => false); // ends after the answer: the call is over
      expect(rest.at(-1)!.data).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'let go' }] } });
    } finally {
      await client.close();
      await handle.close();
    }
  });

  it('where no stream can be resumed, closeStream() does nothing and says so: no event store, stateless, MCP 2026-07-28', async () => {
    for (const http of [{}, { stateless: true }]) {
      const handle = await serveHttp({ name: 'held', version: '1', tools: [LetsGo] }, { port: 0, ...http });
      const { client } = await connect(handle.url);
      try {
        expect((await client.callTool({ name: 'lets_go', arguments: {} })).content).toEqual([{ type: 'text', text: 'held' }]);
        expect((await postModernCall(handle.url, { name: 'lets_go', arguments: {} })).result?.content).toEqual([{ type: 'text', text: 'held' }]);
      } finally {
        await client.close();
        await handle.close();
      }
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

it('checks ssePolling: retryMs a whole number below sessionIdleTimeoutMs, known keys, and an event store', async () => {
  const eventStore = new InMemoryEventStore();
  const serve = (http: object) => serveHttp({ name: 'x', version: '1', tools: [LetsGo] }, { port: 0, ...http });
  const retryMs = (got: string, idle = 900000) =>
    `serveHttp: 'ssePolling.retryMs' must be a whole number of milliseconds from 1 to less than sessionIdleTimeoutMs (${idle}), or a reconnecting client finds its session expired; got ${got}.`;
  await expect(serve({ eventStore, ssePolling: { retryMs: 0 } })).rejects.toThrow(retryMs('0'));
  await expect(serve({ eventStore, ssePolling: { retryMs: 1.5 } })).rejects.toThrow(retryMs('1.5'));
  await expect(serve({ eventStore, ssePolling: { retryMs: '2000' } })).rejects.toThrow(retryMs("'2000'"));
  await expect(serve({ eventStore, ssePolling: {} })).rejects.toThrow(retryMs('undefined'));
  await expect(serve({ eventStore, sessionIdleTimeoutMs: 5000, ssePolling: { retryMs: 5000 } })).rejects.toThrow(retryMs('5000', 5000));
  await expect(serve({ eventStore, ssePolling: 2000 })).rejects.toThrow("serveHttp: 'ssePolling' must be an object, e.g. { retryMs: 2000 }; got 2000.");
  await expect(serve({ eventStore, ssePolling: { retryMs: 2000, closeAfterMs: 1 } })).rejects.toThrow(
    "serveHttp: 'ssePolling' has unknown key(s) closeAfterMs; it takes retryMs only, e.g. { retryMs: 2000 }.",
  );
  for (const http of [{}, { stateless: true }]) {
    await expect(serve({ ...http, ssePolling: { retryMs: 2000 } })).rejects.toThrow(
      "serveHttp: 'ssePolling' needs an 'eventStore' (session mode): a client reconnecting to a closed stream is sent the rest from it. Add eventStore: new InMemoryEventStore(), or drop ssePolling.",
    );
  }
});
