/**
 * Both MCP revisions on one endpoint: the SDK 2.x Client in its default (2025-11-25) mode, in `auto`
 * mode and pinned to 2026-07-28, and the 1.x Client, all against ONE `serveHttp` endpoint at the same
 * time, and against `serveStdio` in a child process. Each lists and calls tools; scopes hold per
 * revision; an invalid argument is answered the same way; progress reaches the client; a tool-set
 * change reaches a listening 2026-07-28 client; server/discover is answered.
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import * as path from 'node:path';
import { Client, LOG_LEVEL_META_KEY, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AmbientContext, Expects, Tool, ToolContext } from 'toolwright';
import { McpHttpHandle, serveHttp } from 'toolwright/mcp';
import { revisionTools } from '../../fixtures/mcp-revisions/tools';
import { connectStdioFixture, modernHeaders, MODERN_ENVELOPE, v2Client, V2Mode, scopedTokens } from '../../helpers/mcp';

const auth = scopedTokens({ admin: ['admin'], user: [] });

const MODES: V2Mode[] = ['legacy', 'auto', 'pin'];

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

async function connect(mode: V2Mode, token = 'user'): Promise<Client> {
  const client = v2Client(`revisions-${mode}`, mode);
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

  it('ambientContext sees the same request in both revisions: the verified token, the headers, the revision', async () => {
    class WhoInput {
      @AmbientContext() caller!: string;
      @AmbientContext() agent!: string;
      @AmbientContext() revision!: string;
    }
    @Tool({ name: 'who', description: 'Who is calling, from trusted values' })
    @Expects(WhoInput)
    class Who {
      call(input: WhoInput): string {
        return `${input.caller} via ${input.agent} on ${input.revision}`;
      }
    }
    const served = await serveHttp(
      {
        name: 'who',
        version: '1',
        tools: [Who],
        ambientContext: (request) => ({
          caller: request.authInfo?.clientId,
          agent: request.headers?.['x-agent'],
          revision: request.protocolVersion ?? 'none',
        }),
      },
      { port: 0, auth },
    );
    try {
      const answers: string[] = [];
      for (const mode of MODES) {
        const client = v2Client(`revisions-${mode}`, mode);
        await client.connect(
          new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { Authorization: 'Bearer admin', 'X-Agent': mode } } }),
        );
        open.push(client);
        answers.push(text(await client.callTool({ name: 'who', arguments: {} })));
        // A caller cannot pass a trusted value as an argument, whatever the revision.
        expect((await client.callTool({ name: 'who', arguments: { caller: 'mallory' } })).isError).toBe(true);
      }
      expect(answers).toEqual(['admin via legacy on 2025-11-25', 'admin via auto on 2026-07-28', 'admin via pin on 2026-07-28']);
    } finally {
      await served.close();
    }
  });

  it('a 2026-07-28 request meets the same host rules and authentication before anything else', async () => {
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const post = (headers: Record<string, string>, body: string = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope } })) =>
      new Promise<number>((resolve, reject) => {
        const req = request(handle.url, {
          method: 'POST',
          headers: { ...modernHeaders('tools/list'), ...headers },
        });
        req.on('error', reject);
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.end(body);
      });
    expect(await post({ authorization: 'Bearer user' })).toBe(200);
    expect(await post({})).toBe(401);
    expect(await post({ authorization: 'Bearer forged' })).toBe(401);
    expect(await post({ authorization: 'Bearer user', host: 'evil.example:80' })).toBe(403);
    await expect(connect('pin', 'forged')).rejects.toThrow();
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
    expect(text(await modern.callTool({ name: 'can_ask', arguments: {} }))).toMatch(
      /^no: .*the MCP client did not declare the elicitation capability \(form mode\) in this request \(MCP 2026-07-28 clients declare it per request\)/,
    );
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
      expect((await modern.listTools()).tools.map((tool) => tool.name)).toContain('late');
      expect(text(await modern.callTool({ name: 'late', arguments: {} }))).toBe('late');
    } finally {
      await subscription.close();
      handle.tools.remove('late');
    }
  });
});

describe('a 2026-07-28 call whose client goes away', () => {
  it('is aborted: the tool sees its signal fire', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let aborted!: (reason: unknown) => void;
    const abortedWith = new Promise<unknown>((resolve) => (aborted = resolve));
    @Tool({ name: 'wait_forever', description: 'Waits until cancelled' })
    @Expects({})
    class WaitForever {
      call(_input: unknown, context: ToolContext) {
        started();
        return new Promise((_resolve, reject) =>
          context.signal.addEventListener('abort', () => {
            aborted(context.signal.reason);
            reject(context.signal.reason);
          }),
        );
      }
    }
    const served = await serveHttp({ name: 'abort', version: '1', tools: [WaitForever] }, { port: 0 });
    try {
      const req = request(served.url, {
        method: 'POST',
        headers: modernHeaders('tools/call', 'wait_forever'),
      });
      req.on('error', () => undefined);
      req.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'wait_forever',
            arguments: {},
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      );
      await running;
      req.destroy();
      await expect(abortedWith).resolves.toBeDefined();
    } finally {
      await served.close();
    }
  });
});

describe("a 2026-07-28 call's signal", () => {
  it('follows the request with one listener, not AbortSignal.any (tens of µs and WeakRef bookkeeping per call on Node 20)', async () => {
    @Tool({ name: 'quick', description: 'Answers at once' })
    @Expects({})
    class Quick {
      call(_input: unknown, context: ToolContext) {
        return context.signal.aborted ? 'aborted' : 'running';
      }
    }
    const served = await serveHttp({ name: 'signals', version: '1', tools: [Quick] }, { port: 0 });
    const any = jest.spyOn(AbortSignal, 'any');
    try {
      const body = await new Promise<string>((resolve, reject) => {
        const req = request(served.url, { method: 'POST', headers: modernHeaders('tools/call', 'quick') }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve(text)).on('error', reject);
        });
        req.on('error', reject);
        req.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'quick', arguments: {}, _meta: MODERN_ENVELOPE },
          }),
        );
      });
      expect(body).toContain('"text":"running"');
      expect(any).not.toHaveBeenCalled();
    } finally {
      any.mockRestore();
      await served.close();
    }
  });

  it("is the run's alone once the call has answered: closing the request's server after the answer aborts nothing the tool kept", async () => {
    const kept: AbortSignal[] = [];
    @Tool({ name: 'keep', description: 'Keeps its signal' })
    @Expects({})
    class Keep {
      call(_input: unknown, context: ToolContext) {
        kept.push(context.signal);
        return 'kept';
      }
    }
    const served = await serveHttp({ name: 'signals', version: '1', tools: [Keep] }, { port: 0 });
    const client = v2Client('keep', 'pin');
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
      expect(text(await client.callTool({ name: 'keep', arguments: {} }))).toBe('kept');
      await client.close();
    } finally {
      await served.close();
    }
    expect(kept).toHaveLength(1);
    expect(kept[0].aborted).toBe(false);
  });
});

describe('serveStdio, both revisions', () => {
  const fixture = path.join(__dirname, '../../fixtures/mcp-revisions/stdio-server.ts');
  const repo = path.join(__dirname, '../../..');

  async function stdio(mode: V2Mode, env: Record<string, string> = {}): Promise<Client> {
    const client = await connectStdioFixture(v2Client(`revisions-${mode}`, mode), fixture, { env });
    open.push(client);
    return client;
  }

  // One child process at a time (auto mode spawns a second one for its probe): ts-node start-up is slow on a loaded machine.
  it.each(MODES)('%s: lists and calls, with scopes and the same invalid-argument answer', async (mode) => {
    const user = await stdio(mode);
    expect(user.getProtocolEra()).toBe(mode === 'legacy' ? 'legacy' : 'modern');
    expect((await user.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['can_ask', 'echo', 'grow', 'wipe']);
    // (Progress over stdio is checked on the wire below: the SDK clients, 1.x and 2.x alike, dispatch a
    // notification a microtask after it arrives and a response at once, so a progress notification read
    // in the same chunk as the call's response finds its handler gone and is dropped by the client.)
    expect(text(await user.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');
    const invalid = await user.callTool({ name: 'echo', arguments: { text: 5 } });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toMatch(/text/);
    await expect(user.callTool({ name: 'vault', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await user.close();
  }, 120_000);

  /** The lines the server writes for these requests, up to and including the response with id `until`. */
  async function wire(messages: object[], until: number): Promise<Array<Record<string, unknown>>> {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', fixture], { cwd: repo });
    const lines: Array<Record<string, unknown>> = [];
    let buffer = '';
    try {
      return await new Promise((resolve, reject) => {
        child.on('exit', (code) => reject(new Error(`the server exited (${code})`)));
        child.stdout.on('data', (chunk: Buffer) => {
          buffer += chunk.toString('utf8');
          let end: number;
          while ((end = buffer.indexOf('\n')) >= 0) {
            const line = JSON.parse(buffer.slice(0, end)) as Record<string, unknown>;
            buffer = buffer.slice(end + 1);
            lines.push(line);
            if (line.id === until) resolve(lines);
          }
        });
        for (const message of messages) child.stdin.write(`${JSON.stringify(message)}\n`);
      });
    } finally {
      child.kill();
    }
  }

  it('progress and logs reach the client on the wire, before the result, in both revisions', async () => {
    const call = (id: number, meta: object) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'hi' }, _meta: { progressToken: 'p', ...meta } },
    });
    const legacy = await wire(
      [
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        call(2, {}),
      ],
      2,
    );
    const modern = await wire(
      [
        call(1, {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
          [LOG_LEVEL_META_KEY]: 'info',
        }),
      ],
      1,
    );
    for (const [lines, id] of [[legacy, 2], [modern, 1]] as const) {
      // The call's notifications and its result (not the initialize answer, which may come between).
      const after = lines.filter((line) => line.id === undefined || line.id === id);
      expect(after.map((line) => line.method ?? `result ${String(line.id)}`)).toEqual([
        'notifications/progress',
        'notifications/message',
        'notifications/progress',
        `result ${id}`,
      ]);
      expect(after.filter((line) => line.method === 'notifications/progress').map((line) => (line.params as { progress: number }).progress)).toEqual([1, 2]);
    }
  }, 120_000);

  it('pinned to 2026-07-28: the scopes of unauthenticated requests (unauthenticatedScopes) show the scoped tool', async () => {
    const admin = await stdio('pin', { ADMIN: '1' });
    expect((await admin.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['can_ask', 'echo', 'grow', 'vault', 'wipe']);
    expect(text(await admin.callTool({ name: 'vault', arguments: {} }))).toBe('the vault is open');
  }, 120_000);

  it.each(['legacy', 'pin'] as const)('%s: a tool added at run time reaches the client (2026-07-28: on its subscriptions/listen stream)', async (mode) => {
    const client = await stdio(mode);
    const changed = new Promise<void>((resolve) => client.setNotificationHandler('notifications/tools/list_changed', () => resolve()));
    const subscription = mode === 'pin' ? await client.listen({ toolsListChanged: true }) : undefined;
    expect(text(await client.callTool({ name: 'grow', arguments: {} }))).toBe('grown');
    await changed;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('late');
    await subscription?.close();
  }, 120_000);
});
