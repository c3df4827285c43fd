/**
 * Who sees what beyond tools, and local mounts of every kind, over real HTTP on 127.0.0.1: the
 * `visible` rule decides resources, resource templates, prompts and completions as it decides tools
 * (a hidden one answers byte for byte as an unknown one, on both revisions); a local mount serves
 * prompts as `<namespace>_<name>` and resources under their own URIs (a URI served twice is a
 * DeclarationError naming both), their completions still complete them.
 */
import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Complete, CompletionRequest, DeclarationError, Expects, Prompt, Resource, ResourceTemplate } from 'toolwright';
import { createMcpServer, serveHttp, type McpHttpHandle, type McpMember, type McpRequestContext } from 'toolwright/mcp';
import { modernHeaders } from '../../helpers/mcp';

@Resource('library://hours', { name: 'hours' })
class Hours {
  call(): string {
    return '9 to 5';
  }
}

@Resource('library://catalog', { name: 'catalog', tags: ['staff'] })
class Catalog {
  call(): string {
    return 'Dune, Emma';
  }
}

@ResourceTemplate('library://loans/{member}', { name: 'loans', tags: ['staff'] })
class Loans {
  call({ member }: { member: string }): string {
    return `loans of ${member}`;
  }
}

@Prompt({ name: 'summarize', description: 'Summarizes a book', tags: ['staff'] })
@Expects({ book: String })
class Summarize {
  call({ book }: { book: string }): string {
    return `Summarize ${book}`;
  }
}

@Prompt({ name: 'welcome' })
class Welcome {
  call(): string {
    return 'Welcome';
  }
}

@Complete(Summarize, 'book')
class SummarizeBooks {
  call({ value }: CompletionRequest): string[] {
    return ['Dune', 'Emma'].filter((title) => title.startsWith(value));
  }
}

const TEAMS: Record<string, string> = { staff: 'staff', reader: 'reader' };
const auth = {
  verifyAccessToken: (token: string) =>
    token in TEAMS ? { token, clientId: token, scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600, extra: { team: TEAMS[token] } } : undefined,
};

const asked: string[] = [];
const byTeam = (member: McpMember, request: McpRequestContext): boolean => {
  asked.push(member.name);
  return member.tags.length === 0 || member.tags.includes(String(request.authInfo?.extra?.team));
};

const options = () => ({
  name: 'library',
  version: '1.0.0',
  tools: [],
  resources: [Hours],
  prompts: [Welcome],
  completions: [],
  mounts: [{ namespace: 'library', resources: [Catalog, Loans], prompts: [Summarize], completions: [SummarizeBooks] }],
  visible: byTeam,
});

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function raw(url: string, token: string, method: string, params: Record<string, unknown>, name?: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...modernHeaders(method, name), authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 3, method, params: { ...params, _meta: META } }),
  });
  return `${response.status} ${await response.text()}`;
}

let handle: McpHttpHandle;
beforeAll(async () => {
  handle = await serveHttp(options(), { port: 0, auth });
});
afterAll(async () => handle.close());
beforeEach(() => (asked.length = 0));

