/**
 * toolwright/mcp-client on the MCP SDK 2.x, against real servers of both revisions: the SDK 2.x
 * fixture (test/fixtures/mcp/v2-server.ts, both revisions over Streamable HTTP and stdio) and the
 * SDK 1.x fixture (fixture-server.cjs, a 2025-11-25-only peer). Negotiation per config, calls,
 * and a remote server that needs the user or the model mid-call, answered through the Toolbox
 * call's own context in both revisions.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ElicitResultSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { isToolwrightError } from 'toolwright';
import type { ElicitSchema, SampleRequest } from 'toolwright';
import { admitMcpServer, connectMcpServer, loadMcpConfig, McpSecurityPolicy, McpServerConnection } from 'toolwright/mcp-client';
import { Toolbox } from 'toolwright/openai';
import { startV2HttpServer, V2HttpServer } from '../../fixtures/mcp/v2-server';

const repo = path.resolve(__dirname, '..', '..', '..');
const legacyFixture = path.join(repo, 'test', 'fixtures', 'mcp', 'fixture-server.cjs');
const v2Stdio = { command: 'node', args: ['-r', 'ts-node/register/transpile-only', path.join(repo, 'test', 'fixtures', 'mcp', 'v2-server.ts')] };
const security = new McpSecurityPolicy({
  allowCommands: true,
  commandAllowlist: ['node'],
  allowUrls: true,
  allowPlainHttpOnLoopback: true,
  hostAllowlist: ['127.0.0.1'],
});

let server: V2HttpServer;
const open: McpServerConnection[] = [];
beforeAll(async () => {
  server = await startV2HttpServer();
});
afterAll(async () => {
  for (const connection of open) await connection.close();
  await server?.close();
});

async function connect(alias: string, config: object): Promise<McpServerConnection> {
  const connection = await connectMcpServer(admitMcpServer(alias, config, { security }));
  open.push(connection);
  return connection;
}

/** A 2025-11-25 server on the SDK 1.x with sessions whose `ask` tool sends elicitation/create on its call's stream. */
async function startLegacyAskingServer(): Promise<{ url: string; close(): Promise<void> }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const newSession = async () => {
    const mcp = new Server({ name: 'legacy-asking', version: '1.0.0' }, { capabilities: { tools: {} } });
    mcp.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: 'ask', inputSchema: { type: 'object' } }] }));
    mcp.setRequestHandler(CallToolRequestSchema, async (_request, extra) => {
      const answer = await extra.sendRequest(
        { method: 'elicitation/create', params: { message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } } },
        ElicitResultSchema,
      );
      return { content: [{ type: 'text', text: `Hello, ${String(answer.content?.name)}` }] };
    });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void transports.set(id, transport),
    });
    await mcp.connect(transport);
    return transport;
  };
  const httpServer = http.createServer((req, res) => {
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? transports.get(id) : undefined;
    void (known ? Promise.resolve(known) : newSession()).then((transport) => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      for (const transport of transports.values()) await transport.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

/** Handlers that answer a form with the name Ada and a prompt with a greeting, recording what they were asked. */
function handlers() {
  const asked: { forms: Array<{ message: string; schema: ElicitSchema }>; prompts: SampleRequest[] } = { forms: [], prompts: [] };
  const context = {
    elicit: async (message: string, schema: ElicitSchema) => {
      asked.forms.push({ message, schema });
      return { action: 'accept' as const, content: { name: 'Ada' } };
    },
    sample: async (request: SampleRequest) => {
      asked.prompts.push(request);
      return { role: 'assistant' as const, content: { type: 'text' as const, text: 'Hello, Ada!' }, model: 'test-model' };
    },
  };
  return { asked, context };
}

function textOf(result: { content: unknown }): string {
  return (result.content as Array<{ type: string; text: string }>)[0].text;
}

describe('negotiation: each config chooses its revision, with a default per transport', () => {
  it("a URL server defaults to 'auto' and lands on 2026-07-28 on a v2 server; a pin to 2025-11-25 keeps the handshake", async () => {
    const modern = await connect('v2http', { url: server.url });
    expect(modern.protocol).toBe('auto');
    expect(modern.negotiatedProtocol).toBe('2026-07-28');
    expect(textOf(await modern.callTool('era'))).toBe('modern');

    const legacy = await connect('v2http_legacy', { url: server.url, protocol: '2025-11-25' });
    expect(legacy.negotiatedProtocol).toBe('2025-11-25');
    expect(textOf(await legacy.callTool('era'))).toBe('legacy');
    // The same tool, the same answer, in both revisions.
    for (const connection of [modern, legacy]) {
      const echoed = await connection.callTool('echo', { text: 'hi' });
      expect(echoed.structuredContent).toEqual({ text: 'hi' });
    }
  });

  it("a command server defaults to 2025-11-25 (no probe process); 'auto' lands on 2026-07-28 on a v2 server", async () => {
    const plain = await connect('v2stdio', v2Stdio);
    expect(plain.protocol).toBe('2025-11-25');
    expect(plain.negotiatedProtocol).toBe('2025-11-25');
    expect(textOf(await plain.callTool('era'))).toBe('legacy');

    const auto = await connect('v2stdio_auto', { ...v2Stdio, protocol: 'auto' });
    expect(auto.negotiatedProtocol).toBe('2026-07-28');
    expect(textOf(await auto.callTool('era'))).toBe('modern');
  }, 30_000);

  it("'auto' falls back to 2025-11-25 on the 1.x server; a pin to 2026-07-28 fails to connect, naming the config field", async () => {
    const auto = await connect('legacy_auto', { command: 'node', args: [legacyFixture], protocol: 'auto' });
    expect(auto.negotiatedProtocol).toBe('2025-11-25');
    expect(textOf(await auto.callTool('plain'))).toBe('just text');

    const pinned = admitMcpServer('legacy_pin', { command: 'node', args: [legacyFixture], protocol: '2026-07-28' }, { security });
    await expect(connectMcpServer(pinned)).rejects.toThrow(
      /MCP server 'legacy_pin': starting '.*node' failed: .*2026-07-28.* Its config's 'protocol' is '2026-07-28', which the server does not offer; use protocol: 'auto'/,
    );
  }, 30_000);

  it("a protocol the client does not know is refused before anything starts, in a config and in a config file", async () => {
    const attempt = () => admitMcpServer('x', { url: server.url, protocol: '2026-01-01' }, { security });
    expect(attempt).toThrow("MCP server 'x': 'protocol' must be 'auto', '2025-11-25', '2026-07-28' or left out; got '2026-01-01'.");
    expect(isToolwrightError((() => { try { attempt(); } catch (error) { return error; } })())).toBe(true);
    expect(() => admitMcpServer('x', { command: 'node', protocol: 2026 }, { security })).toThrow("'protocol' must be");

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-protocol-'));
    const file = path.join(dir, 'mcp.json');
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { ok: { url: server.url, protocol: '2026-07-28' }, bad: { command: 'node', protocol: 'latest' } } }));
    await expect(loadMcpConfig(file)).rejects.toThrow("MCP server 'bad': 'protocol' must be 'auto', '2025-11-25', '2026-07-28' or left out; got 'latest'.");
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { ok: { url: server.url, protocol: '2026-07-28' } } }));
    expect(await loadMcpConfig(file)).toEqual({ ok: { url: server.url, protocol: '2026-07-28' } });
  });
});

