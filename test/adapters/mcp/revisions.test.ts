/**
 * Both MCP revisions on one endpoint: the SDK 2.x Client in its default (2025-11-25) mode, in `auto`
 * mode and pinned to 2026-07-28, and the 1.x Client, all against ONE `serveHttp` endpoint at the same
 * time, and against `serveStdio` in a child process. Each lists and calls tools; scopes hold per
 * revision; an invalid argument is answered the same way; progress reaches the client; a tool-set
 * change reaches a listening 2026-07-28 client; server/discover is answered.
 */
import 'reflect-metadata';
import * as path from 'node:path';
import { Client, LOG_LEVEL_META_KEY, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Tool } from 'toolwright';
import { McpHttpHandle, serveHttp } from 'toolwright/mcp';
import { revisionTools } from '../../fixtures/mcp-revisions/tools';

const TOKENS: Record<string, string[]> = { admin: ['admin'], user: [] };
const auth = {
  verifyAccessToken: (token: string) =>
    token in TOKENS ? { token, clientId: token, scopes: TOKENS[token], expiresAt: Math.floor(Date.now() / 1000) + 3600 } : undefined,
};

type Mode = 'legacy' | 'auto' | 'pin';
const MODES: Mode[] = ['legacy', 'auto', 'pin'];

function v2Client(mode: Mode): Client {
  return new Client(
    { name: `revisions-${mode}`, version: '1.0.0' },
    mode === 'legacy' ? {} : { versionNegotiation: { mode: mode === 'auto' ? 'auto' : { pin: '2026-07-28' } } },
  );
}

function headers(token: string) {
  return { requestInit: { headers: { Authorization: `Bearer ${token}` } } };
}

/** A tools/call answer without the server's identity, which 2026-07-28 adds to every result's `_meta`. */
function answer(result: { _meta?: Record<string, unknown> }): object {
  const { 'io.modelcontextprotocol/serverInfo': _server, ...meta } = result._meta ?? {};
  return { ...result, _meta: meta };
}

/** The text of a tools/call answer. */
function text(result: object): string {
  return (((result as { content?: unknown }).content as Array<{ type: string; text?: string }>) ?? []).map((part) => part.text ?? '').join('');
}

let handle: McpHttpHandle;
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  handle = await serveHttp({ name: 'revisions', version: '1.0.0', tools: revisionTools }, { port: 0, auth });
});
afterAll(async () => {
  await Promise.all(open.map((client) => client.close().catch(() => undefined)));
  await handle.close();
});

async function connect(mode: Mode, token = 'user'): Promise<Client> {
  const client = v2Client(mode);
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url), headers(token)));
  open.push(client);
  return client;
}

