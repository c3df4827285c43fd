/**
 * Resources, resource templates, prompts and completions served by toolwright/mcp, on both
 * revisions over real transports: the 1.x Client (2025-11-25) over an HTTP session, the 2.x Client
 * pinned to 2026-07-28 over the same endpoint. Lists, reads (text, bytes, JSON, templates with
 * coerced variables and an injected service), prompts (validated and coerced arguments),
 * completions (the 100-value cap), scopes hiding members exactly as unknown ones, subscriptions and
 * updates, list changes, a timeout, and bad input.
 */
import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { injectable } from 'tsyringe';
import { Complete, CompletionRequest, Content, Description, Expects, Integer, Prompt, Resource, ResourceTemplate } from 'toolwright';
import type { ToolContext } from 'toolwright';
import { McpHttpHandle, serveHttp } from 'toolwright/mcp';
import { scopedTokens } from '../../helpers/mcp';

@injectable()
class Shelf {
  readonly titles = new Map([
    [42, 'Dune'],
    [7, 'Emma'],
  ]);
}

@Resource('books://policy', {
  name: 'policy',
  title: 'Lending policy',
  mimeType: 'text/markdown',
  size: 14,
  annotations: { audience: ['user'], priority: 0.5 },
  adapters: { mcp: { icons: [{ src: 'https://example.com/policy.png', mimeType: 'image/png' }] } },
})
@Description('How lending works')
class Policy {
  call(): string {
    return '# Lend freely';
  }
}

@Resource('books://cover', { name: 'cover', mimeType: 'image/png' })
class Cover {
  call(): Uint8Array {
    return new Uint8Array([137, 80, 78, 71]);
  }
}

@Resource('books://stats', { name: 'stats' })
class Stats {
  call() {
    return { books: 2, open: true };
  }
}

@Resource('books://embedded', { name: 'embedded' })
class Embedded {
  call() {
    return Content.resource({ uri: 'books://embedded', mimeType: 'text/csv', text: 'id,title\n42,Dune' });
  }
}

@Resource('books://secret', { name: 'secret', adapters: { mcp: { scopes: ['librarian'] } } })
class Secret {
  call(): string {
    return 'the vault code';
  }
}

@Resource('books://slow', { name: 'slow', timeoutMs: 50 })
@Expects({})
class Slow {
  call(_input: unknown, context: { signal: AbortSignal }): Promise<string> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve('late'), 5_000);
      context.signal.addEventListener('abort', () => clearTimeout(timer));
    });
  }
}

@ResourceTemplate('books://titles/{id}', { name: 'title', mimeType: 'application/json' })
@Expects({ id: Integer })
@injectable()
class BookTitle {
  constructor(private readonly shelf: Shelf) {}
  call({ id }: { id: number }) {
    return { id, title: this.shelf.titles.get(id) ?? null, typeOfId: typeof id };
  }
}

@ResourceTemplate('books://vault/{code}', { name: 'vault', adapters: { mcp: { scopes: ['librarian'] } } })
class Vault {
  call({ code }: { code: string }): string {
    return `vault ${code}`;
  }
}

@Prompt({ name: 'review', title: 'Review a book', description: 'Asks for a review' })
@Expects({ book: { type: String, description: 'The title' }, stars: { type: Integer, optional: true } })
class Review {
  call({ book, stars }: { book: string; stars?: number }) {
    return [Content.user(`Review ${book}`), Content.assistant(`Stars: ${stars ?? 'none'} (${typeof stars})`)];
  }
}

@Prompt({ name: 'greet' })
class Greet {
  call(): string {
    return 'Hello';
  }
}

@Prompt({ name: 'interview' })
@Expects({})
class Interview {
  async call(_input: unknown, context: ToolContext): Promise<string> {
    const answer = await context.elicit('Which book?', { type: 'object', properties: { book: { type: 'string' } }, required: ['book'] });
    return `Interview about ${String(answer.content?.book)}`;
  }
}

