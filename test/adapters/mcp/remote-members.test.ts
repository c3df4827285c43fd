/**
 * A remote MCP server's resources, resource templates, prompts and completions proxied by a gateway
 * (serveHttp on 127.0.0.1), the remote a real child process over stdio: listed and used on both
 * revisions, resources under their own URIs and prompts under the namespace, the visible rule
 * deciding them as it decides local members (a hidden one answers as an unknown one), and the
 * remote's prompts/list_changed forwarded. A remote resource at a URI a local member (or another
 * mount) serves is refused: at start the mount fails naming both; listed later, it alone is left
 * out with a warning, and reads of that URI never reach the remote. A remote resource's reads carry
 * the gateway's `readCache` on 2026-07-28, never `'public'` under a mount with scopes, and none on 2025-11-25.
 */
import 'reflect-metadata';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  PromptListChangedNotificationSchema,
  ReadResourceResultSchema,
  ResourceListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { DeclarationError, Middleware, Resource, ResourceTemplate } from 'toolwright';
import { serveHttp, type McpHttpHandle, type McpMember, type McpRequestContext } from 'toolwright/mcp';
import { admitMcpServer, McpSecurityPolicy } from 'toolwright/mcp-client';
import { modernHeaders, scopedTokens } from '../../helpers/mcp';

const repo = path.resolve(__dirname, '..', '..', '..');
const remoteScript = path.join(repo, 'test', 'fixtures', 'mcp', 'compose-remote.ts');
const commands = new McpSecurityPolicy({ allowCommands: true, commandAllowlist: ['node'] });

/** Auditors see the remote's members; anyone else sees none of them (they are tagged 'ledger' at mount time). */
const members: McpMember[] = [];
const rule = (member: McpMember, request: McpRequestContext) => {
  members.push(member);
  return !member.tags.includes('ledger') || request.headers?.['x-role'] === 'auditor';
};

/** What middleware sees of each call: its member kind, id and name. */
const calls: string[] = [];
const seen: Middleware = (call, next) => {
  calls.push(`${call.tool.member} ${call.tool.id} ${call.tool.toolName()}`);
  return next();
};

