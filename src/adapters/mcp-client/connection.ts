/**
 * One connection to a remote MCP server through the SDK's Client (`@modelcontextprotocol/client`
 * 2.x, loaded lazily, see ./sdk), in the revision its config asks for. Made only by
 * `connectMcpServer`, from a server its policy admitted.
 */
import type {
  CallToolResult,
  Client,
  CompleteRequest,
  CompleteResult,
  FetchLike,
  GetPromptResult,
  Tool as McpTool,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  ServerCapabilities,
} from '@modelcontextprotocol/client';
import { DeclarationError, VERSION } from '../../index';
import { describeValue } from '../../adapter-kit';
import { isPlainObject } from '../../adapter-kit/internal';
import { AdmittedMcpServer, isAdmitted } from './admission';
import { CAPABILITIES_META, capabilitiesOf, CLIENT_CAPABILITIES, InputRouter, McpInputHandlers } from './input-requests';
import { loadSdk, Sdk } from './sdk';
import { defaultProtocol, McpProtocol, McpServerConfig } from './server-config';
import { authFailure, serverOAuthFetch } from './oauth/server-oauth';

const STDERR_LINES = 20;

/** The client's name and version in `initialize`: this package's own. */
const CLIENT_INFO = { name: 'toolwright', version: VERSION };

/** The options of one call to a remote tool (`connection.callTool(name, args, { ... })`): its signal, and whether it may be sent again after a dropped connection. */
export interface McpCallOptions {
  /** Aborts the call (the SDK sends `notifications/cancelled`). */
  signal?: AbortSignal;
  /**
   * May the call be sent again on a new connection when the connection drops during it? Only for
   * a tool that is safe to run twice (read-only or idempotent); default false.
   */
  retryable?: boolean;
  /**
   * How this call answers the server when it needs the user (`elicit`) or the model (`sample`)
   * mid-call, in either revision. Without a handler such a request is declined.
   */
  input?: McpInputHandlers;
  /**
   * The tool's definition as the server listed it: the SDK mirrors the arguments it designates
   * (`x-mcp-header`) into request headers on 2026-07-28 over HTTP, and checks the result against its
   * output schema. Default: what the server listed.
   */
  tool?: McpTool;
}

/** A list a server may say changed (`notifications/<list>/list_changed`). */
export type McpListKind = 'tools' | 'resources' | 'prompts';

/** The revision a connection speaks, once connected. */
export type McpNegotiatedProtocol = '2025-11-25' | '2026-07-28' | (string & {});

/** The SDK's `versionNegotiation` for a config's `protocol`. */
function negotiation(protocol: McpProtocol): { mode: 'legacy' | 'auto' | { pin: string } } {
  if (protocol === 'auto') return { mode: 'auto' };
  return protocol === '2025-11-25' ? { mode: 'legacy' } : { mode: { pin: protocol } };
}

type RoutingClientClass = new (router: InputRouter, protocol: McpProtocol) => Client;
const routingClients = new WeakMap<Sdk, RoutingClientClass>();

/**
 * The Client class (one per loaded SDK) that fulfils a 2026-07-28 `input_required` answer in the
 * scope of the call it answers: `_resolveNonCompleteResult` is the SDK's extension point for it,
 * and the originating call's options carry the call's own signal. (The concurrent-calls tests over
 * stdio fail if the SDK stops calling it.)
 */
function routingClientClass(sdk: Sdk): RoutingClientClass {
  let found = routingClients.get(sdk);
  if (found === undefined) {
    class RoutingClient extends sdk.Client {
      constructor(
        private readonly toolwrightRouter: InputRouter,
        protocol: McpProtocol,
      ) {
        super(CLIENT_INFO, { capabilities: structuredClone(CLIENT_CAPABILITIES), versionNegotiation: negotiation(protocol) });
        toolwrightRouter.install(this, sdk);
      }
      protected override _resolveNonCompleteResult(decoded: never, flow: never): Promise<unknown> {
        const signal = (flow as { options?: { signal?: AbortSignal } }).options?.signal;
        return this.toolwrightRouter.within(signal, () => super._resolveNonCompleteResult(decoded, flow));
      }
    }
    routingClients.set(sdk, (found = RoutingClient));
  }
  return found;
}

/**
 * A connection to one admitted remote MCP server (from `connectMcpServer`): list and call its tools,
 * read its resources and prompts, follow its list changes, and `close()` it.
 */
export class McpServerConnection {
  private client?: Client;
  private open = false;
  private readonly stderr: string[] = [];
  private closed = false;
  readonly alias: string;
  /** The revision the config asks for: its `protocol`, or the default for its transport. */
  readonly protocol: McpProtocol;
  private readonly config: Readonly<McpServerConfig>;
  private readonly router: InputRouter;
  private readonly changeListeners = new Set<(list: McpListKind) => void>();
  private subscription?: { close(): Promise<void> };
  /** A server with `auth`: its fetch (one provider, its tokens and flow, for every reconnect of this connection). */
  private oauthFetch?: FetchLike;

