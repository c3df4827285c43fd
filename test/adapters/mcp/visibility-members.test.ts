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