async function clients(token: string): Promise<[Client, LegacyClient]> {
  const modern = new Client({ name: 'm', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await modern.connect(new StreamableHTTPClientTransport(new URL(handle.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  const legacy = new LegacyClient({ name: 'l', version: '1' });
  await legacy.connect(new LegacyHttpTransport(new URL(handle.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return [modern, legacy];
}

it('lists, reads, gets and completes by the rule on both revisions; mounted prompts carry the namespace, resources their URIs', async () => {
  const [staffModern, staffLegacy] = await clients('staff');
  const [readerModern, readerLegacy] = await clients('reader');
  try {
    for (const client of [staffModern, staffLegacy]) {
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['library://hours', 'library://catalog']);
      expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['library://loans/{member}']);
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['welcome', 'library_summarize']);
      expect((await client.readResource({ uri: 'library://loans/ada' })).contents).toMatchObject([{ text: 'loans of ada' }]);
      expect((await client.getPrompt({ name: 'library_summarize', arguments: { book: 'Dune' } })).messages).toMatchObject([
        { role: 'user', content: { type: 'text', text: 'Summarize Dune' } },
      ]);
      const completed = await client.complete({ ref: { type: 'ref/prompt', name: 'library_summarize' }, argument: { name: 'book', value: 'E' } });
      expect(completed.completion.values).toEqual(['Emma']);
    }
    for (const client of [readerModern, readerLegacy]) {
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['library://hours']);
      expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['welcome']);
      await expect(client.readResource({ uri: 'library://catalog' })).rejects.toThrow(/library:\/\/catalog/);
      await expect(client.getPrompt({ name: 'library_summarize', arguments: { book: 'Dune' } })).rejects.toThrow(/Unknown prompt: library_summarize/);
    }
  } finally {
    await Promise.all([staffModern, staffLegacy, readerModern, readerLegacy].map((client) => client.close()));
  }
});

it('asks the rule only about the member a read or get names (a template only when its URI matches)', async () => {
  await raw(handle.url, 'staff', 'resources/read', { uri: 'library://hours' }, 'library://hours');
  expect(asked).toEqual(['library://hours']);
  asked.length = 0;
  await raw(handle.url, 'staff', 'resources/read', { uri: 'library://loans/ada' }, 'library://loans/ada');
  expect(asked).toEqual(['library://loans/{member}']);
  asked.length = 0;
  await raw(handle.url, 'staff', 'prompts/get', { name: 'library_summarize', arguments: { book: 'Dune' } }, 'library_summarize');
  expect(asked).toEqual(['library_summarize']);
});

it('answers a hidden resource, template, prompt and completion byte for byte as unknown ones', async () => {
  const server = await serveHttp(options(), { port: 0, auth });
  try {
    const requests: Array<[string, Record<string, unknown>, string | undefined]> = [
      ['resources/read', { uri: 'library://catalog' }, 'library://catalog'],
      ['resources/read', { uri: 'library://loans/ada' }, 'library://loans/ada'],
      ['prompts/get', { name: 'library_summarize', arguments: { book: 'Dune' } }, 'library_summarize'],
      ['completion/complete', { ref: { type: 'ref/prompt', name: 'library_summarize' }, argument: { name: 'book', value: 'E' } }, undefined],
      ['completion/complete', { ref: { type: 'ref/resource', uri: 'library://loans/{member}' }, argument: { name: 'member', value: 'a' } }, undefined],
      ['resources/list', {}, undefined],
      ['resources/templates/list', {}, undefined],
      ['prompts/list', {}, undefined],
    ];
    const hidden = await Promise.all(requests.map(([method, params, name]) => raw(server.url, 'reader', method, params, name)));
    expect(server.resources.remove('library://catalog')).toBe(true);
    expect(server.resources.remove('library://loans/{member}')).toBe(true);
    expect(server.prompts.remove('library_summarize')).toBe(true);
    const unknown = await Promise.all(requests.map(([method, params, name]) => raw(server.url, 'reader', method, params, name)));
    expect(hidden).toEqual(unknown);
    expect(hidden[2]).toContain('Unknown prompt: library_summarize');
  } finally {
    await server.close();
  }
});

it('refuses a mounted resource whose URI another member serves, naming both', () => {
  @Resource('library://hours', { name: 'other_hours' })
  class OtherHours {
    call(): string {
      return '24/7';
    }
  }
  expect(() =>
    createMcpServer({ name: 'x', version: '1', tools: [], resources: [Hours], prompts: [], completions: [], mounts: [{ namespace: 'b', resources: [OtherHours] }] }),
  ).toThrow(DeclarationError);
  expect(() =>
    createMcpServer({ name: 'x', version: '1', tools: [], resources: [Hours], prompts: [], completions: [], mounts: [{ namespace: 'b', resources: [OtherHours] }] }),
  ).toThrow(/Resources Hours and OtherHours are both served as 'library:\/\/hours'.*or mount one under another namespace\./);
});

describe('resource updates reach only callers that may see the resource (subscriptions/listen and resources/subscribe)', () => {
  @Resource('library://ledger', { name: 'ledger', adapters: { mcp: { scopes: ['ledger'] } } })
  class Ledger {
    call(): string {
      return 'fines';
    }
  }
  @Resource('library://ledger', { name: 'ledger_audit', adapters: { mcp: { scopes: ['audit'] } } })
  class AuditLedger {
    call(): string {
      return 'fines';
    }
  }
  const revoked = new Set<string>();
  const scoped = {
    verifyAccessToken: (token: string) =>
      token in TEAMS
        ? { token, clientId: token, scopes: token === 'staff' ? ['ledger'] : [], expiresAt: Math.floor(Date.now() / 1000) + 3600, extra: { team: TEAMS[token] } }
        : undefined,
  };
  const ruled = () => ({
    ...options(),
    resources: [Hours, Ledger],
    visible: (member: McpMember, request: McpRequestContext) => !revoked.has(member.name) && byTeam(member, request),
  });
  let server: McpHttpHandle;
  beforeEach(async () => {
    revoked.clear();
    server = await serveHttp(ruled(), { port: 0, auth: scoped });
  });
  afterEach(async () => server.close());

  async function listening(token: string, resourceSubscriptions: string[]) {
    const client = new Client({ name: 'm', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    const updates: string[] = [];
    let arrived: () => void = () => undefined;
    client.setNotificationHandler('notifications/resources/updated', (notification) => void (updates.push(notification.params.uri), arrived()));
    const subscription = await client.listen({ resourceSubscriptions, toolsListChanged: true });
    /** Sends every update in order; resolves once the last (a URI the stream hears of) arrived. */
    const after = (...uris: string[]) => {
      const done = new Promise<void>((resolve) => (arrived = () => updates.at(-1) === uris.at(-1) && resolve()));
      for (const uri of uris) server.resources.updated(uri);
      return done;
    };
    return { client, subscription, updates, after };
  }

  const HIDDEN = ['library://catalog', 'library://loans/ada', 'library://ledger'];

  it('2026-07-28: a listen naming a resource hidden by the rule or by scopes leaves it out, as an unknown URI, and hears nothing of it', async () => {
    const reader = await listening('reader', [...HIDDEN, 'library://nowhere', 'library://hours']);
    try {
      expect(reader.subscription.honoredFilter).toEqual({ toolsListChanged: true, resourceSubscriptions: ['library://hours'] });
      await reader.after(...HIDDEN, 'library://nowhere', 'library://hours');
      expect(reader.updates).toEqual(['library://hours']);
    } finally {
      await reader.subscription.close();
      await reader.client.close();
    }
  });

  it('2026-07-28: an update is sent only while the caller may see the resource (asked again at delivery)', async () => {
    const staff = await listening('staff', [...HIDDEN, 'library://hours']);
    try {
      expect(staff.subscription.honoredFilter).toEqual({ toolsListChanged: true, resourceSubscriptions: [...HIDDEN, 'library://hours'] });
      await staff.after(...HIDDEN, 'library://hours');
      expect(staff.updates).toEqual([...HIDDEN, 'library://hours']);
      staff.updates.length = 0;
      revoked.add('library://catalog'); // the rule now hides it
      revoked.add('library://loans/{member}');
      server.resources.add(AuditLedger, { replace: true }); // now needs a scope staff lacks
      await staff.after(...HIDDEN, 'library://hours');
      expect(staff.updates).toEqual(['library://hours']);
    } finally {
      await staff.subscription.close();
      await staff.client.close();
    }
  });

  it('2025-11-25: resources/subscribe refuses a hidden URI as an unknown one, and a resource hidden since is not announced', async () => {
    const reader = await legacyClient(server.url, 'reader');
    const staff = await legacyClient(server.url, 'staff');
    try {
      const { ResourceUpdatedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
      for (const uri of [...HIDDEN, 'library://nowhere']) {
        await expect(reader.subscribeResource({ uri })).rejects.toMatchObject({ code: -32602, data: { uri } });
      }
      const updates: string[] = [];
      let arrived: () => void = () => undefined;
      staff.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void (updates.push(n.params.uri), arrived()));
      for (const uri of [...HIDDEN, 'library://hours']) await staff.subscribeResource({ uri });
      revoked.add('library://catalog');
      server.resources.add(AuditLedger, { replace: true });
      const done = new Promise<void>((resolve) => (arrived = () => updates.at(-1) === 'library://hours' && resolve()));
      for (const uri of [...HIDDEN, 'library://hours']) server.resources.updated(uri);
      await done;
      expect(updates).toEqual(['library://loans/ada', 'library://hours']);
    } finally {
      await Promise.all([reader.close(), staff.close()]);
    }
  });

  it('2026-07-28: a listen naming more than 1000 URIs is refused, saying the limit', async () => {
    const uris = Array.from({ length: 1001 }, (_, i) => `library://loans/${i}`);
    const answer = await raw(server.url, 'staff', 'subscriptions/listen', { notifications: { resourceSubscriptions: uris } });
    expect(JSON.parse(answer.slice(4))).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: expect.stringContaining('names 1001 URIs; this server listens to at most 1000 per stream') },
    });
  });

  it('2026-07-28: a listen naming a hidden resource answers byte for byte as one naming an unknown URI', async () => {
    /** The stream's first events (the acknowledgement, then the first update it hears of), as sent. */
    const stream = async (uri: string): Promise<string> => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { ...modernHeaders('subscriptions/listen'), authorization: 'Bearer reader' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 9,
          method: 'subscriptions/listen',
          params: { notifications: { resourceSubscriptions: [uri, 'library://hours'] }, _meta: META },
        }),
      });
      const reader = response.body!.getReader();
      let text = '';
      const decoder = new TextDecoder();
      const events = () => text.split('\n\n').filter((event) => event.includes('data:')).length;
      while (events() < 1) text += decoder.decode((await reader.read()).value);
      server.resources.updated(uri);
      server.resources.updated('library://hours');
      while (events() < 2) text += decoder.decode((await reader.read()).value);
      await reader.cancel();
      return `${response.status} ${text}`;
    };
    const hidden = [await stream('library://catalog'), await stream('library://ledger')];
    server.resources.remove('library://catalog');
    server.resources.remove('library://ledger');
    const unknown = [await stream('library://catalog'), await stream('library://ledger')];
    expect(hidden).toEqual(unknown);
    expect(hidden[0]).toContain('"resourceSubscriptions":["library://hours"]');
    expect(hidden[0]).toContain('"uri":"library://hours"');
  });
});

async function legacyClient(url: string, token: string): Promise<LegacyClient> {
  const legacy = new LegacyClient({ name: 'l', version: '1' });
  await legacy.connect(new LegacyHttpTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return legacy;
}