  /** @internal Use connectMcpServer. */
  constructor(
    server: AdmittedMcpServer,
    /** The whole environment of a command server's process (McpSecurityPolicy.environment). */
    private readonly env: Record<string, string> | undefined,
  ) {
    this.alias = server.alias;
    this.config = server.config;
    this.protocol = server.config.protocol ?? defaultProtocol(server.config);
    this.router = new InputRouter(server.alias);
    if ('url' in server.config && server.config.auth)
      this.oauthFetch = serverOAuthFetch(server.alias, server.config.url, server.config.auth, server.security);
  }

  /**
   * The revision the connection negotiated (`'2025-11-25'`, `'2026-07-28'`); undefined before it
   * connected and after close(). Under `protocol: 'auto'` it is what the server offered.
   */
  get negotiatedProtocol(): McpNegotiatedProtocol | undefined {
    return this.client?.getNegotiatedProtocolVersion();
  }

  /** The last lines a command server wrote to stderr, for error messages. */
  private stderrTail(): string {
    return this.stderr.length > 0 ? ` Its last words on stderr: ${this.stderr.join(' | ')}` : '';
  }

  /** @internal Starts or reaches the server; connectMcpServer calls it. */
  async connect(): Promise<void> {
    const sdk = await loadSdk();
    const { StdioClientTransport, StreamableHTTPClientTransport } = sdk;
    const client = new (routingClientClass(sdk))(this.router, this.protocol);
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
      transport = new StreamableHTTPClientTransport(new URL(this.config.url), {
        ...(this.config.headers ? { requestInit: { headers: { ...this.config.headers } } } : {}),
        ...(this.oauthFetch ? { fetch: this.oauthFetch } : {}),
      });
    }
    client.onclose = () => {
      if (this.client === client) this.open = false;
    };
    try {
      await client.connect(transport);
    } catch (error) {
      await client.close().catch(() => undefined);
      // The OAuth flow's own errors (the policy refused a URL, the flow failed) say what went wrong already.
      const refused = authFailure(error);
      if (refused !== undefined) throw refused;
      const where = 'command' in this.config ? `starting '${this.config.command}'` : `reaching ${this.config.url}`;
      const pinned =
        (error as { code?: unknown }).code === sdk.SdkErrorCode.EraNegotiationFailed && this.protocol !== 'auto'
          ? ` Its config's 'protocol' is '${this.protocol}', which the server does not offer; use protocol: 'auto' (or the revision it speaks).`
          : '';
      throw new Error(`MCP server '${this.alias}': ${where} failed: ${(error as Error).message}.${pinned}${this.stderrTail()}`, {
        cause: error,
      });
    }
    this.client = client;
    this.open = true;
    if (this.changeListeners.size > 0) await this.watch(client);
  }

  /**
   * Calls `listener` whenever the server says one of its lists changed, on either revision (on
   * 2026-07-28 through a `subscriptions/listen` stream this opens for the lists the server says
   * change), also after a reconnect. Returns the unsubscribe.
   */
  onListChanged(listener: (list: McpListKind) => void): () => void {
    this.changeListeners.add(listener);
    if (this.changeListeners.size === 1 && this.client && this.open) void this.watch(this.client);
    return () => void this.changeListeners.delete(listener);
  }

  private async watch(client: Client): Promise<void> {
    const tell = (list: McpListKind) => () => {
      for (const listener of this.changeListeners) listener(list);
    };
    client.setNotificationHandler('notifications/tools/list_changed', tell('tools'));
    client.setNotificationHandler('notifications/resources/list_changed', tell('resources'));
    client.setNotificationHandler('notifications/prompts/list_changed', tell('prompts'));
    if (client.getProtocolEra() !== 'modern') return; // 2025-11-25: the server sends them unasked
    const capabilities = client.getServerCapabilities() ?? {};
    const filter = {
      ...(capabilities.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(capabilities.resources?.listChanged ? { resourcesListChanged: true } : {}),
      ...(capabilities.prompts?.listChanged ? { promptsListChanged: true } : {}),
    };
    if (Object.keys(filter).length === 0) return;
    try {
      const subscription = await client.listen(filter);
      if (this.client !== client) return void subscription.close().catch(() => undefined);
      this.subscription = subscription;
    } catch {
      // A server that refuses the stream sends no changes; its lists are read as they were.
    }
  }

  /** What the server said it offers when it connected (undefined before). */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.client?.getServerCapabilities();
  }

  /** Every resource the server lists (all pages); none when it offers no resources. */
  async listResources(): Promise<Resource[]> {
    if (!this.serverCapabilities?.resources) return [];
    return this.pages((client, cursor) =>
      client.listResources(cursor ? { cursor } : undefined).then((page) => [page.resources, page.nextCursor]),
    );
  }

  /** Every resource template the server lists (all pages); none when it offers no resources. */
  async listResourceTemplates(): Promise<ResourceTemplate[]> {
    if (!this.serverCapabilities?.resources) return [];
    return this.pages((client, cursor) =>
      client.listResourceTemplates(cursor ? { cursor } : undefined).then((page) => [page.resourceTemplates, page.nextCursor]),
    );
  }

  /** Every prompt the server lists (all pages); none when it offers no prompts. */
  async listPrompts(): Promise<Prompt[]> {
    if (!this.serverCapabilities?.prompts) return [];
    return this.pages((client, cursor) =>
      client.listPrompts(cursor ? { cursor } : undefined).then((page) => [page.prompts, page.nextCursor]),
    );
  }

  /** Reads a resource by its URI (a connection found dropped is re-established first). */
  async readResource(uri: string, options: { signal?: AbortSignal } = {}): Promise<ReadResourceResult> {
    return (await this.reconnected('readResource')).readResource({ uri }, { signal: options.signal });
  }

  /** Gets a prompt with its arguments (strings, as the protocol sends them). */
  async getPrompt(name: string, args: Record<string, string>, options: { signal?: AbortSignal } = {}): Promise<GetPromptResult> {
    return (await this.reconnected('getPrompt')).getPrompt({ name, arguments: args }, { signal: options.signal });
  }

  /** Asks the server to complete an argument of a prompt or resource template. */
  async complete(params: CompleteRequest['params'], options: { signal?: AbortSignal } = {}): Promise<CompleteResult> {
    return (await this.reconnected('complete')).complete(params, { signal: options.signal });
  }

  private async pages<T>(page: (client: Client, cursor: string | undefined) => Promise<[T[], string | undefined]>): Promise<T[]> {
    const client = this.connected('list');
    const all: T[] = [];
    let cursor: string | undefined;
    do {
      const [items, next] = await page(client, cursor);
      all.push(...items);
      cursor = next;
    } while (cursor);
    return all;
  }

  /** The client, re-established once when it was found dropped. */
  private async reconnected(action: string): Promise<Client> {
    this.connected(action);
    if (!this.open) await this.reconnect();
    return this.client!;
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
    const { signal, retryable = false, input = {}, tool } = options;
    let reconnected = false;
    if (!this.open) {
      await this.reconnect();
      reconnected = true;
    }
    // The call's own signal (the SDK never removes the abort listener it adds, and the router knows the call by it).
    const own = new AbortController();
    const forward = () => own.abort(signal?.reason);
    if (signal?.aborted) forward();
    else signal?.addEventListener('abort', forward, { once: true });
    const send = () => {
      const client = this.client!;
      // 2026-07-28 sends the client's capabilities with each request: this call's, so a server asks only what it can answer.
      const modern = client.getProtocolEra() === 'modern';
      const params = { name, arguments: args, ...(modern ? { _meta: { [CAPABILITIES_META]: capabilitiesOf(input) } } : {}) };
      return this.router.run(own.signal, input, () =>
        client.callTool(params, { signal: own.signal, ...(tool ? { toolDefinition: tool } : {}) }),
      ) as Promise<CallToolResult>;
    };
    try {
      return await send();
    } catch (error) {
      const { SdkErrorCode } = await loadSdk();
      const dropped = (error as { code?: unknown }).code === SdkErrorCode.ConnectionClosed && !signal?.aborted && !this.open;
      if (!dropped || reconnected || !retryable) throw error;
      await this.reconnect();
      return await send();
    } finally {
      signal?.removeEventListener('abort', forward);
    }
  }

  /** The client, or a clear error once the connection was closed on purpose. */
  private connected(action: string): Client {
    if (this.closed) throw new Error(`MCP server '${this.alias}': ${action} after close(). Connect again with connectMcpServer.`);
    return this.client!;
  }

  private async reconnect(): Promise<void> {
    const old = this.client;
    void this.subscription?.close().catch(() => undefined);
    this.subscription = undefined;
    this.client = undefined;
    this.open = false;
    await old?.close().catch(() => undefined);
    await this.connect();
  }

  /** Ends the connection (a command server's process exits); idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    this.changeListeners.clear();
    await this.subscription?.close().catch(() => undefined);
    this.subscription = undefined;
    const client = this.client;
    this.client = undefined;
    this.open = false;
    await client?.close();
  }
}

/**
 * Starts or reaches an admitted server (see admitMcpServer) and negotiates the revision its config
 * asks for. The MCP SDK's client (`@modelcontextprotocol/client`, an optional peer) is loaded now,
 * on first use.
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
