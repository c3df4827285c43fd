/**
 * Sessions and their events belong to the identity that opened them, over real HTTP with the SDK
 * Client: a subject of any JSON type is compared exactly (101 is not 202, nor "101"), a missing
 * subject matches no present one, and a resumed stream replays only its own session's events,
 * whatever the event store (the in-memory one, or a naive shared one).
 */
import 'reflect-metadata';
import { IncomingMessage, request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/server';
import { LATEST_PROTOCOL_VERSION, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Expects, Tool } from 'toolwright';
import { InMemoryEventStore, serveHttp, type AuthInfo, type EventStore, type McpHttpHandle } from 'toolwright/mcp';
import { rawInitialize, takeSseEvents } from '../../helpers/mcp';

@Tool('mcp', { name: 'ping' })
@Expects({})
class Ping {
  call() {
    return 'pong';
  }
}

/** Tokens and the identities the verifier answers for them: one client, subjects of every kind. */
const IDENTITIES: Record<string, AuthInfo['extra']> = {
  n101: { sub: 101 },
  n202: { sub: 202 },
  s101: { sub: '101' },
  o1: { sub: { id: 1 } },
  o2: { sub: { id: 2 } },
  none: {},
  nullsub: { sub: null },
  issA: { sub: 'ada', iss: 'https://a.example' },
  issB: { sub: 'ada', iss: 'https://b.example' },
};

const auth = {
  verifyAccessToken: (token: string): AuthInfo => {
    const name = token.split('#')[0]; // "n101#2": another token of the same identity
    if (!(name in IDENTITIES)) throw new Error(`test: unknown token ${token}`);
    return { token, clientId: 'desk-app', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600, extra: IDENTITIES[name] };
  },
};

const handles: McpHttpHandle[] = [];
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await Promise.all(handles.map((handle) => handle.close()));
});

async function serve(extra: Parameters<typeof serveHttp>[1] = {}, configure?: (server: Server) => void): Promise<McpHttpHandle> {
  const handle = await serveHttp({ name: 'ids', version: '1', tools: [Ping], ...(configure ? { configure } : {}) }, { port: 0, auth, ...extra });
  handles.push(handle);
  return handle;
}

/** An SDK Client with this token: a new session, or (with sessionId) an existing one, not initialized again. */
async function connect(handle: McpHttpHandle, token: string, sessionId?: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(handle.url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    ...(sessionId ? { sessionId } : {}),
  });
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

describe('a session is bound to the full identity that opened it', () => {
  let handle: McpHttpHandle;
  beforeAll(async () => (handle = await serve()));

  it.each([
    ['n101', 'n202', 'numbers 101 and 202'],
    ['n101', 's101', 'number 101 and string "101"'],
    ['s101', 'n101', 'string "101" and number 101'],
    ['o1', 'o2', 'objects { id: 1 } and { id: 2 }'],
    ['n101', 'none', 'a subject and a missing one'],
    ['none', 'n101', 'a missing subject and a present one'],
    ['none', 'nullsub', 'a missing subject and null'],
    ['issA', 'issB', 'one subject from two issuers'],
  ])('%s’s session refuses %s (%s): using it and deleting it are 404, and its owner keeps it', async (owner, intruder) => {
    const { client, transport } = await connect(handle, owner);
    const sessionId = transport.sessionId!;
    expect(sessionId).toBeDefined();

    const other = await connect(handle, intruder, sessionId);
    await expect(other.client.listTools()).rejects.toThrow(/404|Session not found/);
    await expect(other.transport.terminateSession()).rejects.toMatchObject({ code: 404 });

    // Still there, for its owner and for another token of the same identity.
    expect((await client.callTool({ name: 'ping', arguments: {} })).content).toEqual([{ type: 'text', text: 'pong' }]);
    const same = await connect(handle, `${owner}#2`, sessionId);
    expect((await same.client.listTools()).tools.map((tool) => tool.name)).toEqual(['ping']);
  });
});

/** POSTs (or GETs) with raw HTTP and hands back the response as it arrives. */
function send(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<{ res: IncomingMessage; abort: () => void }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers } });
    req.on('error', reject);
    req.on('response', (res) => resolve({ res, abort: () => req.destroy() }));
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** The SSE events of a response as they arrive; `until` resolves once they satisfy a condition. */
function sse(res: IncomingMessage) {
  const events: Array<{ id?: string; data?: unknown }> = [];
  let wake = () => undefined as void;
  let buffer = '';
  res.on('data', (chunk) => {
    buffer += String(chunk);
    buffer = takeSseEvents(buffer, events);
    wake();
  });
  res.on('error', () => undefined);
  return {
    events,
    async until(done: (all: typeof events) => boolean) {
      while (!done(events)) await new Promise<void>((resolve) => (wake = resolve));
      return events;
    },
  };
}

