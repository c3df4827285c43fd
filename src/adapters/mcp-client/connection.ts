/**
 * One connection to a remote MCP server through the SDK's Client (loaded lazily, see ./sdk).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { loadSdk } from './sdk';
import type { McpServerConfig } from './server-config';

const STDERR_LINES = 20;

export class RemoteConnection {
  private client?: Client;
  private open = false;
  private readonly stderr: string[] = [];

  constructor(
    readonly alias: string,
    private readonly config: McpServerConfig,
    /** The whole environment of a command server's process (McpSecurityPolicy.environment). */
    private readonly env: Record<string, string> | undefined,
  ) {}

  /** The last lines a command server wrote to stderr, for error messages. */
  private stderrTail(): string {
    return this.stderr.length > 0 ? ` Its last words on stderr: ${this.stderr.join(' | ')}` : '';
  }

  async connect(): Promise<void> {
    const { Client, StdioClientTransport, StreamableHTTPClientTransport } = await loadSdk();
    const client = new Client({ name: 'toolwright-toolbox', version: '1.0.0' });
    let transport;
    if ('command' in this.config) {
      const stdio = new StdioClientTransport({
        command: this.config.command,
        args: this.config.args,
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
        this.config.headers ? { requestInit: { headers: this.config.headers } } : undefined,
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
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client!.listTools(cursor ? { cursor } : undefined);
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
  async callTool(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal | undefined,
    retryable: boolean,
  ): Promise<CallToolResult> {
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

  private async reconnect(): Promise<void> {
    const old = this.client;
    this.client = undefined;
    this.open = false;
    await old?.close().catch(() => undefined);
    await this.connect();
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.open = false;
    await client?.close();
  }
}
