/**
 * A remote MCP server proxied under a namespace: connected only once its McpSecurityPolicy admitted
 * it (admitMcpServer, in toolwright/mcp-client), its tools listed and checked (untrusted: every one
 * must pass, or none is served), served as `<namespace>_<name>` through the server's invoker like
 * local tools (approvals from their annotations, scopes and tags from the mount, middleware, audit,
 * tracing), and listed again whenever it says its list changed (our clients are told in turn). The
 * MCP SDK's client is loaded only here, when a remote mount is used.
 */
import type { CallToolResult, Tool as ServedMcpTool } from '@modelcontextprotocol/server';
import { connectMcpServer, remoteToolDefinition, remoteToolProblem } from '../../mcp-client/index';
import type { McpServerConnection } from '../../mcp-client/index';
import { DeclarationError, MemberKind, SetupError } from '../../../index';
import { HeldRemoteCalls } from './held-calls';
import { DEFAULT_MAX_HELD_CALLS, DEFAULT_REMOTE_TIMEOUT_MS, MCP_TOOL_NAME, McpRemoteMount, MOUNT_SEPARATOR } from './mounts';
import type { McpResourceEntry } from '../members/member-entries';
import type { McpServedSets } from '../members/served-sets';
import { remoteMembers } from './remote-members';
import { invokeFor, mapResult, McpToolEntry } from '../members/wrap';

type RemoteTool = Awaited<ReturnType<McpServerConnection['listTools']>>[number];

/** A remote tool as the served entry: the listing copied (never shared with the SDK's objects), calls through the invoker. */
function remoteEntry(
  connection: McpServerConnection,
  tool: RemoteTool,
  name: string,
  timeoutMs: number,
  held: HeldRemoteCalls,
): McpToolEntry {
  const definition = remoteToolDefinition(connection, tool, { name, value: 'result', timeoutMs, sender: held.sender });
  const listed = structuredClone({
    name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: tool.description ?? tool.annotations?.title ?? tool.title ?? name,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
  }) as ServedMcpTool;
  return {
    definition,
    tool: listed,
    async handler(args, call = {}) {
      const result = await invokeFor(definition, args, call);
      if (!result.ok) return mapResult(definition, result, false);
      // The remote's own answer, its content blocks as they are.
      const { content, structuredContent } = result.value as CallToolResult;
      return { content, ...(structuredContent !== undefined ? { structuredContent } : {}) };
    },
  };
}

export class RemoteMount {
  private connection?: McpServerConnection;
  private closed = false;
  private failure?: Error;
  private relisting: Promise<void> = Promise.resolve();
  /** Settles (never rejects) once the server is connected and its tools served, or it failed. */
  private readonly started: Promise<void>;
  /** Its calls that asked mid-call, held open for a 2026-07-28 client's next round. */
  private readonly held: HeldRemoteCalls;

  constructor(
    private readonly mount: McpRemoteMount,
    private readonly sets: McpServedSets,
    private readonly report: (error: Error) => void,
  ) {
    this.held = new HeldRemoteCalls(mount.maxHeldCalls ?? DEFAULT_MAX_HELD_CALLS, this.timeoutMs);
    this.started = this.start();
  }

  private get where(): string {
    return `MCP server '${this.mount.server.alias}' (mounted as '${this.mount.namespace}')`;
  }

  /** Resolves once served; rejects with why it could not be. */
  async ready(): Promise<void> {
    await this.started;
    if (this.failure) throw this.failure;
  }

  private async start(): Promise<void> {
    try {
      const connection = await connectMcpServer(this.mount.server);
      this.connection = connection;
      if (this.closed) return void (await connection.close());
      await this.list(connection, false);
      connection.onListChanged(() => this.relist());
    } catch (error) {
      this.failure =
        error instanceof DeclarationError || error instanceof SetupError
          ? (error as Error)
          : new SetupError(`${this.where} could not be served: ${(error as Error)?.message ?? String(error)}`, undefined, { cause: error });
      await this.connection?.close().catch(() => undefined);
    }
  }

  /**
   * Lists the remote's tools, resources, templates and prompts (what it offers) and serves them in
   * place of the ones served before: all of them, or none (its listings are untrusted).
   */
  private async list(connection: McpServerConnection, notify: boolean): Promise<void> {
    const [listed, others] = await Promise.all([connection.listTools(), remoteMembers(connection, this.mount.namespace, this.timeoutMs)]);
    const failures = others.failures;
    const entries: McpToolEntry[] = [];
    for (const tool of listed) {
      const name = `${this.mount.namespace}${MOUNT_SEPARATOR}${tool.name}`;
      const problem = MCP_TOOL_NAME.test(name)
        ? remoteToolProblem(tool)
        : `it would be served as '${name}', which is not an MCP tool name (1 to 128 letters, digits, '_', '-' and '.')`;
      if (problem) failures.push(`tool '${tool.name}': ${problem}`);
      else entries.push(remoteEntry(connection, tool, name, this.timeoutMs, this.held));
    }
    if (failures.length > 0) {
      throw new SetupError(`${this.where}: ${failures.length} of its members cannot be served, so none are: ${failures.join('; ')}.`);
    }
    const { namespace, scopes, tags } = this.mount;
    const facts = { namespace, remote: this.mount.server.alias, scopes, tags };
    // A member another one serves (a name, a URI, a URI a template matches): at start the mount is
    // refused (a DeclarationError naming both); listed again later, that member alone is left out, loudly.
    const drop = notify
      ? (why: string) => this.report(new SetupError(`${this.where}: ${why} It is not served; its other members are.`))
      : undefined;
    try {
      this.sets.tools.mount(entries, facts, notify, drop);
      const kindOf = (entry: object) => ((entry as McpResourceEntry).template ? 'resource-template' : 'resource') as MemberKind;
      this.sets.resources.mount(others.resources, { ...facts, kindOf }, notify, drop);
      this.sets.prompts.mount(others.prompts, { ...facts, kindOf: () => 'prompt' }, notify, drop);
      this.sets.completions.mount(others.completions, { ...facts, kindOf: () => 'completion' }, notify, drop);
    } catch (error) {
      // A name another member holds (a DeclarationError naming both): none of this server's members are served.
      this.unmountAll();
      throw error instanceof DeclarationError ? new DeclarationError(`${this.where}: ${error.message}`) : error;
    }
  }

  private unmountAll(): void {
    for (const set of [this.sets.tools, this.sets.resources, this.sets.prompts, this.sets.completions]) set.unmount(this.mount.namespace);
  }

  private get timeoutMs(): number {
    return this.mount.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS;
  }

  /** The remote said its tools changed: list them again (one listing at a time); a listing that fails serves none of them. */
  private relist(): void {
    this.relisting = this.relisting.then(async () => {
      if (this.closed || !this.connection) return;
      try {
        await this.list(this.connection, true);
      } catch (error) {
        this.unmountAll();
        this.report(
          new SetupError(`${this.where}: listing its tools again failed, so none are served: ${(error as Error)?.message}`, undefined, {
            cause: error,
          }),
        );
      }
    });
  }

  /** Ends the connection (a command server's process exits). */
  async close(): Promise<void> {
    this.closed = true;
    this.held.close();
    await this.relisting;
    await this.connection?.close().catch(() => undefined);
  }
}