@Prompt({ name: 'hidden_prompt', adapters: { mcp: { scopes: ['librarian'] } } })
class HiddenPrompt {
  call(): string {
    return 'secret prompt';
  }
}

@Complete(Review, 'book')
class ReviewBooks {
  call({ value }: CompletionRequest): string[] {
    // 150 candidates: more than one answer may carry.
    return Array.from({ length: 150 }, (_, i) => `${value}${i}`);
  }
}

@Complete(BookTitle, 'id')
class TitleIds {
  call({ value }: CompletionRequest) {
    return { values: ['42', '7'].filter((id) => id.startsWith(value)), total: 2, hasMore: false };
  }
}

const auth = scopedTokens({ reader: [], librarian: ['librarian'] });

let handle: McpHttpHandle;
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  handle = await serveHttp(
    {
      name: 'members',
      version: '1.0.0',
      tools: [],
      resources: [Policy, Cover, Stats, Embedded, Secret, Slow, BookTitle, Vault],
      prompts: [Review, Greet, HiddenPrompt, Interview],
      completions: [ReviewBooks, TitleIds],
    },
    { port: 0, auth },
  );
});
afterAll(async () => {
  await Promise.all(open.map((client) => client.close().catch(() => undefined)));
  await handle.close();
});

const init = (token: string) => ({ requestInit: { headers: { Authorization: `Bearer ${token}` } } });

async function modern(token = 'reader'): Promise<Client> {
  const client = new Client({ name: 'members-modern', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url), init(token)));
  open.push(client);
  return client;
}

async function legacy(token = 'reader'): Promise<LegacyClient> {
  const client = new LegacyClient({ name: 'members-legacy', version: '1.0.0' });
  await client.connect(new LegacyHttpTransport(new URL(handle.url), init(token)));
  open.push(client);
  return client;
}

/** Both clients' answers, without the server identity 2026-07-28 adds to `_meta`. */
function plain<T>(value: T): T {
  const { _meta, ...rest } = value as T & { _meta?: unknown };
  return rest as T;
}

/** The JSON-RPC error a request was refused with. */
async function refusal(request: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await request;
  } catch (error) {
    const { code, message, data } = error as { code: number; message: string; data?: unknown };
    return { code, message, data };
  }
  throw new Error('expected the request to be refused');
}

const clients = async (token = 'reader') => ({ legacy: await legacy(token), modern: await modern(token) });

