/**
 * Admitting a remote MCP server: its alias and config are checked and its security policy applied
 * before anything is started or reached. Only an admitted server can be connected, so no caller
 * (the Toolbox, an HTTP or queue adapter, an application) can reach a server around its policy.
 */
import { statSync } from 'node:fs';
import { DeclarationError } from '../../index';
import { checkKnownKeys, describeValue } from '../../adapter-kit';
import { resolveCommand } from './command-path';
import { McpSecurityPolicy } from './security-policy';
import { checkAlias, checkServerConfig, McpServerConfig } from './server-config';

const CLIENT_OPTIONS = ['security'];

/** The options of `admitMcpServer(alias, config, { ... })`: the security policy it must pass (deny-all when left out). */
export interface McpClientOptions {
  /** What may be started or reached. Omitted, it is the deny-all policy: never trust. */
  security?: McpSecurityPolicy;
}

/** A server that passed its checks and its policy; nothing has been started or reached yet. */
export interface AdmittedMcpServer {
  /** Letters, digits, `_` and `-`: it names the server in messages and in qualified tool names. */
  readonly alias: string;
  /** The checked config; a command is the absolute path found on this process's PATH. */
  readonly config: Readonly<McpServerConfig>;
  readonly security: McpSecurityPolicy;
}

/** Every admission this module made: connectMcpServer accepts nothing else. */
const admitted = new WeakSet<AdmittedMcpServer>();

export function isAdmitted(server: unknown): server is AdmittedMcpServer {
  return typeof server === 'object' && server !== null && admitted.has(server as AdmittedMcpServer);
}

function policyOf(options: McpClientOptions, where: string): McpSecurityPolicy {
  if (options.security === undefined) return McpSecurityPolicy.denyAll();
  if (!(options.security instanceof McpSecurityPolicy)) {
    throw new DeclarationError(
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

function freeze(config: McpServerConfig): Readonly<McpServerConfig> {
  for (const value of Object.values(config)) if (typeof value === 'object' && value !== null) Object.freeze(value);
  return Object.freeze(config);
}

/**
 * Checks a server's alias and config and applies the policy: throws a TypeError for a malformed
 * alias or config and an McpSecurityError when the policy refuses it. Starts and reaches nothing.
 * `caller` names the operation in error messages (default `admitMcpServer`).
 */
export function admitMcpServer(
  alias: string,
  config: unknown,
  options: McpClientOptions = {},
  caller = 'admitMcpServer',
): AdmittedMcpServer {
  const checkedAlias = checkAlias(alias, caller);
  const checked = checkServerConfig(checkedAlias, config);
  if (typeof options !== 'object' || options === null) {
    throw new DeclarationError(`${caller}: the options must be an object such as { security: policy }; got ${describeValue(options)}.`);
  }
  checkKnownKeys(caller, options, CLIENT_OPTIONS);
  const security = policyOf(options, caller);
  security.check(checkedAlias, checked);
  if ('command' in checked) {
    // What is spawned is the file found now on this process's PATH, never one the config's env or cwd picks.
    checked.command = resolveCommand(checkedAlias, checked.command);
    if (checked.cwd !== undefined) checkDirectory(checkedAlias, checked.cwd);
  }
  const server: AdmittedMcpServer = Object.freeze({ alias: checkedAlias, config: freeze(checked), security });
  admitted.add(server);
  return server;
}
