/**
 * toolwright/mcp-client on its own: admitting a server under a policy, connecting to a real SDK
 * server over Streamable HTTP on 127.0.0.1, listing and calling its tools, closing; and what
 * importing the entry point does (nothing).
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { isToolwrightError, VERSION } from 'toolwright';
import * as openai from 'toolwright/openai';
import {
  admitMcpServer,
  AdmittedMcpServer,
  connectMcpServer,
  loadMcpConfig,
  McpSecurityError,
  McpSecurityPolicy,
  REFUSED_ENV_VARIABLES,
} from 'toolwright/mcp-client';

const repo = path.resolve(__dirname, '..', '..', '..');
const loopback = new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['127.0.0.1'] });

interface TestServer {
  readonly url: string;
  /** The clientInfo each session sent in `initialize`. */
  readonly clients: Array<{ name: string; version: string } | undefined>;
  close(): Promise<void>;
}

/** An MCP server written against the SDK directly, over Streamable HTTP on 127.0.0.1, one session per client. */
async function startServer(): Promise<TestServer> {
  const clients: TestServer['clients'] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const newSession = async () => {
    const server = new Server({ name: 'test-server', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.oninitialized = () => clients.push(server.getClientVersion());
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        { name: 'echo', description: 'Echoes a text', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
        { name: 'count', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      const args = request.params.arguments ?? {};
      if (request.params.name === 'echo') return { content: [{ type: 'text', text: String(args.text) }], structuredContent: { text: args.text } };
      return { content: [{ type: 'text', text: String(Object.keys(args).length) }] };
    });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void transports.set(id, transport),
    });
    await server.connect(transport);
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
    clients,
    close: async () => {
      for (const transport of transports.values()) await transport.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

describe('connecting, listing, calling, closing', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it("sends toolwright's own name and version (package.json) in initialize, lists every tool and calls one", async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { name: string; version: string };
    expect(VERSION).toBe(manifest.version);
    const connection = await connectMcpServer(admitMcpServer('local', { url: server.url }, { security: loopback }));
    try {
      expect(server.clients.at(-1)).toEqual({ name: manifest.name, version: manifest.version });
      expect(connection.alias).toBe('local');
      expect((await connection.listTools()).map((tool) => tool.name)).toEqual(['echo', 'count']);
      const echoed = await connection.callTool('echo', { text: 'hi' });
      expect(echoed).toMatchObject({ content: [{ type: 'text', text: 'hi' }], structuredContent: { text: 'hi' } });
      expect(await connection.callTool('count', undefined, { retryable: true })).toMatchObject({ content: [{ type: 'text', text: '0' }] });
    } finally {
      await connection.close();
    }
  });

  it('bad calls are clear errors, and a closed connection is not silently reopened', async () => {
    const connection = await connectMcpServer(admitMcpServer('local', { url: server.url }, { security: loopback }));
    await expect(connection.callTool('', {})).rejects.toThrow("MCP server 'local': callTool needs a tool name; got ''.");
    await expect(connection.callTool('echo', [1] as never)).rejects.toThrow("MCP server 'local': the arguments of 'echo' must be an object; got [1].");
    const sessions = server.clients.length;
    await connection.close();
    await connection.close(); // idempotent
    await expect(connection.callTool('echo', { text: 'again' })).rejects.toThrow("MCP server 'local': callTool after close(). Connect again with connectMcpServer.");
    await expect(connection.listTools()).rejects.toThrow('listTools after close()');
    expect(server.clients.length).toBe(sessions);
  });
});

describe('admission: the policy decides before anything starts', () => {
  it('without a policy nothing is admitted (deny-all), and the error names the server and the rule', () => {
    const error = (() => {
      try {
        admitMcpServer('remote', { url: 'https://tools.example.com/mcp' });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(McpSecurityError);
    expect(isToolwrightError(error)).toBe(true);
    expect(error).toMatchObject({ server: 'remote', transport: 'url', rule: 'allowUrls' });
  });

  it('a forged admission is refused: connectMcpServer takes only what admitMcpServer returned', async () => {
    const forged: AdmittedMcpServer = { alias: 'x', config: { url: 'https://tools.example.com/mcp' }, security: McpSecurityPolicy.trusted() };
    await expect(connectMcpServer(forged)).rejects.toThrow(
      "connectMcpServer takes a server admitted by admitMcpServer(alias, config, { security }); got an object admitMcpServer did not return (a copy, or made by hand).",
    );
    // A copy of a real admission is a forgery too: it could carry a different config.
    const real = admitMcpServer('local', { url: 'http://127.0.0.1:9/mcp' }, { security: loopback });
    await expect(connectMcpServer({ ...real, config: { url: 'http://10.0.0.1/mcp' } })).rejects.toThrow('connectMcpServer takes a server admitted by admitMcpServer');
    await expect(connectMcpServer('local' as never)).rejects.toThrow("got 'local'.");
  });

  it('an admitted server cannot be changed afterwards (its config and lists are frozen)', () => {
    const server = admitMcpServer('cmd', { command: 'node', args: ['server.js'], env: { MODE: 'x' } }, { security: new McpSecurityPolicy({ allowCommands: true, commandAllowlist: ['node'] }) });
    expect(path.isAbsolute((server.config as { command: string }).command)).toBe(true); // resolved on this PATH now
    expect(() => ((server.config as { command: string }).command = '/tmp/evil')).toThrow(TypeError);
    expect(() => (server.config as { args: string[] }).args.push('--inspect')).toThrow(TypeError);
    expect(() => ((server.config as { env: Record<string, string> }).env.NODE_OPTIONS = '--require /tmp/x.js')).toThrow(TypeError);
  });

  it('names a wrong option, a wrong policy and a bad alias, with the fix', () => {
    expect(() => admitMcpServer('a', { url: 'https://h/mcp' }, { security: loopback, update: true } as never)).toThrow(
      "admitMcpServer: unknown option 'update'. Known options: security.",
    );
    expect(() => admitMcpServer('a', { url: 'https://h/mcp' }, { security: { allowUrls: true } } as never)).toThrow(
      "admitMcpServer: 'security' must be an McpSecurityPolicy",
    );
    expect(() => admitMcpServer('a b', { url: 'https://h/mcp' })).toThrow("admitMcpServer: the server alias 'a b' must be letters, digits, '_' or '-'");
    expect(() => admitMcpServer('a', { url: 'https://h/mcp' }, null as never)).toThrow('admitMcpServer: the options must be an object');
  });
});

describe('loadMcpConfig reads a config file and starts nothing', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-mcp-client-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('returns each server by alias, checked', async () => {
    const file = path.join(dir, 'mcp.json');
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { web: { type: 'http', url: 'https://tools.example.com/mcp' }, fs: { command: 'npx', args: ['server-fs'] } } }));
    expect(await loadMcpConfig(file)).toEqual({
      web: { url: 'https://tools.example.com/mcp', headers: undefined },
      fs: { command: 'npx', args: ['server-fs'], env: undefined, cwd: undefined },
    });
  });

  it('names the file and what is wrong with it', async () => {
    const file = path.join(dir, 'bad.json');
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { web: { url: 'https://h/mcp', header: {} } } }));
    await expect(loadMcpConfig(file)).rejects.toThrow("MCP server 'web': unknown key 'header'. Known keys: url, headers, auth, protocol.");
    await expect(loadMcpConfig(path.join(dir, 'missing.json'))).rejects.toThrow(`loadMcpConfig: cannot read ${path.join(dir, 'missing.json')}`);
  });
});