describe('resources over both revisions', () => {
  it('declares the capabilities and lists fixed resources and templates with their metadata, the same on both', async () => {
    const { legacy: old, modern: now } = await clients();
    expect(old.getServerCapabilities()).toMatchObject({
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    });
    const listed = plain(await old.listResources());
    // 2026-07-28 adds the cache fields: private, since some members declare scopes.
    expect(plain(await now.listResources())).toEqual({ ...listed, ttlMs: 60_000, cacheScope: 'private' });
    expect(listed.resources.map((resource) => resource.uri)).toEqual([
      'books://policy',
      'books://cover',
      'books://stats',
      'books://embedded',
      'books://slow',
    ]);
    expect(listed.resources[0]).toEqual({
      uri: 'books://policy',
      name: 'policy',
      title: 'Lending policy',
      description: 'How lending works',
      mimeType: 'text/markdown',
      size: 14,
      annotations: { audience: ['user'], priority: 0.5 },
      icons: [{ src: 'https://example.com/policy.png', mimeType: 'image/png' }],
    });
    const templates = plain(await old.listResourceTemplates());
    expect(plain(await now.listResourceTemplates())).toEqual({ ...templates, ttlMs: 60_000, cacheScope: 'private' });
    expect(templates.resourceTemplates).toEqual([{ uriTemplate: 'books://titles/{id}', name: 'title', mimeType: 'application/json' }]);
  });

  it('reads text, bytes, JSON and Content.resource parts, the same on both', async () => {
    const { legacy: old, modern: now } = await clients();
    const expected: Record<string, object> = {
      'books://policy': { uri: 'books://policy', mimeType: 'text/markdown', text: '# Lend freely' },
      'books://cover': { uri: 'books://cover', mimeType: 'image/png', blob: Buffer.from([137, 80, 78, 71]).toString('base64') },
      'books://stats': { uri: 'books://stats', mimeType: 'application/json', text: JSON.stringify({ books: 2, open: true }) },
      'books://embedded': { uri: 'books://embedded', mimeType: 'text/csv', text: 'id,title\n42,Dune' },
    };
    for (const [uri, contents] of Object.entries(expected)) {
      expect(plain(await old.readResource({ uri })).contents).toEqual([contents]);
      expect(plain(await now.readResource({ uri })).contents).toEqual([contents]);
    }
  });

  it('reads through a template: variables matched by the SDK, coerced by the contract, the class built with its injected service', async () => {
    const { legacy: old, modern: now } = await clients();
    for (const client of [old, now]) {
      const read = await client.readResource({ uri: 'books://titles/42' });
      expect(read.contents).toEqual([
        { uri: 'books://titles/42', mimeType: 'application/json', text: JSON.stringify({ id: 42, title: 'Dune', typeOfId: 'number' }) },
      ]);
    }
  });

  it('refuses bad variables with -32602 naming the field', async () => {
    const { legacy: old, modern: now } = await clients();
    for (const client of [old, now]) {
      const refused = await refusal(client.readResource({ uri: 'books://titles/forty-two' }));
      expect(refused.code).toBe(-32602);
      expect(refused.message).toMatch(/Invalid URI variables for title: id: /);
      expect(refused.data).toEqual({ fieldErrors: [expect.objectContaining({ field: 'id' })] });
    }
  });

  it('answers an unknown URI, a hidden one and an almost-matching template URI alike: -32602 with the URI as data (the SDK 2.x on every revision)', async () => {
    const { legacy: old, modern: now } = await clients();
    for (const uri of ['books://nothing', 'books://secret', 'books://vault/1', 'books://titles/42/extra', 'books://titles/']) {
      for (const client of [old, now]) {
        expect(await refusal(client.readResource({ uri }))).toEqual({
          code: -32602,
          message: expect.stringContaining(`Resource not found: ${uri}`),
          data: { uri },
        });
      }
    }
    // With the scope, the hidden ones are listed and read.
    const librarian = await legacy('librarian');
    expect((await librarian.listResources()).resources.map((resource) => resource.uri)).toContain('books://secret');
    expect((await librarian.readResource({ uri: 'books://secret' })).contents[0]).toMatchObject({ text: 'the vault code' });
    expect((await librarian.readResource({ uri: 'books://vault/1' })).contents[0]).toMatchObject({ text: 'vault 1' });
  });

  it('refuses a URI longer than 8192 characters with -32602 saying so, on both', async () => {
    const { legacy: old, modern: now } = await clients();
    const uri = `books://titles/${'9'.repeat(10_000)}`;
    for (const client of [old, now]) {
      const refused = await refusal(client.readResource({ uri }));
      expect(refused.code).toBe(-32602);
      expect(refused.message).toMatch(/the URI is 10015 characters long; this server reads URIs of up to 8192/);
    }
  });

  it('a resource slower than its timeoutMs answers at once with the timeout, as an internal error', async () => {
    const { legacy: old, modern: now } = await clients();
    for (const client of [old, now]) {
      const refused = await refusal(client.readResource({ uri: 'books://slow' }));
      expect(refused.code).toBe(-32603);
      expect(refused.message).toMatch(/longer than 50 ms/);
    }
  });
});