let handle: McpHttpHandle;
beforeAll(async () => {
  const server = admitMcpServer('books', { command: 'node', args: ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', remoteScript] }, { security: commands });
  handle = await serveHttp(
    { name: 'gateway', version: '1.0.0', tools: [], resources: [], prompts: [], completions: [], mounts: [{ namespace: 'ledger', server, tags: ['ledger'] }], visible: rule, invoker: { middleware: [seen] } },
    { port: 0 },
  );
}, 30_000);
afterAll(async () => handle.close());

async function both(role: string): Promise<[Client, LegacyClient]> {
  const headers = { requestInit: { headers: { 'x-role': role } } };
  const modern = new Client({ name: 'm', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await modern.connect(new StreamableHTTPClientTransport(new URL(handle.url), headers));
  const legacy = new LegacyClient({ name: 'l', version: '1' });
  await legacy.connect(new LegacyHttpTransport(new URL(handle.url), headers));
  return [modern, legacy];
}

it('lists, reads, gets and completes the remote members on both revisions, as the remote answers them', async () => {
  const clients = await both('auditor');
  try {
    for (const client of clients) {
      expect((await client.listResources()).resources).toEqual([{ uri: 'ledger://balance', name: 'balance', mimeType: 'text/plain' }]);
      expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['ledger://accounts/{account}']);
      expect((await client.listPrompts()).prompts).toMatchObject([{ name: 'ledger_audit', description: 'Audits an account', arguments: [{ name: 'account', required: true }] }]);
      expect((await client.readResource({ uri: 'ledger://balance' })).contents).toEqual([{ uri: 'ledger://balance', mimeType: 'text/plain', text: '1,024.00 EUR' }]);
      expect((await client.readResource({ uri: 'ledger://accounts/acme' })).contents).toMatchObject([{ uri: 'ledger://accounts/acme', text: 'account acme: open' }]);
      expect((await client.getPrompt({ name: 'ledger_audit', arguments: { account: 'acme' } })).messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Audit the account acme' } },
      ]);
      const completed = await client.complete({ ref: { type: 'ref/prompt', name: 'ledger_audit' }, argument: { name: 'account', value: 'ac' } });
      expect(completed.completion.values).toEqual(['acme', 'acorn']);
    }
    // Middleware tells each kind from a tool call by call.tool.member; a proxied member's id is mcp:<alias>/…
    expect([...new Set(calls)]).toEqual([
      'resource mcp:books/ledger://balance ledger://balance',
      'resource-template mcp:books/ledger://accounts/{account} ledger://accounts/{account}',
      'prompt mcp:books/prompt/audit ledger_audit',
      'completion mcp:books/complete/account ledger_audit#account',
    ]);
    const kinds = new Map(members.map((member) => [member.name, [member.kind, member.remote, member.namespace]]));
    expect(kinds.get('ledger://balance')).toEqual(['resource', 'books', 'ledger']);
    expect(kinds.get('ledger://accounts/{account}')).toEqual(['resource-template', 'books', 'ledger']);
    expect(kinds.get('ledger_audit')).toEqual(['prompt', 'books', 'ledger']);
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
}, 30_000);

it('hides them by the rule, answering exactly as for members that do not exist', async () => {
  const clients = await both('clerk');
  try {
    for (const client of clients) {
      expect((await client.listResources()).resources).toEqual([]);
      expect((await client.listPrompts()).prompts).toEqual([]);
      await expect(client.getPrompt({ name: 'ledger_audit', arguments: { account: 'acme' } })).rejects.toThrow(/Unknown prompt: ledger_audit/);
    }
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
  const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  const read = async (uri: string) => {
    const response = await fetch(handle.url, {
      method: 'POST',
      headers: { ...modernHeaders('resources/read', uri), 'x-role': 'clerk' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri, _meta: META } }),
    });
    return `${response.status} ${(await response.text()).replaceAll(uri, '<uri>')}`;
  };
  expect(await read('ledger://balance')).toBe(await read('ledger://nothing'));
  expect(await read('ledger://accounts/acme')).toBe(await read('ledger://nothing'));
}, 30_000);

it("forwards the remote's prompts/list_changed: re-listed, served, and our clients told", async () => {
  const [modern, legacy] = await both('auditor');
  try {
    const told = new Promise<void>((resolve) => legacy.setNotificationHandler(PromptListChangedNotificationSchema, () => resolve()));
    expect((await modern.callTool({ name: 'ledger_grow_prompts', arguments: {} })).content).toEqual([{ type: 'text', text: 'grown' }]);
    await told;
    expect((await modern.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['ledger_audit', 'ledger_close_books']);
    expect((await legacy.getPrompt({ name: 'ledger_close_books' })).messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Close the books' } }]);
  } finally {
    await modern.close();
    await legacy.close();
  }
}, 30_000);

it('a remote resource whose URI a local member serves fails serveHttp naming both (the remote connection is closed)', async () => {
  @Resource('ledger://balance', { name: 'local_balance' })
  class LocalBalance {
    call(): string {
      return 'local';
    }
  }
  const server = admitMcpServer('dup', { command: 'node', args: ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', remoteScript] }, { security: commands });
  await expect(
    serveHttp({ name: 'g', version: '1', tools: [], resources: [LocalBalance], prompts: [], completions: [], mounts: [{ namespace: 'dup', server }] }, { port: 0 }),
  ).rejects.toThrow("Resources LocalBalance and mcp:dup/ledger://balance are both served as 'ledger://balance'. Give one another URI, or mount one under another namespace.");
}, 30_000);

describe('a remote resource at a URI another member serves (remotes in this process, over Streamable HTTP)', () => {
  const urls = new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['127.0.0.1'] });
  let remoteReads = 0;
  @ResourceTemplate('loans://applications/{id}', { name: 'application' })
  class LocalApplication {
    call({ id }: { id: string }): string {
      return `local application ${id}`;
    }
  }
  @Resource('loans://policy', { name: 'policy' })
  class LocalPolicy {
    call(): string {
      return 'local policy';
    }
  }
  @Resource('loans://applications/42', { name: 'application_42' })
  class RemoteApplication {
    call(): string {
      remoteReads++;
      return 'remote application 42';
    }
  }
  @ResourceTemplate('loans://{+rest}', { name: 'anything' })
  class RemoteAnything {
    call(): string {
      remoteReads++;
      return 'remote anything';
    }
  }
  @Resource('remote://hours', { name: 'hours' })
  class RemoteHours {
    call(): string {
      return 'remote hours';
    }
  }
  @Resource('shared://one', { name: 'one' })
  class RemoteShared {
    call(): string {
      remoteReads++;
      return 'remote one';
    }
  }
  @Resource('remote://late', { name: 'late' })
  class RemoteLate {
    call(): string {
      return 'late';
    }
  }
  @ResourceTemplate('shared://{name}', { name: 'shared' })
  class OtherShared {
    call({ name }: { name: string }): string {
      return `other mount's ${name}`;
    }
  }
  const remoteOf = (resources: Array<new () => unknown>) =>
    serveHttp({ name: 'remote', version: '1', tools: [], resources, prompts: [], completions: [] }, { port: 0 });
  const gateway = (mounts: Array<{ namespace: string; url: string }>) =>
    serveHttp(
      {
        name: 'gateway',
        version: '1',
        tools: [],
        resources: [LocalApplication, LocalPolicy],
        prompts: [],
        completions: [],
        mounts: mounts.map(({ namespace, url }) => ({ namespace, server: admitMcpServer(namespace, { url }, { security: urls }) })),
      },
      { port: 0 },
    );
  beforeEach(() => (remoteReads = 0));

  it("a remote resource's reads carry the gateway's readCache on 2026-07-28, private under a mount with scopes; 2025-11-25 reads none", async () => {
    @Resource('remote://rates', { name: 'rates', cache: { ttlMs: 1_000, cacheScope: 'public' } })
    class RemoteRates {
      call(): string {
        return 'rates';
      }
    }
    @Resource('remote://fees', { name: 'fees' })
    class RemoteFees {
      call(): string {
        return 'fees';
      }
    }
    const open = await remoteOf([RemoteRates]);
    const shut = await remoteOf([RemoteFees]);
    const mount = (namespace: string, url: string) => admitMcpServer(namespace, { url }, { security: urls });
    const served = await serveHttp(
      { name: 'gateway', version: '1', tools: [], resources: [], prompts: [], completions: [], readCache: { ttlMs: 90_000, cacheScope: 'public' }, mounts: [{ namespace: 'open', server: mount('open', open.url) }, { namespace: 'shut', server: mount('shut', shut.url), scopes: ['admin'] }] },
      { port: 0, auth: scopedTokens({ admin: ['admin'] }) },
    );
    const headers = { requestInit: { headers: { authorization: 'Bearer admin' } } };
    const modern = new Client({ name: 'm', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const legacy = new LegacyClient({ name: 'l', version: '1' });
    try {
      await modern.connect(new StreamableHTTPClientTransport(new URL(served.url), headers));
      await legacy.connect(new LegacyHttpTransport(new URL(served.url), headers));
      expect(await modern.readResource({ uri: 'remote://rates' })).toMatchObject({ contents: [{ text: 'rates' }], ttlMs: 90_000, cacheScope: 'public' });
      expect(await modern.readResource({ uri: 'remote://fees' })).toMatchObject({ contents: [{ text: 'fees' }], ttlMs: 90_000, cacheScope: 'private' });
      for (const uri of ['remote://rates', 'remote://fees']) {
        const read = await legacy.request({ method: 'resources/read', params: { uri } }, ReadResourceResultSchema.passthrough());
        expect(read).not.toHaveProperty('ttlMs');
        expect(read).not.toHaveProperty('cacheScope');
      }
    } finally {
      await Promise.all([modern.close(), legacy.close()]);
      await served.close();
      await Promise.all([open.close(), shut.close()]);
    }
  });

  it('at start: a remote fixed resource a local template matches, or a remote template matching a local resource, fails serveHttp naming the mount, the URI and the local member', async () => {
    for (const [listed, message] of [
      [RemoteApplication, "MCP server 'loans' (mounted as 'loans'): its resource 'loans://applications/42' serves a URI the resource template 'loans://applications/{id}' (LocalApplication) of this server already serves"],
      [RemoteAnything, "MCP server 'loans' (mounted as 'loans'): its resource template 'loans://{+rest}' serves a URI the resource 'loans://policy' (LocalPolicy) of this server already serves"],
    ] as const) {
      const remote = await remoteOf([listed]);
      try {
        const started = gateway([{ namespace: 'loans', url: remote.url }]);
        await expect(started).rejects.toThrow(DeclarationError);
        await expect(started).rejects.toThrow(message);
      } finally {
        await remote.close();
      }
    }
    expect(remoteReads).toBe(0);
  });

  it("listed later: the clashing remote resource alone is left out with a warning naming both; reads of its URI stay local and never reach the remote", async () => {
    const warnings: string[] = [];
    const spy = jest.spyOn(console, 'error').mockImplementation((line: unknown) => void warnings.push(String(line)));
    const remote = await remoteOf([RemoteHours]);
    const other = await remoteOf([OtherShared]);
    const served = await gateway([
      { namespace: 'loans', url: remote.url },
      { namespace: 'other', url: other.url },
    ]);
    const modern = new Client({ name: 'm', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const legacy = new LegacyClient({ name: 'l', version: '1' });
    try {
      await modern.connect(new StreamableHTTPClientTransport(new URL(served.url)));
      await legacy.connect(new LegacyHttpTransport(new URL(served.url)));
      let changed: () => void = () => undefined;
      legacy.setNotificationHandler(ResourceListChangedNotificationSchema, () => changed());
      const uris = async () => (await legacy.listResources()).resources.map((resource) => resource.uri);
      remote.resources.add(RemoteApplication);
      remote.resources.add(RemoteShared);
      remote.resources.add(RemoteLate);
      // Listed again once per change the remote announced: until the last one is served.
      while (!(await uris()).includes('remote://late')) await new Promise<void>((resolve) => (changed = resolve));
      expect(await uris()).toEqual(['loans://policy', 'remote://hours', 'remote://late']);
      for (const client of [modern, legacy]) {
        expect((await client.readResource({ uri: 'loans://applications/42' })).contents).toMatchObject([{ text: 'local application 42' }]);
        expect((await client.readResource({ uri: 'shared://one' })).contents).toMatchObject([{ text: "other mount's one" }]);
        expect((await client.readResource({ uri: 'remote://hours' })).contents).toMatchObject([{ text: 'remote hours' }]);
      }
      expect(remoteReads).toBe(0);
      expect(warnings).toEqual(
        expect.arrayContaining([
          expect.stringContaining(
            "MCP server 'loans' (mounted as 'loans'): its resource 'loans://applications/42' serves a URI the resource template 'loans://applications/{id}' (LocalApplication) of this server already serves",
          ),
          expect.stringContaining(
            "MCP server 'loans' (mounted as 'loans'): its resource 'shared://one' serves a URI the resource template 'shared://{name}' (mcp:other/shared://{name}) of the MCP server 'other' (mounted as 'other') already serves",
          ),
        ]),
      );
      expect(warnings.find((line) => line.includes("'loans://applications/42'"))).toContain('It is not served; its other members are.');
    } finally {
      spy.mockRestore();
      await Promise.all([modern.close(), legacy.close()]);
      await served.close();
      await Promise.all([remote.close(), other.close()]);
    }
  });
});
