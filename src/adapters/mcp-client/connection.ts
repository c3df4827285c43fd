/**
 * One connection to a remote MCP server through the SDK's Client (loaded lazily, see ./sdk). Made
 * only by `connectMcpServer`, from a server its policy admitted.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { DeclarationError, VERSION } from '../../index';
import { describeValue } from '../../adapter-kit';
import { isPlainObject } from '../../adapter-kit/internal';
import { AdmittedMcpServer, isAdmitted } from './admission';
import { loadSdk } from './sdk';
import type { McpServerConfig } from './server-config';

const STDERR_LINES = 20;

/** The client's name and version in `initialize`: this package's own. */
const CLIENT_INFO = { name: 'toolwright', version: VERSION };

export interface McpCallOptions {
  /** Aborts the call (the SDK sends `notifications/cancelled`). */
  signal?: AbortSignal;
  /**
   * May the call be sent again on a new connection when the connection drops during it? Only for
   * a tool that is safe to run twice (read-only or idempotent); default false.
   */
  retryable?: boolean;
}

export class McpServerConnection {
  private client?: Client;
  private open = false;
  private readonly stderr: string[] = [];
  private closed = false;
  readonly alias: string;
  private readonly config: Readonly<McpServerConfig>;

  /** @internal Use connectMcpServer. */
  constructor(
    server: AdmittedMcpServer,
    /** The whole environment of a command server's process (McpSecurityPolicy.environment). */
    private readonly env: Record<string, string> | undefined,
  ) {
    this.alias = server.alias;
    this.config = server.config;
  }

  /** The last lines a command server wrote to stderr, for error messages. */
  private stderrTail(): string {
    return this.stderr.length > 0 ? ` Its last words on stderr: ${this.stderr.join(' | ')}` : '';
  }

  /** @internal Starts or reaches the server; connectMcpServer calls it. */
  async connect(): Promise<void> {
    const { Client, StdioClientTransport, StreamableHTTPClientTransport } = await loadSdk();
    const client = new Client(CLIENT_INFO);
    let transport;
    if ('command' in this.config) {
      const stdio = new StdioClientTransport({
        command: this.config.command,
        args: this.config.args && [...this.config.args],
        env: this.env,
        cwd: this.config.cwd,
        stderr: 'pipe',
      });
      stdio.stderr?.on('data', (chunk: Buffer) => {
        for (const line of chunk
          .toString()
          .split('\n')
          .filter((l) => l.trim() !== '')) {
          this.stderr.push(line.trim());
          if (this.stderr.length > STDERR_LINES) this.stderr.shift();
        }
      });
      transport = stdio;
    } else {
      transport = new StreamableHTTPClientTransport(
        new URL(this.config.url),
        this.config.headers ? { requestInit: { headers: { ...this.config.headers } } } : undefined,
      );
    }
    client.onclose = () => {
      if (this.client === client) this.open = false;
    };
    try {
      await client.connect(transport);
    } catch (error) {
      await client.close().catch(() => undefined);
      const where = 'command' in this.config ? `starting '${this.config.command}'` : `reaching ${this.config.url}`;
      throw new Error(`MCP server '${this.alias}': ${where} failed: ${(error as Error).message}.${this.stderrTail()}`, { cause: error });
    }
    this.client = client;
    this.open = true;
  }

  /** Every tool the server lists (all pages). */
  async listTools(): Promise<McpTool[]> {
    const client = this.connected('listTools');
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  /**
   * Calls a tool by its wire name. A connection found dropped before the call is re-established
   * (once per call); one that drops during the call is re-established and the call retried only
   * when `retryable` (a read-only or idempotent tool), since it may already have run.
   */
  async callTool(name: string, args: Record<string, unknown> = {}, options: McpCallOptions = {}): Promise<CallToolResult> {
    if (typeof name !== 'string' || name === '') {
      throw new TypeError(`MCP server '${this.alias}': callTool needs a tool name; got ${describeValue(name)}.`);
    }
    if (!isPlainObject(args)) {
      throw new TypeError(`MCP server '${this.alias}': the arguments of '${name}' must be an object; got ${describeValue(args)}.`);
    }
    this.connected('callTool');
    const { signal, retryable = false } = options;
    let reconnected = false;
    if (!this.open) {
      await this.reconnect();
      reconnected = true;
    }
    try {
      return (await this.client!.callTool({ name, arguments: args }, undefined, { signal })) as CallToolResult;
    } catch (error) {
      const { ErrorCode } = await loadSdk();
      const dropped = (error as { code?: number }).code === ErrorCode.ConnectionClosed && !signal?.aborted && !this.open;
      if (!dropped || reconnected || !retryable) throw error;
      await this.reconnect();
      return (await this.client!.callTool({ name, arguments: args }, undefined, { signal })) as CallToolResult;
    }
  }

  /** The client, or a clear error once the connection was closed on purpose. */
  private connected(action: string): Client {
    if (this.closed) throw new Error(`MCP server '${this.alias}': ${action} after close(). Connect again with connectMcpServer.`);
    return this.client!;
  }

  private async reconnect(): Promise<void> {
    const old = this.client;
    this.client = undefined;
    this.open = false;
    await old?.close().catch(() => undefined);
    await this.connect();
  }

  /** Ends the connection (a command server's process exits); idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    this.open = false;
    await client?.close();
  }
}

/**
 * Starts or reaches an admitted server (see admitMcpServer) and completes the MCP handshake. The
 * MCP SDK (`@modelcontextprotocol/sdk`, an optional peer) is loaded now, on first use.
 */
export async function connectMcpServer(server: AdmittedMcpServer): Promise<McpServerConnection> {
  if (!isAdmitted(server)) {
    const got =
      typeof server === 'object' && server !== null
        ? 'an object admitMcpServer did not return (a copy, or made by hand)'
        : describeValue(server);
    throw new DeclarationError(
      `connectMcpServer takes a server admitted by admitMcpServer(alias, config, { security }); got ${got}. ` +
        'A config is checked against its security policy there, before anything starts.',
    );
  }
  const env = 'command' in server.config ? await server.security.environment(server.config.env) : undefined;
  const connection = new McpServerConnection(server, env);
  await connection.connect();
  return connection;
}
