/**
 * One server from many, over real transports: a gateway (serveHttp on 127.0.0.1) serving its own
 * tools, local tools mounted under a namespace, and remote MCP servers (real child processes, over
 * stdio and over Streamable HTTP) admitted by their security policy and proxied under a namespace.
 * Clients: the 2.x Client negotiating 2026-07-28 and the 1.x Client on 2025-11-25.
 */
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ToolListChangedNotificationSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { DeclarationError, Tool, ToolRegistry } from 'toolwright';
import { createMcpServer, serveHttp, type McpHttpHandle, type McpServerOptions } from 'toolwright/mcp';
import { admitMcpServer, McpSecurityError, McpSecurityPolicy } from 'toolwright/mcp-client';

const repo = path.resolve(__dirname, '..', '..', '..');
const remoteScript = path.join(repo, 'test', 'fixtures', 'mcp', 'compose-remote.ts');
const nodeArgs = ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', remoteScript];
const commands = new McpSecurityPolicy({ allowCommands: true, commandAllowlist: ['node'] });
const urls = new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['127.0.0.1'] });

@Tool('mcp', { name: 'hello', description: 'Says hello' })
class Hello {
  call() {
    return 'hello';
  }
}

@Tool('mcp', { name: 'invoice', description: 'Issues an invoice', tags: ['finance'] })
class Invoice {
  call() {
    return 'invoice 1';
  }
}

@Tool('mcp', { name: 'refund', description: 'Refunds', adapters: { mcp: { scopes: ['billing:write'] } } })
class Refund {
  call() {
    return 'refunded';
  }
}

function stdioRemote(alias = 'ledger') {
  return admitMcpServer(alias, { command: 'node', args: nodeArgs }, { security: commands });
}

/** The fixture over Streamable HTTP in a child process. */
async function httpRemote(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...nodeArgs, '--http'], { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /URL (\S+)/.exec(out);
      if (found) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`the HTTP fixture exited (${code}) before listening`)));
  });
  return { url, child };
}