describe('prompts over both revisions', () => {
  it('lists prompts with arguments from the input contract, hiding scoped ones', async () => {
    const { legacy: old, modern: now } = await clients();
    const listed = plain(await old.listPrompts());
    expect(plain(await now.listPrompts())).toEqual({ ...listed, ttlMs: 60_000, cacheScope: 'private' });
    expect(listed.prompts).toEqual([
      {
        name: 'review',
        title: 'Review a book',
        description: 'Asks for a review',
        arguments: [
          { name: 'book', description: 'The title', required: true },
          { name: 'stars', required: false },
        ],
      },
      { name: 'greet' },
      { name: 'interview' },
    ]);
    expect((await (await legacy('librarian')).listPrompts()).prompts.map((prompt) => prompt.name)).toContain('hidden_prompt');
  });

  it('gets a prompt with its arguments coerced ("4" → 4), and a string prompt as one user message', async () => {
    const { legacy: old, modern: now } = await clients();
    for (const client of [old, now]) {
      expect(plain(await client.getPrompt({ name: 'review', arguments: { book: 'Dune', stars: '4' } }))).toEqual({
        messages: [
          { role: 'user', content: { type: 'text', text: 'Review Dune' } },
          { role: 'assistant', content: { type: 'text', text: 'Stars: 4 (number)' } },
        ],
      });
      expect(plain(await client.getPrompt({ name: 'greet' }))).toEqual({ messages: [{ role: 'user', content: { type: 'text', text: 'Hello' } }] });
    }
  });

  it('refuses invalid, missing and non-string arguments with -32602 naming the field, and unknown or hidden prompts alike', async () => {
    const { legacy: old, modern: now } = await clients();
    for (const client of [old, now]) {
      const invalid = await refusal(client.getPrompt({ name: 'review', arguments: { book: 'Dune', stars: 'many' } }));
      expect(invalid).toMatchObject({ code: -32602, message: expect.stringMatching(/Invalid arguments for review: stars: /) });
      const missing = await refusal(client.getPrompt({ name: 'review', arguments: {} }));
      expect(missing).toMatchObject({ code: -32602, message: expect.stringMatching(/review: book: /) });
      const unknown = await refusal(client.getPrompt({ name: 'nope' }));
      const hidden = await refusal(client.getPrompt({ name: 'hidden_prompt' }));
      expect(unknown).toEqual({ code: -32602, message: expect.stringContaining('Unknown prompt: nope'), data: undefined });
      expect(hidden.message.replace('hidden_prompt', 'nope')).toBe(unknown.message);
      expect(hidden.code).toBe(-32602);
    }
  });

  it('refuses a non-string argument over the wire with a one-line -32602 naming it', async () => {
    const response = await fetch(handle.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'prompts/get',
        'mcp-name': 'review',
        authorization: 'Bearer reader',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'prompts/get',
        params: {
          name: 'review',
          arguments: { book: 'Dune', stars: 4 },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    const body = (await response.json()) as { error?: { code: number; message: string } };
    expect(body.error?.code).toBe(-32602);
    expect(body.error?.message).toBe("Invalid prompts/get request: argument 'stars' must be a string (MCP prompt arguments are strings); got number.");
  });
});

describe('completions over both revisions', () => {
  it('completes a prompt argument, capped at 100 values with the total and hasMore', async () => {
    const { legacy: old, modern: now } = await clients();
    for (const client of [old, now]) {
      const { completion } = await client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'book', value: 'b' } });
      expect(completion.values).toHaveLength(100);
      expect(completion.values[0]).toBe('b0');
      expect(completion.total).toBe(150);
      expect(completion.hasMore).toBe(true);
    }
  });

  it('completes a template variable; an argument without a completion gets an empty list; unknown refs and arguments are -32602', async () => {
    const { legacy: old, modern: now } = await clients();
    for (const client of [old, now]) {
      expect(
        (await client.complete({ ref: { type: 'ref/resource', uri: 'books://titles/{id}' }, argument: { name: 'id', value: '4' } })).completion,
      ).toEqual({ values: ['42'], total: 2, hasMore: false });
      expect(
        (await client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'stars', value: '' } })).completion,
      ).toEqual({ values: [], total: 0, hasMore: false });
      const unknownArgument = await refusal(client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'nope', value: '' } }));
      expect(unknownArgument).toMatchObject({ code: -32602, message: expect.stringContaining("Prompt review has no argument 'nope'; its arguments: book, stars.") });
      const unknownPrompt = await refusal(client.complete({ ref: { type: 'ref/prompt', name: 'hidden_prompt' }, argument: { name: 'x', value: '' } }));
      expect(unknownPrompt).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown prompt: hidden_prompt') });
      const unknownTemplate = await refusal(
        client.complete({ ref: { type: 'ref/resource', uri: 'books://vault/{code}' }, argument: { name: 'code', value: '' } }),
      );
      expect(unknownTemplate).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown resource template: books://vault/{code}') });
    }
  });
});