describe('a remote tool that needs the user and the model mid-call, answered by the Toolbox call', () => {
  const toolbox = new Toolbox();
  afterAll(() => toolbox.close());

  beforeAll(async () => {
    await toolbox.addMcpServer('modern_http', { url: server.url }, { security });
    await toolbox.addMcpServer('modern_stdio', { ...v2Stdio, protocol: 'auto' }, { security });
    await toolbox.addMcpServer('legacy_stdio', v2Stdio, { security });
  }, 30_000);


  it.each([
    ['modern_http', 'modern'],
    ['modern_stdio', 'modern'],
    ['legacy_stdio', 'legacy'],
  ])('%s: an elicitation round, then a sampling round (the requestState echoed on 2026-07-28)', async (alias, era) => {
    const { asked, context } = handlers();
    const record = await toolbox.invoke({ id: `call-${alias}`, name: `mcp__${alias}__interview`, arguments: {} }, { context });
    expect(record).toMatchObject({ status: 'completed' });
    // The name reached the server's last round only through the signed requestState (modern) or the shim's session (legacy).
    expect(JSON.parse(record.output)).toEqual({ name: 'Ada', greeting: 'Hello, Ada!', era });
    expect(asked.forms).toEqual([
      { message: 'Your name?', schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    ]);
    expect(asked.prompts).toHaveLength(1);
    expect(asked.prompts[0]).toMatchObject({ messages: [{ role: 'user', content: { type: 'text', text: 'Greet Ada' } }], maxTokens: 50 });
  }, 30_000);

  const cannotAnswer = (alias: string, method: string) =>
    `The tool 'interview' on MCP server '${alias}' needs to ask the user or the model, and this call cannot answer: ` +
    `Cannot request input '${method === 'elicitation/create' ? 'name' : 'greeting'}' (${method}): the request's client capabilities do not declare the required capability. ` +
    'Pass the handlers in the call options (toolbox.invoke(call, { context: { elicit, sample } })).';

  it.each([
    // 2026-07-28: the call declares only what it can answer, so the server does not ask and says why.
    ['modern_http', (alias: string) => cannotAnswer(alias, 'elicitation/create')],
    ['modern_stdio', (alias: string) => cannotAnswer(alias, 'elicitation/create')],
    // 2025-11-25: the server asks (the capability is the connection's), the form is declined, the tool says so.
    ['legacy_stdio', () => 'The user chose decline.'],
  ])('%s: without handlers the request is declined, and the remote answer reaches the model (no hang)', async (alias, expected) => {
    const record = await toolbox.invoke({ name: `mcp__${alias}__interview`, arguments: {} });
    expect(record).toMatchObject({ status: 'failed', output: expected(alias) });
  });

  it.each(['modern_http', 'modern_stdio', 'legacy_stdio'])('%s: with an elicit handler only, the sampling round is refused', async (alias) => {
    const { asked, context } = handlers();
    const record = await toolbox.invoke({ name: `mcp__${alias}__interview`, arguments: {} }, { context: { elicit: context.elicit } });
    expect(asked.forms).toHaveLength(1);
    expect(record.status).toBe('failed');
    if (alias.startsWith('modern')) expect(record.output).toBe(cannotAnswer(alias, 'sampling/createMessage'));
    else expect(record.output).toMatch(/sampling\/createMessage.*declined: the call that caused it has no sample handler/);
  });

  it.each(['modern_http', 'modern_stdio'])('%s: each call is answered by its own handlers, concurrently', async (alias) => {
    const calls = ['Ada', 'Grace', 'Barbara'].map((name) =>
      toolbox.invoke(
        { name: `mcp__${alias}__interview`, arguments: {} },
        {
          context: {
            elicit: async () => ({ action: 'accept', content: { name } }),
            sample: async (request) => ({
              role: 'assistant',
              content: { type: 'text', text: `Hi ${(request.messages[0].content as { text: string }).text.slice(6)}` },
              model: 'm',
            }),
          },
        },
      ),
    );
    const outputs = (await Promise.all(calls)).map((record) => JSON.parse(record.output));
    expect(outputs.map((output) => [output.name, output.greeting])).toEqual([
      ['Ada', 'Hi Ada'],
      ['Grace', 'Hi Grace'],
      ['Barbara', 'Hi Barbara'],
    ]);
  });
});

describe('which call a 2025-11-25 request belongs to', () => {
  it('over stdio, with two calls in flight the request says neither: it is declined, never given to the wrong call', async () => {
    const connection = await connect('ambiguous', v2Stdio);
    const stop = new AbortController();
    // callTool registers its call before its first await: `wait` is in flight from here on.
    const waiting = connection.callTool('wait', {}, { signal: stop.signal }).catch((error: Error) => error);
    const { asked, context } = handlers();
    const result = await connection.callTool('interview', {}, { input: context });
    expect(textOf(result)).toBe('The user chose decline.');
    expect(asked.forms).toEqual([]);
    stop.abort();
    await waiting;
    // Alone, the same call is answered.
    const alone = await connection.callTool('interview', {}, { input: context });
    expect(JSON.parse(textOf(alone))).toMatchObject({ name: 'Ada', era: 'legacy' });
  }, 30_000);

  it('over Streamable HTTP the request arrives on its call\'s own stream: concurrent calls each get their own answer', async () => {
    const legacy = await startLegacyAskingServer();
    try {
      const connection = await connect('legacy_http', { url: legacy.url });
      expect(connection.negotiatedProtocol).toBe('2025-11-25');
      const names = ['Ada', 'Grace', 'Barbara'];
      const answers = await Promise.all(
        names.map((name) => connection.callTool('ask', {}, { input: { elicit: async () => ({ action: 'accept', content: { name } }) } })),
      );
      expect(answers.map(textOf)).toEqual(names.map((name) => `Hello, ${name}`));
    } finally {
      await legacy.close();
    }
  });
});

describe('x-mcp-header: the Toolbox passes the listed definition, and the SDK mirrors the designated argument', () => {
  it('2026-07-28 over HTTP: the server receives Mcp-Param-Region with the argument, in one tools/call', async () => {
    const toolbox = new Toolbox();
    try {
      await toolbox.addMcpServer('headers', { url: server.url }, { security });
      server.methods.length = 0;
      const record = await toolbox.invoke({ name: 'mcp__headers__region', arguments: { region: 'eu-west-1' } });
      expect(JSON.parse(record.output)).toEqual({ region: 'eu-west-1', header: 'eu-west-1' });
      expect(server.methods).toEqual(['tools/call']);
    } finally {
      await toolbox.close();
    }
  });

  it('a connection given the definition mirrors on its first call, with no tools/list of its own', async () => {
    const lister = await connect('lister', { url: server.url });
    const region = (await lister.listTools()).find((tool) => tool.name === 'region');
    server.methods.length = 0;
    const fresh = await connect('fresh', { url: server.url });
    const result = await fresh.callTool('region', { region: 'ap-south-1' }, { tool: region });
    expect(JSON.parse(textOf(result))).toEqual({ region: 'ap-south-1', header: 'ap-south-1' });
    expect(server.methods).toEqual(['server/discover', 'tools/call']);
  });
});