async function modern(url: string): Promise<Client> {
  const client = new Client({ name: 'gateway-2x', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function legacy(url: string, answer?: () => ElicitResult): Promise<LegacyClient> {
  const client = new LegacyClient({ name: 'gateway-1x', version: '1.0.0' }, { capabilities: answer ? { elicitation: { form: {} } } : {} });
  if (answer) client.setRequestHandler(ElicitRequestSchema, answer);
  await client.connect(new LegacyHttpTransport(new URL(url)));
  return client;
}

function text(result: object): string {
  return (((result as { content?: unknown }).content as Array<{ text?: string }>) ?? []).map((part) => part.text ?? '').join('');
}

const names = async (client: Client | LegacyClient) => (await client.listTools()).tools.map((tool) => tool.name).sort();

describe('local mounts', () => {
  it('serves other members as <namespace>_<name>, with their own scopes and tags', async () => {
    const seen: string[][] = [];
    const handle = await serveHttp(
      {
        name: 'gateway',
        version: '1.0.0',
        tools: [Hello],
        mounts: [{ namespace: 'billing', tools: [Invoice, Refund] }, { namespace: 'again', registry: new ToolRegistry({ tools: [Hello] }) }],
        visible: (member) => (seen.push([member.name, member.namespace ?? '-', ...member.tags]), true),
      },
      { port: 0 },
    );
    const client = await modern(handle.url);
    try {
      // refund needs billing:write, which an unauthenticated request does not hold.
      expect(await names(client)).toEqual(['again_hello', 'billing_invoice', 'hello']);
      expect(seen).toContainEqual(['billing_invoice', 'billing', 'finance']);
      expect(text(await client.callTool({ name: 'billing_invoice', arguments: {} }))).toBe('invoice 1');
      expect(text(await client.callTool({ name: 'again_hello', arguments: {} }))).toBe('hello');
      await expect(client.callTool({ name: 'billing_refund', arguments: {} })).rejects.toThrow(/Unknown tool: billing_refund/);
      await expect(client.callTool({ name: 'invoice', arguments: {} })).rejects.toThrow(/Unknown tool: invoice/);
    } finally {
      await client.close();
      await handle.close();
    }
  });

  it('refuses a name served twice (naming both), a bad namespace, a namespace mounted twice, and a name MCP clients refuse', () => {
    @Tool('mcp', { name: 'billing_invoice' })
    class Clash {
      call() {
        return 'clash';
      }
    }
    const base: McpServerOptions = { name: 'g', version: '1' };
    expect(() => createMcpServer({ ...base, tools: [Clash], mounts: [{ namespace: 'billing', tools: [Invoice] }] })).toThrow(
      new DeclarationError(
        "Tools Clash and Invoice are both served as 'billing_invoice'. Give one another name (wrap(tool, { name }) or @Tool({ adapters: { mcp: { name } } })), or mount one under another namespace.",
      ),
    );
    expect(() => createMcpServer({ ...base, tools: [], mounts: [{ namespace: 'bill ing', tools: [Invoice] }] })).toThrow(
      /mounts\[0\]\.namespace must be 1 to 64 letters, digits and '-'/,
    );
    expect(() =>
      createMcpServer({ ...base, tools: [], mounts: [{ namespace: 'b', tools: [Invoice] }, { namespace: 'b', tools: [Hello] }] }),
    ).toThrow(/the namespace 'b' is mounted twice/);
    expect(() => createMcpServer({ ...base, tools: [], mounts: [{ namespace: 'b' } as never] })).toThrow(/needs its members: tools, resources, prompts or completions: \[...\], or registry: .*not neither\./);
    @Tool('mcp', { name: 'a'.repeat(64) })
    class Long {
      call() {
        return '';
      }
    }
    expect(() => createMcpServer({ ...base, tools: [], mounts: [{ namespace: 'n'.repeat(64), tools: [Long] }] })).toThrow(
      /which MCP clients refuse: tool names are 1 to 128 letters/,
    );
  });
});

describe('a remote MCP server mounted over stdio', () => {
  let handle: McpHttpHandle;
  /** What the gateway's middleware saw: a remote call passes through the same pipeline as a local one. */
  const seen: Array<[string, string, unknown]> = [];

  beforeAll(async () => {
    handle = await serveHttp(
      {
        name: 'gateway',
        version: '1.0.0',
        tools: [Hello],
        mounts: [{ namespace: 'ledger', server: stdioRemote(), tags: ['remote'] }],
        invoker: {
          requireApprovalForDestructive: true,
          middleware: [
            (call, next) => {
              seen.push([call.tool.id, call.transport, call.input]);
              return next();
            },
          ],
        },
      },
      { port: 0 },
    );
  }, 30_000);
  afterAll(async () => handle.close());

  it('proxies its tools under the namespace to both revisions, annotations and results as the remote sent them', async () => {
    const [client, old] = [await modern(handle.url), await legacy(handle.url)];
    try {
      expect(client.getProtocolEra()).toBe('modern');
      for (const c of [client, old]) {
        expect(await names(c)).toEqual(['hello', 'ledger_crash', 'ledger_grow', 'ledger_grow_prompts', 'ledger_hang', 'ledger_ledger', 'ledger_lookup', 'ledger_transfer']);
        const lookup = (await c.listTools()).tools.find((tool) => tool.name === 'ledger_lookup')!;
        expect(lookup).toMatchObject({ description: 'Who owns an account', annotations: { readOnlyHint: true } });
        expect(lookup.inputSchema).toMatchObject({ type: 'object', required: ['account'] });
        expect(text(await c.callTool({ name: 'ledger_lookup', arguments: { account: 'acc-1' } }))).toMatch(/^acc-1 is owned by Ada/);
        expect(seen.at(-1)).toEqual(['mcp:ledger/lookup', 'mcp', { account: 'acc-1' }]);
        // The remote's own refusal of bad arguments reaches the client as a failed call.
        const bad = await c.callTool({ name: 'ledger_lookup', arguments: {} });
        expect(bad.isError).toBe(true);
        expect(text(bad)).toMatch(/account/);
      }
    } finally {
      await client.close();
      await old.close();
    }
  }, 30_000);

  it('asks for approval before a destructive remote tool runs; declined, the remote never sees the call', async () => {
    const declining = await legacy(handle.url, () => ({ action: 'decline' }));
    const approving = await legacy(handle.url, () => ({ action: 'accept', content: { approve: true } }));
    try {
      const refused = await declining.callTool({ name: 'ledger_transfer', arguments: { cents: 500, to: 'mallory' } });
      expect(refused).toMatchObject({ isError: true });
      expect(text(refused)).toBe('The call to ledger_transfer was not approved: the user declined. It did not run.');
      expect(text(await declining.callTool({ name: 'ledger_ledger', arguments: {} }))).toBe('[]');
      expect(text(await approving.callTool({ name: 'ledger_transfer', arguments: { cents: 500, to: 'bob' } }))).toBe('sent 500 to bob');
      expect(text(await approving.callTool({ name: 'ledger_ledger', arguments: {} }))).toBe('[{"cents":500,"to":"bob"}]');
      // A client that cannot be asked is refused (no elicitation).
      const modernClient = await modern(handle.url);
      try {
        const unasked = await modernClient.callTool({ name: 'ledger_transfer', arguments: { cents: 1, to: 'eve' } });
        expect(unasked.isError).toBe(true);
        expect(text(unasked)).toMatch(/needs a person's approval/);
      } finally {
        await modernClient.close();
      }
    } finally {
      await declining.close();
      await approving.close();
    }
  }, 30_000);

  it("forwards the remote's tools/list_changed: re-listed, served, and our clients told (both revisions)", async () => {
    // grow says it is idempotent, not that it is not destructive: under MCP's defaults it asks first.
    const old = await legacy(handle.url, () => ({ action: 'accept', content: { approve: true } }));
    const client = await modern(handle.url);
    try {
      const oldTold = new Promise<void>((resolve) => old.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
      const newTold = new Promise<void>((resolve) => client.setNotificationHandler('notifications/tools/list_changed', () => resolve()));
      await client.listen({ toolsListChanged: true });
      expect(text(await old.callTool({ name: 'ledger_grow', arguments: {} }))).toBe('grown');
      await Promise.all([oldTold, newTold]);
      expect(await names(client)).toContain('ledger_extra');
      expect(handle.tools.has('ledger_extra')).toBe(true);
      expect(text(await client.callTool({ name: 'ledger_extra', arguments: {} }))).toBe('extra');
    } finally {
      await old.close();
      await client.close();
    }
  }, 30_000);

  it('a remote call that takes longer than the mount allows answers an error; a remote that exits answers a clear error, then is started again', async () => {
    // The older 1.x fixture: a second copy of compose-remote would serve the same resource URIs (a DeclarationError).
    const crashy = admitMcpServer('crashy', { command: 'node', args: [path.join(repo, 'test', 'fixtures', 'mcp', 'fixture-server.cjs')] }, { security: commands });
    const quick = await serveHttp(
      { name: 'gateway', version: '1.0.0', tools: [], mounts: [{ namespace: 'r', server: stdioRemote('quick'), timeoutMs: 300 }, { namespace: 'c', server: crashy }] },
      { port: 0 },
    );
    const client = await modern(quick.url);
    try {
      const hung = await client.callTool({ name: 'r_hang', arguments: {} });
      expect(hung).toMatchObject({ isError: true, content: [{ type: 'text', text: "The tool 'hang' on MCP server 'quick' did not answer within 300 ms." }] });
      const crashed = await client.callTool({ name: 'c_crash', arguments: {} });
      expect(crashed.isError).toBe(true);
      expect(text(crashed)).toMatch(/^The tool 'crash' on MCP server 'crashy' could not be reached: .*(closed|Connection)/i);
      // Nothing crashed here: the gateway answers, and the next call starts the remote again.
      expect(text(await client.callTool({ name: 'c_pid', arguments: {} }))).toMatch(/^\d+$/);
      expect(text(await client.callTool({ name: 'r_lookup', arguments: { account: 'a' } }))).toMatch(/^a is owned by Ada/);
    } finally {
      await client.close();
      await quick.close();
    }
  }, 30_000);
});

describe('a remote MCP server mounted over Streamable HTTP', () => {
  it('negotiates its own revision, and forwards its list changes to our 2025-11-25 and 2026-07-28 clients', async () => {
    const remote = await httpRemote();
    const handle = await serveHttp(
      { name: 'gateway', version: '1.0.0', tools: [Hello], mounts: [{ namespace: 'web', server: admitMcpServer('web', { url: remote.url }, { security: urls }) }] },
      { port: 0 },
    );
    const old = await legacy(handle.url);
    const client = await modern(handle.url);
    try {
      expect(await names(old)).toContain('web_lookup');
      expect(text(await client.callTool({ name: 'web_lookup', arguments: { account: 'z' } }))).toMatch(/^z is owned by Ada/);
      const oldTold = new Promise<void>((resolve) => old.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
      await client.callTool({ name: 'web_grow', arguments: {} });
      await oldTold;
      expect(await names(client)).toContain('web_extra');
    } finally {
      await old.close();
      await client.close();
      await handle.close();
      remote.child.kill();
    }
  }, 30_000);

  it('a remote that cannot be reached fails serveHttp with an error naming it; nothing is left listening', async () => {
    const remote = await httpRemote();
    remote.child.kill();
    await new Promise((resolve) => remote.child.once('exit', resolve));
    await expect(
      serveHttp({ name: 'g', version: '1', tools: [], mounts: [{ namespace: 'gone', server: admitMcpServer('gone', { url: remote.url }, { security: urls }) }] }, { port: 0 }),
    ).rejects.toThrow(/MCP server 'gone' \(mounted as 'gone'\) could not be served: MCP server 'gone': reaching http:\/\/127\.0\.0\.1:\d+\/mcp failed/);
  }, 30_000);
});

describe('fail-closed: nothing starts before the policy admits it', () => {
  it("a remote's untrusted listing: one tool MCP clients would refuse, and none of its tools is served", async () => {
    const untrusted = admitMcpServer('untrusted', { command: 'node', args: [path.join(repo, 'test', 'fixtures', 'mcp', 'untrusted-server.cjs')] }, { security: commands });
    await expect(serveHttp({ name: 'g', version: '1', tools: [], mounts: [{ namespace: 'u', server: untrusted }] }, { port: 0 })).rejects.toThrow(
      /^MCP server 'untrusted' \(mounted as 'u'\): 1 of its members cannot be served, so none are: tool 'y{127}': it would be served as 'u_y{127}', which is not an MCP tool name/,
    );
  }, 30_000);

  it('a refused remote is never started, and a hand-made admission is refused before anything runs', async () => {
    const marker = path.join(os.tmpdir(), `compose-marker-${process.pid}`);
    fs.rmSync(marker, { force: true });
    const script = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'started')`;
    // The default policy is deny-all: no command may start.
    expect(() => admitMcpServer('evil', { command: 'node', args: ['-e', script] })).toThrow(McpSecurityError);
    expect(() => admitMcpServer('evil', { command: 'node', args: ['-e', script] }, { security: new McpSecurityPolicy({ allowCommands: true, commandAllowlist: ['npx'] }) })).toThrow(McpSecurityError);
    const forged = { alias: 'evil', config: { command: process.execPath, args: ['-e', script] }, security: McpSecurityPolicy.trusted() };
    await expect(serveHttp({ name: 'g', version: '1', tools: [], mounts: [{ namespace: 'evil', server: forged as never }] }, { port: 0 })).rejects.toThrow(
      /connectMcpServer takes a server admitted by admitMcpServer/,
    );
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('toolwright/mcp does not load @modelcontextprotocol/client unless a remote mount is used', async () => {
    const probe = `
      require('reflect-metadata');
      const { createMcpServer } = require('toolwright/mcp');
      createMcpServer({ name: 'x', version: '1', tools: [], mounts: [] });
      const loaded = () => Object.keys(require.cache).some((file) => file.includes('@modelcontextprotocol/client'));
      const before = loaded();
      const { admitMcpServer, McpSecurityPolicy } = require('toolwright/mcp-client');
      const server = admitMcpServer('r', { url: 'http://127.0.0.1:9/mcp' }, { security: new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['127.0.0.1'] }) });
      const factory = require('toolwright/mcp').mcpServerFactory({ name: 'x', version: '1', tools: [], mounts: [{ namespace: 'r', server }] });
      factory.ready().catch(() => process.stdout.write(JSON.stringify({ before, after: loaded() })));
    `;
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', '-e', probe], { cwd: repo });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', () => undefined);
      child.once('exit', () => resolve(stdout));
      child.once('error', reject);
    });
    expect(JSON.parse(out)).toEqual({ before: false, after: true });
  }, 30_000);
});