const noteOf = (event: { data?: unknown }) => (event.data as { params?: { data?: string } } | undefined)?.params?.data;

/** A user with an open session, the SDK server behind it, and the id of the first event their GET stream received. */
async function user(handle: McpHttpHandle, token: string, servers: Server[]) {
  const init = await send(handle.url, 'POST', { authorization: `Bearer ${token}` }, rawInitialize(0));
  const server = servers[servers.length - 1];
  const headers = { authorization: `Bearer ${token}`, 'mcp-session-id': String(init.res.headers['mcp-session-id']), 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
  init.res.resume();
  (await send(handle.url, 'POST', headers, { jsonrpc: '2.0', method: 'notifications/initialized' })).res.resume();
  const note = (data: string) => server.notification({ method: 'notifications/message', params: { level: 'info', data } });
  const stream = await send(handle.url, 'GET', headers);
  await note(`hello ${token}`);
  const [hello] = (await sse(stream.res).until((events) => events.some(noteOf))).filter(noteOf);
  stream.abort(); // the stream is lost: what follows is stored for a resume
  return { headers, helloId: hello.id!, note };
}

/** A shared store written naively: "the events of that event's stream after it", no owner checks. */
class NaiveStore implements EventStore {
  readonly events: Array<{ id: string; streamId: string; message: JSONRPCMessage }> = [];
  async storeEvent(streamId: string, message: JSONRPCMessage) {
    const id = String(this.events.length + 1);
    this.events.push({ id, streamId, message });
    return id;
  }
  async replayEventsAfter(lastEventId: string, { send: deliver }: { send: (id: string, message: JSONRPCMessage) => Promise<void> }) {
    const last = this.events.find((event) => event.id === lastEventId)!;
    for (const event of this.events.slice(this.events.indexOf(last) + 1)) {
      if (event.streamId === last.streamId && Object.keys(event.message).length > 0) await deliver(event.id, event.message);
    }
    return last.streamId;
  }
}

describe.each([
  ['InMemoryEventStore', () => new InMemoryEventStore()],
  ['a naive shared store', () => new NaiveStore()],
])('resuming a GET stream with %s', (_name, makeStore) => {
  it('replays only the requesting session’s events; another session’s event id is refused and shows nothing', async () => {
    const servers: Server[] = [];
    const handle = await serve({ eventStore: makeStore() }, (server) => servers.push(server));
    const ada = await user(handle, 'n101', servers);
    const bob = await user(handle, 'n202', servers);
    await ada.note('for ada 1');
    await bob.note('for bob 1');
    await ada.note('for ada 2');
    await bob.note('for bob 2');

    const resumed = await send(handle.url, 'GET', { ...ada.headers, 'last-event-id': ada.helloId });
    expect(resumed.res.statusCode).toBe(200);
    const events = sse(resumed.res);
    await events.until((all) => all.filter(noteOf).length >= 2);
    // One more of ada's, live: had bob's been replayed, they would come before it.
    await ada.note('for ada 3');
    await events.until((all) => all.some((event) => noteOf(event) === 'for ada 3'));
    resumed.abort();
    expect(events.events.map(noteOf).filter(Boolean)).toEqual(['for ada 1', 'for ada 2', 'for ada 3']);

    // Ada's session, bob's event id: refused before anything is replayed.
    const stolen = await send(handle.url, 'GET', { ...ada.headers, 'last-event-id': bob.helloId });
    const body = await new Promise<string>((resolve) => {
      let text = '';
      stolen.res.on('data', (chunk) => (text += String(chunk))).on('end', () => resolve(text));
    });
    expect(stolen.res.statusCode).toBe(400);
    expect(body).not.toContain('for bob');
  });
});

describe('an identity the host names (serveHttp({ identity })), for code that authenticated the request itself', () => {
  // A proxy in front that authenticated the user and names them in a header (the test's stand-in for your middleware).
  const identity = (req: IncomingMessage) => req.headers['x-user'] as string | undefined;
  let handle: McpHttpHandle;
  beforeAll(async () => {
    handle = await serveHttp({ name: 'ids', version: '1', tools: [Ping] }, { port: 0, identity });
    handles.push(handle);
  });

  /** The header naming `user` ('anonymous': none). */
  const named = (user: string): Record<string, string> => (user === 'anonymous' ? {} : { 'x-user': user });

  /** An SDK Client as `user`. */
  async function as(user: string): Promise<{ client: Client; sessionId: string }> {
    const transport = new StreamableHTTPClientTransport(new URL(handle.url), { requestInit: { headers: named(user) } });
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    clients.push(client);
    return { client, sessionId: transport.sessionId! };
  }

  /** One raw request of `user` to the session `id` (`RESUME`: a GET with Last-Event-ID): its status and body (an event stream is not read). */
  async function attempt(user: string, id: string, method: string): Promise<[number, string]> {
    const headers = { 'mcp-session-id': id, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION, ...named(user) };
    const resume: Record<string, string> = method === 'RESUME' ? { 'last-event-id': `${id}.x/stream_1` } : {};
    const body = method === 'POST' ? { jsonrpc: '2.0', id: 7, method: 'tools/list' } : undefined;
    const { res, abort } = await send(handle.url, method === 'RESUME' ? 'GET' : method, { ...headers, ...resume }, body);
    if (String(res.headers['content-type']).includes('text/event-stream')) {
      abort();
      return [res.statusCode!, '(an event stream)'];
    }
    let text = '';
    for await (const chunk of res) text += String(chunk);
    return [res.statusCode!, text];
  }

  const UNKNOWN = '00000000-0000-4000-8000-000000000000';

  it.each([
    ['alice', 'bob'],
    ['alice', 'anonymous'],
    ['anonymous', 'alice'],
  ])('%s’s session refuses %s: POST, the GET stream, its resume and DELETE answer exactly as for an unknown session; its owner keeps it', async (owner, intruder) => {
    const { client, sessionId } = await as(owner);
    for (const method of ['POST', 'GET', 'RESUME', 'DELETE']) {
      const stolen = await attempt(intruder, sessionId, method);
      expect(stolen[0]).toBe(404);
      expect(stolen).toEqual(await attempt(intruder, UNKNOWN, method));
    }
    expect((await client.callTool({ name: 'ping', arguments: {} })).content).toEqual([{ type: 'text', text: 'pong' }]);
  });

  it('with auth too, a session belongs to both: the same token naming another user is refused', async () => {
    const both = await serve({ identity });
    const owner = new StreamableHTTPClientTransport(new URL(both.url), { requestInit: { headers: { Authorization: 'Bearer n101', 'x-user': 'alice' } } });
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(owner);
    clients.push(client);
    const headers = { authorization: 'Bearer n101', 'mcp-session-id': owner.sessionId!, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
    const list = { jsonrpc: '2.0', id: 7, method: 'tools/list' };
    expect((await send(both.url, 'POST', { ...headers, 'x-user': 'bob' }, list)).res.statusCode).toBe(404);
    expect((await send(both.url, 'POST', headers, list)).res.statusCode).toBe(404);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['ping']);
  });

  it('an identity function that throws or names nobody properly is answered 500 and logged, never taken as anonymous', async () => {
    const broken = [() => 42, () => '', () => Promise.reject(new Error('directory down'))] as unknown as Array<(req: IncomingMessage) => string>;
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      for (const fn of broken) {
        const served = await serveHttp({ name: 'ids', version: '1', tools: [Ping] }, { port: 0, identity: fn });
        handles.push(served);
        const { res } = await send(served.url, 'POST', {}, rawInitialize(0));
        res.resume();
        expect(res.statusCode).toBe(500);
        expect(served.sessions()).toBe(0);
      }
      expect(log.mock.calls.map(([line]) => String(line))).toEqual([
        expect.stringMatching(/identity\(request\) returned 42; return a non-empty string naming the caller, or undefined for an anonymous one/),
        expect.stringMatching(/identity\(request\) returned ''/),
        expect.stringMatching(/identity\(request\) threw: directory down/),
      ]);
    } finally {
      log.mockRestore();
    }
    await expect(serveHttp({ name: 'ids', version: '1', tools: [Ping] }, { port: 0, identity: 'x-user' as never })).rejects.toThrow(
      /serveHttp: 'identity' must be a function \(request\) => string \| undefined/,
    );
  });
});