describe('one serveHttp endpoint, both revisions at once', () => {
  it('negotiates 2025-11-25 by default and 2026-07-28 in auto and pinned mode (server/discover answered)', async () => {
    const clients = await Promise.all(MODES.map((mode) => connect(mode)));
    expect(clients.map((client) => client.getProtocolEra())).toEqual(['legacy', 'modern', 'modern']);
    for (const client of clients) expect(client.getServerVersion()).toMatchObject({ name: 'revisions', version: '1.0.0' });
    // A 2026-07-28 client has no session: nothing was opened for it.
    expect(handle.sessions()).toBe(1);
  });

  it('lists and calls the tools the same way in every mode, the 1.x Client beside them; scopes hold per revision', async () => {
    const legacy = new LegacyClient({ name: 'revisions-1.x', version: '1.0.0' });
    await legacy.connect(new LegacyHttpTransport(new URL(handle.url), headers('user')));
    open.push(legacy);
    const users = await Promise.all(MODES.map((mode) => connect(mode, 'user')));
    const admins = await Promise.all(MODES.map((mode) => connect(mode, 'admin')));

    const names = async (client: Client | LegacyClient) => (await client.listTools()).tools.map((tool) => tool.name).sort();
    for (const client of [legacy, ...users]) expect(await names(client)).toEqual(['can_ask', 'echo', 'wipe']);
    for (const client of admins) expect(await names(client)).toEqual(['can_ask', 'echo', 'vault', 'wipe']);

    const calls = await Promise.all(
      [legacy, ...users, ...admins].map((client) => client.callTool({ name: 'echo', arguments: { text: 'hi' } })),
    );
    expect(calls.map(text)).toEqual(Array(7).fill('hi'));
    for (const admin of admins) expect(text(await admin.callTool({ name: 'vault', arguments: {} }))).toBe('the vault is open');
    // A tool the caller may not see is an unknown tool, whatever the revision.
    for (const user of users) await expect(user.callTool({ name: 'vault', arguments: {} })).rejects.toMatchObject({ code: -32602, message: 'Unknown tool: vault' });
    await expect(legacy.callTool({ name: 'vault', arguments: {} })).rejects.toThrow('Unknown tool: vault');
  });

  it('answers an invalid argument the same way in both revisions', async () => {
    const answers = await Promise.all(
      MODES.map(async (mode) => (await connect(mode)).callTool({ name: 'echo', arguments: { text: 5 } })),
    );
    for (const each of answers) {
      expect(each.isError).toBe(true);
      expect(answer(each)).toEqual(answer(answers[0]));
    }
    expect(answers[0]._meta).toMatchObject({ fieldErrors: [{ field: 'text', message: 'text must be a string' }] });
    expect(text(answers[0])).toMatch(/text/);
  });

  it('sends progress to the client in both revisions, and logs as the request asks', async () => {
    for (const mode of MODES) {
      const client = await connect(mode);
      const progress: number[] = [];
      const logs: unknown[] = [];
      client.setNotificationHandler('notifications/message', (notification) => void logs.push(notification.params.data));
      const result = await client.callTool(
        { name: 'echo', arguments: { text: 'slow' }, ...(mode === 'legacy' ? {} : { _meta: { [LOG_LEVEL_META_KEY]: 'debug' } }) },
        { onprogress: ({ progress: done }) => void progress.push(done) },
      );
      expect(text(result)).toBe('slow');
      expect({ mode, progress }).toEqual({ mode, progress: [1, 2] });
      expect({ mode, logs }).toEqual({ mode, logs: ['echoing slow'] });
    }
  });

  it('on 2026-07-28, a client that declares no elicitation cannot be asked, and a tool needing approval is refused, as on 2025-11-25', async () => {
    const modern = await connect('pin');
    const legacy = await connect('legacy');
    expect(text(await modern.callTool({ name: 'can_ask', arguments: {} }))).toBe('no');
    const refused = await modern.callTool({ name: 'wipe', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(answer(refused)).toEqual(answer(await legacy.callTool({ name: 'wipe', arguments: {} })));
  });

  it('tells a listening 2026-07-28 client and a 2025-11-25 session when the tool set changes', async () => {
    @Tool({ name: 'late', description: 'Added at run time' })
    class Late {
      call(): string {
        return 'late';
      }
    }
    const modern = await connect('pin');
    const legacy = await connect('legacy');
    const seen = { modern: 0, legacy: 0 };
    const arrived = {
      modern: new Promise<void>((resolve) =>
        modern.setNotificationHandler('notifications/tools/list_changed', () => void (seen.modern++, resolve())),
      ),
      legacy: new Promise<void>((resolve) =>
        legacy.setNotificationHandler('notifications/tools/list_changed', () => void (seen.legacy++, resolve())),
      ),
    };
    const subscription = await modern.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toMatchObject({ toolsListChanged: true });
    handle.tools.add(Late);
    try {
      await Promise.all([arrived.modern, arrived.legacy]);
      expect(seen).toEqual({ modern: 1, legacy: 1 });
      expect((await modern.listTools({ cacheMode: 'refresh' } as never)).tools.map((tool) => tool.name)).toContain('late');
      expect(text(await modern.callTool({ name: 'late', arguments: {} }))).toBe('late');
    } finally {
      await subscription.close();
      handle.tools.remove('late');
    }
  });
});

describe('serveStdio, both revisions', () => {
  const fixture = path.join(__dirname, '../../fixtures/mcp-revisions/stdio-server.ts');
  const repo = path.join(__dirname, '../../..');

  async function stdio(mode: Mode, env: Record<string, string> = {}): Promise<Client> {
    const client = v2Client(mode);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', fixture],
        cwd: repo,
        env: { ...(process.env as Record<string, string>), ...env },
        stderr: 'pipe',
      }),
    );
    open.push(client);
    return client;
  }

  it.each(MODES)('%s: lists and calls, with scopes, progress and the same invalid-argument answer', async (mode) => {
    const [user, admin] = await Promise.all([stdio(mode), stdio(mode, { ADMIN: '1' })]);
    expect(user.getProtocolEra()).toBe(mode === 'legacy' ? 'legacy' : 'modern');
    expect((await user.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['can_ask', 'echo', 'wipe']);
    expect((await admin.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['can_ask', 'echo', 'vault', 'wipe']);
    const progress: number[] = [];
    const result = await user.callTool({ name: 'echo', arguments: { text: 'hi' } }, { onprogress: ({ progress: done }) => void progress.push(done) });
    expect(text(result)).toBe('hi');
    expect(progress).toEqual([1, 2]);
    const invalid = await user.callTool({ name: 'echo', arguments: { text: 5 } });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toMatch(/text/);
    await expect(user.callTool({ name: 'vault', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  }, 60_000);
});