describe('the entry point', () => {
  it('toolwright/openai still exports the moved names (deprecated), as the very same values', () => {
    expect(openai.McpSecurityPolicy).toBe(McpSecurityPolicy);
    expect(openai.McpSecurityError).toBe(McpSecurityError);
    expect(openai.REFUSED_ENV_VARIABLES).toBe(REFUSED_ENV_VARIABLES);
    const policy: openai.McpSecurityPolicy = new McpSecurityPolicy();
    expect(policy).toBeInstanceOf(openai.McpSecurityPolicy);
  });

  it('importing it registers nothing and does not load the MCP SDK', async () => {
    const script = [
      "const { Tools } = require('toolwright');",
      "const { Extensions } = require('toolwright/kit');",
      'const before = { adapters: Tools.adapters(), hints: Extensions.semanticHints(), keys: Extensions.fieldMetadataKeys() };',
      "const client = require('toolwright/mcp-client');",
      "new client.McpSecurityPolicy({ allowUrls: true }).check('a', { url: 'https://h/mcp' });",
      'const after = { adapters: Tools.adapters(), hints: Extensions.semanticHints(), keys: Extensions.fieldMetadataKeys() };',
      "const sdk = Object.keys(require.cache).filter((file) => file.includes('@modelcontextprotocol'));",
      'console.log(JSON.stringify({ before, after, sdk, exported: Object.keys(client).sort() }));',
    ].join('\n');
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', '-e', script],
        { cwd: repo, encoding: 'utf8' },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
      ),
    );
    const { before, after, sdk, exported } = JSON.parse(stdout);
    expect(after).toEqual(before);
    expect(before.adapters).toEqual([]);
    expect(sdk).toEqual([]);
    expect(exported).toEqual([
      'FileTokenStore',
      'McpAuthError',
      'McpSecurityError',
      'McpSecurityPolicy',
      'MemoryTokenStore',
      'OAUTH_RESPONSE_LIMIT',
      'REFUSED_ENV_VARIABLES',
      'RedisTokenStore',
      'admitMcpServer',
      'connectMcpServer',
      'loadMcpConfig',
      'remoteMemberDefinition',
      'remoteToolDefinition',
      'remoteToolProblem',
    ]);
  }, 30_000);
});
