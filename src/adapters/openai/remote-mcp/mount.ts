/**
 * Mounting a remote MCP server's tools into a toolbox: policy first, then connect, list, check
 * every tool, and mount all of them or none.
 */
import { statSync } from 'node:fs';
import { describeValue } from '../../../adapter-kit';
import type { ToolboxEntry } from '../entry';
import { resolveCommand } from './command-path';
import { RemoteConnection } from './connection';
import { problemWith, qualifiedName, remoteEntry } from './remote-entries';
import { McpSecurityPolicy } from './security-policy';
import { checkAlias, checkServerConfig, McpServerConfig, readMcpConfigFile } from './server-config';

export interface AddMcpServerOptions {
  /** What the toolbox may start or reach. Omitted, it is the deny-all policy: never trust. */
  security?: McpSecurityPolicy;
  /** Replace a server already mounted under this alias (its tools and connection). */
  update?: boolean;
}

/** A server mounted in a toolbox. */
export interface MountedServer {
  readonly connection: RemoteConnection;
  readonly names: readonly string[];
}

/** What mounting needs from a toolbox. */
export interface MountTarget {
  /** @internal */
  mount(entries: readonly ToolboxEntry[], options: { update: boolean }): void;
  unmount(names: readonly string[]): void;
  readonly servers: Map<string, MountedServer>;
}

function policyOf(options: AddMcpServerOptions, where: string): McpSecurityPolicy {
  if (options.security === undefined) return McpSecurityPolicy.denyAll();
  if (!(options.security instanceof McpSecurityPolicy)) {
    throw new TypeError(
      `${where}: 'security' must be an McpSecurityPolicy (new McpSecurityPolicy({ … }) or McpSecurityPolicy.trusted()); got ${describeValue(options.security)}.`,
    );
  }
  return options.security;
}

function checkDirectory(alias: string, cwd: string): void {
  let directory = false;
  try {
    directory = statSync(cwd).isDirectory();
  } catch {
    // reported below
  }
  if (!directory) throw new TypeError(`MCP server '${alias}': its cwd ${describeValue(cwd)} is not a directory.`);
}

/** Checks alias, config and policy: nothing is started or reached before this passes. */
function admit(
  target: MountTarget,
  alias: unknown,
  config: unknown,
  options: AddMcpServerOptions,
  where: string,
): { alias: string; config: McpServerConfig; policy: McpSecurityPolicy } {
  const checkedAlias = checkAlias(alias, where);
  const checked = checkServerConfig(checkedAlias, config);
  const policy = policyOf(options, where);
  policy.check(checkedAlias, checked);
  if ('command' in checked) {
    // What is spawned is the file found now on this process's PATH, never one the config's env or cwd picks.
    checked.command = resolveCommand(checkedAlias, checked.command);
    if (checked.cwd !== undefined) checkDirectory(checkedAlias, checked.cwd);
  }
  if (target.servers.has(checkedAlias) && !options.update) {
    throw new TypeError(
      `${where}: an MCP server is already mounted as '${checkedAlias}'. Pass { update: true } to replace it, or choose another alias.`,
    );
  }
  return { alias: checkedAlias, config: checked, policy };
}

async function connectAndMount(
  target: MountTarget,
  alias: string,
  config: McpServerConfig,
  policy: McpSecurityPolicy,
  update: boolean,
): Promise<string[]> {
  const connection = new RemoteConnection(alias, config, 'command' in config ? await policy.environment(config.env) : undefined);
  await connection.connect();
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
  const admitted = admit(target, alias, config, options, 'addMcpServer');
  return connectAndMount(target, admitted.alias, admitted.config, admitted.policy, options.update === true);
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
    for (const { alias, config, policy } of admitted)
      mounted[alias] = await connectAndMount(target, alias, config, policy, options.update === true);
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
