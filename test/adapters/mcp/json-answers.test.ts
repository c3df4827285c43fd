/**
 * Over Streamable HTTP, a request whose answer is one event is answered as `application/json`,
 * which clients read for much less than an event stream; a call that reports as it goes (progress,
 * logs) still streams, and so does every stream an event store makes resumable. Driven by real SDK
 * Clients (1.x on 2025-11-25 in session and stateless mode, 2.x pinned to 2026-07-28) whose fetch
 * records the content type of each tools/call answer.
 */
import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Expects, Tool, ToolContext } from 'toolwright';
import { InMemoryEventStore, McpHttpHandle, serveHttp } from 'toolwright/mcp';

@Tool({ description: 'Answers at once' })
@Expects({ text: String })
class Quick {
  call({ text }: { text: string }) {
    return `quick ${text}`;
  }
}

@Tool({ description: 'Reports two steps, then answers' })
@Expects({})
class Reporting {
  async call(_input: unknown, context: ToolContext) {
    await context.progress(1, 2);
    await context.progress(2, 2);
    return 'reported';
  }
}

const MIB_2 = 'y'.repeat(2 * 1024 * 1024);

@Tool({ description: 'Answers 2 MiB' })
@Expects({})
class Huge {
  call() {
    return MIB_2;
  }
}

const TOOLS = [Quick, Reporting, Huge];

/** The content type of every tools/call answer the client received, in order. */
function recordingFetch(types: string[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : undefined;
    if (body?.method === 'tools/call') types.push(response.headers.get('content-type') ?? '');
    return response;
  };
}

type Progress = (update: { progress: number }) => void;
type Caller = {
  callTool(params: { name: string; arguments: Record<string, unknown> }, onprogress?: Progress): Promise<unknown>;
  close(): Promise<void>;
};

async function legacyClient(url: string, types: string[]): Promise<Caller> {
  const client = new LegacyClient({ name: 'json-answers', version: '1.0.0' });
  await client.connect(new LegacyHttpTransport(new URL(url), { fetch: recordingFetch(types) }));
  return { callTool: (params, onprogress) => client.callTool(params, undefined, { onprogress }), close: () => client.close() };
}

async function modernClient(url: string, types: string[]): Promise<Caller> {
  const client = new Client({ name: 'json-answers', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: recordingFetch(types) }));
  return { callTool: (params, onprogress) => client.callTool(params, { onprogress }), close: () => client.close() };
}

function text(result: unknown): string {
  return ((result as { content: Array<{ text?: string }> }).content ?? []).map((part) => part.text ?? '').join('');
}

const CASES: Array<[string, { stateless?: boolean }, typeof legacyClient]> = [
  ['2025-11-25, session mode', {}, legacyClient],
  ['2025-11-25, stateless mode', { stateless: true }, legacyClient],
  ['2026-07-28', {}, modernClient],
];

describe.each(CASES)('%s', (_name, options, connect) => {
  let handle: McpHttpHandle;
  beforeAll(async () => {
    handle = await serveHttp({ name: 'json-answers', version: '1.0.0', tools: TOOLS }, { port: 0, ...options });
  });
  afterAll(() => handle.close());

  it('a call that answers at once is answered as JSON; one that reports streams its progress', async () => {
    const types: string[] = [];
    const client = await connect(handle.url, types);
    try {
      expect(text(await client.callTool({ name: 'quick', arguments: { text: 'a' } }))).toBe('quick a');
      const progress: number[] = [];
      const reported = await client.callTool({ name: 'reporting', arguments: {} }, (update) => progress.push(update.progress));
      expect(text(reported)).toBe('reported');
      expect(progress).toEqual([1, 2]);
      // An invalid call's answer is one event too.
      expect(text(await client.callTool({ name: 'quick', arguments: { text: 7 } }))).toContain('text');
      // And so is a JSON-RPC error.
      await expect(client.callTool({ name: 'nothing_here', arguments: {} })).rejects.toThrow(/nothing_here/);
      expect(types).toEqual(['application/json', 'text/event-stream', 'application/json', 'application/json']);
    } finally {
      await client.close();
    }
  });

  it('a large answer arrives whole as JSON', async () => {
    const types: string[] = [];
    const client = await connect(handle.url, types);
    try {
      expect(text(await client.callTool({ name: 'huge', arguments: {} }))).toBe(MIB_2);
      expect(types).toEqual(['application/json']);
    } finally {
      await client.close();
    }
  });
});

it('a session with an event store always streams, so a lost answer can be resumed', async () => {
  const handle = await serveHttp({ name: 'json-answers', version: '1.0.0', tools: TOOLS }, { port: 0, eventStore: new InMemoryEventStore() });
  const types: string[] = [];
  const client = await legacyClient(handle.url, types);
  try {
    expect(text(await client.callTool({ name: 'quick', arguments: { text: 'b' } }))).toBe('quick b');
    expect(types).toEqual(['text/event-stream']);
  } finally {
    await client.close();
    await handle.close();
  }
});