describe('subscriptions and list changes', () => {
  it('a 2025-11-25 session subscribed to a URI is told of its update; unsubscribed, it is not; hidden URIs cannot be subscribed to', async () => {
    const old = await legacy();
    const updates: string[] = [];
    let signal: () => void = () => undefined;
    old.setNotificationHandler(
      (await import('@modelcontextprotocol/sdk/types.js')).ResourceUpdatedNotificationSchema,
      (notification) => void (updates.push(notification.params.uri), signal()),
    );
    expect(await refusal(old.subscribeResource({ uri: 'books://secret' }))).toMatchObject({ code: -32602, data: { uri: 'books://secret' } });
    await old.subscribeResource({ uri: 'books://policy' });
    await old.subscribeResource({ uri: 'books://titles/42' });
    let arrived = new Promise<void>((resolve) => (signal = resolve));
    handle.resources.updated('books://stats'); // not subscribed: nothing
    handle.resources.updated('books://titles/42');
    await arrived;
    expect(updates).toEqual(['books://titles/42']);
    await old.unsubscribeResource({ uri: 'books://titles/42' });
    arrived = new Promise<void>((resolve) => (signal = resolve));
    handle.resources.updated('books://titles/42');
    handle.resources.updated('books://policy');
    await arrived;
    expect(updates).toEqual(['books://titles/42', 'books://policy']);
  });

  it('a 2026-07-28 client listening with resourceSubscriptions is told of the update on its subscriptions/listen stream', async () => {
    const now = await modern();
    const updates: string[] = [];
    const arrived = new Promise<void>((resolve) =>
      now.setNotificationHandler('notifications/resources/updated', (notification) => void (updates.push(notification.params.uri), resolve())),
    );
    const subscription = await now.listen({ resourceSubscriptions: ['books://policy'] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ['books://policy'] });
    try {
      handle.resources.updated('books://stats');
      handle.resources.updated('books://policy');
      await arrived;
      expect(updates).toEqual(['books://policy']);
    } finally {
      await subscription.close();
    }
  });

  it('a session may subscribe to at most 1000 URIs; the next is refused saying so', async () => {
    const old = await legacy();
    for (let i = 0; i < 1000; i++) await old.subscribeResource({ uri: `books://titles/${i}` });
    const refused = await refusal(old.subscribeResource({ uri: 'books://titles/1000' }));
    expect(refused).toMatchObject({ code: -32602, message: expect.stringContaining('already subscribes to 1000 resources') });
    await old.subscribeResource({ uri: 'books://titles/999' }); // already held: fine
  });

  it('resources and prompts added at run time reach both revisions as list changes', async () => {
    @Resource('books://late', { name: 'late' })
    class Late {
      call(): string {
        return 'late';
      }
    }
    @Prompt({ name: 'late_prompt' })
    class LatePrompt {
      call(): string {
        return 'late prompt';
      }
    }
    const old = await legacy();
    const now = await modern();
    const { ResourceListChangedNotificationSchema, PromptListChangedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const seen = { legacyResources: 0, legacyPrompts: 0, modernResources: 0, modernPrompts: 0 };
    const legacyBoth = Promise.all([
      new Promise<void>((resolve) => old.setNotificationHandler(ResourceListChangedNotificationSchema, () => void (seen.legacyResources++, resolve()))),
      new Promise<void>((resolve) => old.setNotificationHandler(PromptListChangedNotificationSchema, () => void (seen.legacyPrompts++, resolve()))),
    ]);
    const modernBoth = Promise.all([
      new Promise<void>((resolve) => now.setNotificationHandler('notifications/resources/list_changed', () => void (seen.modernResources++, resolve()))),
      new Promise<void>((resolve) => now.setNotificationHandler('notifications/prompts/list_changed', () => void (seen.modernPrompts++, resolve()))),
    ]);
    const subscription = await now.listen({ resourcesListChanged: true, promptsListChanged: true });
    try {
      handle.resources.add(Late);
      handle.prompts.add(LatePrompt);
      await Promise.all([legacyBoth, modernBoth]);
      expect(seen).toEqual({ legacyResources: 1, legacyPrompts: 1, modernResources: 1, modernPrompts: 1 });
      expect((await now.readResource({ uri: 'books://late' })).contents[0]).toMatchObject({ text: 'late' });
      expect((await old.getPrompt({ name: 'late_prompt' })).messages[0].content).toEqual({ type: 'text', text: 'late prompt' });
    } finally {
      await subscription.close();
      handle.resources.remove('books://late');
      handle.prompts.remove('late_prompt');
    }
  });
});

describe('a prompt that asks', () => {
  it('asks through an input-required round on 2026-07-28 and over the session on 2025-11-25, the same answer', async () => {
    const asked: string[] = [];
    const now = new Client(
        { name: 'asks-modern', version: '1.0.0' },
        { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
    now.setRequestHandler('elicitation/create', async (request) => {
      asked.push(`modern: ${String(request.params.message)}`);
      return { action: 'accept', content: { book: 'Dune' } } as never;
    });
    await now.connect(new StreamableHTTPClientTransport(new URL(handle.url), init('reader')));
    open.push(now);
    const old = new LegacyClient({ name: 'asks-legacy', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    old.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(`legacy: ${request.params.message}`);
      return { action: 'accept', content: { book: 'Dune' } };
    });
    await old.connect(new LegacyHttpTransport(new URL(handle.url), init('reader')));
    open.push(old);
    const expected = [{ role: 'user', content: { type: 'text', text: 'Interview about Dune' } }];
    expect((await now.getPrompt({ name: 'interview' })).messages).toEqual(expected);
    expect((await old.getPrompt({ name: 'interview' })).messages).toEqual(expected);
    expect(asked).toEqual(['modern: Which book?', 'legacy: Which book?']);
  });
});

describe('a stateless 2025-11-25 endpoint', () => {
  let stateless: McpHttpHandle;
  beforeAll(async () => {
    stateless = await serveHttp(
      { name: 'members-stateless', version: '1.0.0', tools: [], resources: [Policy, BookTitle], prompts: [Review], completions: [ReviewBooks] },
      { port: 0, stateless: true },
    );
  });
  afterAll(() => stateless.close());

  it('lists, reads, gets and completes with one server per request; a subscription is acknowledged and nothing kept', async () => {
    const client = new LegacyClient({ name: 'members-stateless', version: '1.0.0' });
    await client.connect(new LegacyHttpTransport(new URL(stateless.url)));
    open.push(client);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(['books://policy']);
    expect((await client.readResource({ uri: 'books://titles/7' })).contents[0]).toMatchObject({ text: JSON.stringify({ id: 7, title: 'Emma', typeOfId: 'number' }) });
    expect((await client.getPrompt({ name: 'review', arguments: { book: 'Emma' } })).messages[0].content).toEqual({ type: 'text', text: 'Review Emma' });
    expect((await client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'book', value: 'e' } })).completion.values).toHaveLength(100);
    expect(await client.subscribeResource({ uri: 'books://policy' })).toEqual({});
  });
});
