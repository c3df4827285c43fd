/**
 * Mounting a remote MCP server's tools into a toolbox: policy first, then connect, list, check
 * every tool, and mount all of them or none.
 */
import { admitMcpServer, connectMcpServer, loadMcpConfig as readMcpConfigFile } from '../../mcp-client/index';
import type { AdmittedMcpServer, McpClientOptions, McpServerConnection } from '../../mcp-client/index';
import { describeValue } from '../../../adapter-kit';
import type { ToolboxEntry } from '../entry';
import { problemWith, qualifiedName, remoteEntry } from './remote-entries';
import { DeclarationError } from '../../../index';

/** The options of `toolbox.addMcpServer(alias, config, { ... })` and `loadMcpConfig`: the client's options, and whether to replace a mounted server. */
export interface AddMcpServerOptions extends McpClientOptions {
  /** Replace a server already mounted under this alias (its tools and connection). */
  update?: boolean;
}

/** A server mounted in a toolbox. */
export interface MountedServer {
  readonly connection: McpServerConnection;
  readonly names: readonly string[];
}

/** What mounting needs from a toolbox. */
export interface MountTarget {
  /** @internal */
  mount(entries: readonly ToolboxEntry[], options: { update: boolean }): void;
  unmount(names: readonly string[]): void;
  readonly servers: Map<string, MountedServer>;
}

/** Admits the server under its policy (nothing is started or reached before this passes), then checks the alias is free. */
function admit(target: MountTarget, alias: string, config: unknown, options: AddMcpServerOptions, where: string): AdmittedMcpServer {
  const server = admitMcpServer(alias, config, { security: options.security }, where);
  if (target.servers.has(server.alias) && !options.update) {
    throw new DeclarationError(
      `${where}: an MCP server is already mounted as '${server.alias}'. Pass { update: true } to replace it, or choose another alias.`,
    );
  }
  return server;
}

async function connectAndMount(target: MountTarget, server: AdmittedMcpServer, update: boolean): Promise<string[]> {
  const { alias } = server;
  const connection = await connectMcpServer(server);
  try {
    const tools = await connection.listTools();
    const failures: string[] = [];
    const entries: ToolboxEntry[] = [];
    for (const tool of tools) {
      const name = qualifiedName(alias, tool.name);
      const problem = problemWith(name, tool);
      if (problem) failures.push(`'${tool.name}': ${problem}`);
      else entries.push(remoteEntry(alias, tool, name, connection));
    }
    if (failures.length > 0) {
      throw new TypeError(
        `MCP server '${alias}': ${failures.length} of its ${tools.length} tools cannot be mounted, so none were: ${failures.join('; ')}.`,
      );
    }
    const previous = target.servers.get(alias);
    const names = entries.map((entry) => entry.name);
    // Tools a replaced server no longer offers go; the rest are replaced in place.
    const gone = previous ? previous.names.filter((name) => !names.includes(name)) : [];
    target.mount(entries, { update: previous !== undefined && update });
    target.unmount(gone);
    target.servers.set(alias, { connection, names });
    await previous?.connection.close();
    return names;
  } catch (error) {
    await connection.close();
    throw error;
  }
}

/** `toolbox.addMcpServer`: mounts one server's tools, all or nothing. */
export async function addMcpServer(
  target: MountTarget,
  alias: string,
  config: unknown,
  options: AddMcpServerOptions = {},
): Promise<string[]> {
  return connectAndMount(target, admit(target, alias, config, options, 'addMcpServer'), options.update === true);
}

/**
 * `toolbox.loadMcpConfig`: every server of a `{ "mcpServers": … }` file, all or nothing. Every
 * server passes the policy before any is started; a server that fails to mount unmounts the
 * ones mounted before it.
 */
export async function loadMcpConfig(
  target: MountTarget,
  path: string,
  options: AddMcpServerOptions = {},
): Promise<Record<string, string[]>> {
  const servers = await readMcpConfigFile(path);
  const admitted = Object.entries(servers).map(([alias, config]) => admit(target, alias, config, options, `loadMcpConfig (${path})`));
  const mounted: Record<string, string[]> = {};
  try {
    for (const server of admitted) mounted[server.alias] = await connectAndMount(target, server, options.update === true);
  } catch (error) {
    for (const alias of Object.keys(mounted)) await removeMcpServer(target, alias);
    throw error;
  }
  return mounted;
}

/** Unmounts a server's tools and closes its connection; false when no server has that alias. */
export async function removeMcpServer(target: MountTarget, alias: string): Promise<boolean> {
  const server = target.servers.get(alias);
  if (!server) return false;
  target.servers.delete(alias);
  target.unmount(server.names);
  await server.connection.close();
  return true;
}
