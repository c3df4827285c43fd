/**
 * The configuration of a remote MCP server, as the common `{ "mcpServers": { alias: config } }`
 * file holds it: a command to start (stdio) or a URL to reach (Streamable HTTP).
 */
import { readFile } from 'node:fs/promises';
import { checkKnownKeys, describeValue } from '../../adapter-kit';
import { isPlainObject } from '../../adapter-kit/internal';
import { DeclarationError } from '../../index';
import { checkEnvKeys } from './refused-env';
import { checkOAuthConfig, McpOAuthConfig } from './oauth/oauth-config';

/**
 * The MCP revision a connection speaks: `'auto'` probes with `server/discover` and falls back to
 * the 2025-11-25 handshake; a date is that revision or nothing (`'2026-07-28'` fails to connect to a
 * server that does not offer it). Default: `'2025-11-25'` for a command (stdio) server, `'auto'` for
 * a URL server.
 */
export type McpProtocol = 'auto' | '2025-11-25' | '2026-07-28';

export const MCP_PROTOCOLS: readonly McpProtocol[] = Object.freeze(['auto', '2025-11-25', '2026-07-28']);

/**
 * The default revision per transport. A command server gets the 2025-11-25 handshake: `'auto'` on
 * stdio spawns a second, short-lived server process for the probe on every connect, and a legacy
 * server that never answers unknown requests stalls the connect for the whole probe timeout. A URL
 * server gets `'auto'`: the probe is one request, a silent server is an outage there (an error, not
 * a wrong guess), and a 2026-07-28 server is reached in its own revision.
 */
export function defaultProtocol(config: McpServerConfig): McpProtocol {
  return 'command' in config ? '2025-11-25' : 'auto';
}

/** A remote MCP server started as a local command and spoken to over stdio (as in an `mcpServers` config file). */
export interface McpCommandConfig {
  /**
   * The executable: a bare name (`npx`, `node`), looked up on this process's PATH before anything
   * starts, or a path (relative to this process's working directory, never to `cwd`).
   */
  command: string;
  args?: string[];
  /**
   * Variables set for the server's process, by plain name (letters, digits, `_`; never `=`,
   * whitespace or NUL); those of REFUSED_ENV_VARIABLES, in any case, only with the policy's allowEnv.
   */
  env?: Record<string, string>;
  /** The server's working directory; only with the policy's allowCwd. */
  cwd?: string;
  /** The MCP revision to speak (see McpProtocol); default `'2025-11-25'` (no probe process). */
  protocol?: McpProtocol;
}

/** A remote MCP server reached over Streamable HTTP at a URL. */
export interface McpUrlConfig {
  /** A Streamable HTTP endpoint, e.g. `https://tools.example.com/mcp`. */
  url: string;
  headers?: Record<string, string>;
  /**
   * OAuth as the MCP authorization spec says: a user's approval (authorization code with PKCE)
   * or a service's client credentials; tokens kept in `auth.store`. See McpOAuthConfig.
   */
  auth?: McpOAuthConfig;
  /** The MCP revision to speak (see McpProtocol); default `'auto'`. */
  protocol?: McpProtocol;
}

/** A remote MCP server's config: a command (stdio) or a URL (Streamable HTTP). */
export type McpServerConfig = McpCommandConfig | McpUrlConfig;

/** Server aliases become part of function names (`mcp__{alias}__{tool}`). */
export const ALIAS_PATTERN = /^[a-zA-Z0-9_-]+$/;

export function checkAlias(alias: unknown, where: string): string {
  if (typeof alias !== 'string' || !ALIAS_PATTERN.test(alias)) {
    throw new DeclarationError(
      `${where}: the server alias ${describeValue(alias)} must be letters, digits, '_' or '-' (it becomes part of each tool's name).`,
    );
  }
  return alias;
}

const TYPES: Record<string, 'command' | 'url' | undefined> = {
  stdio: 'command',
  http: 'url',
  'streamable-http': 'url',
  streamableHttp: 'url',
};

function stringRecord(value: unknown, what: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value) || Object.values(value).some((v) => typeof v !== 'string')) {
    throw new DeclarationError(`${what} must be an object of string values; got ${describeValue(value)}.`);
  }
  return { ...(value as Record<string, string>) };
}

/** Validates one server's config; mistakes name the server and the key. */
export function checkServerConfig(alias: string, config: unknown): McpServerConfig {
  const where = `MCP server '${alias}'`;
  if (!isPlainObject(config))
    throw new DeclarationError(`${where}: the config must be an object with a command or a url; got ${describeValue(config)}.`);
  const { type, ...rest } = config as Record<string, unknown>;
  if (type !== undefined) {
    if (type === 'sse')
      throw new DeclarationError(`${where}: the SSE transport is deprecated and not supported; use a Streamable HTTP url.`);
    if (typeof type !== 'string' || !(type in TYPES)) {
      throw new DeclarationError(`${where}: unknown type ${describeValue(type)}; use 'stdio' or 'http' (or leave it out).`);
    }
  }
  const hasCommand = 'command' in rest;
  const hasUrl = 'url' in rest;
  if (hasCommand === hasUrl)
    throw new DeclarationError(
      `${where}: give either a command (stdio) or a url (Streamable HTTP), ${hasCommand ? 'not both' : 'one of them'}.`,
    );
  if (type !== undefined && TYPES[type as string] !== (hasCommand ? 'command' : 'url')) {
    throw new DeclarationError(`${where}: type '${type}' does not match a ${hasCommand ? 'command' : 'url'} config.`);
  }
  const allowed = hasCommand ? ['command', 'args', 'env', 'cwd', 'protocol'] : ['url', 'headers', 'auth', 'protocol'];
  checkKnownKeys(where, rest, allowed, { noun: 'key' });
  const protocol = checkProtocol(where, rest.protocol);
  if (hasCommand) {
    const { command, args, env, cwd } = rest;
    if (typeof command !== 'string' || command.trim() === '')
      throw new DeclarationError(`${where}: 'command' must be a non-empty string; got ${describeValue(command)}.`);
    if (args !== undefined && (!Array.isArray(args) || args.some((arg) => typeof arg !== 'string'))) {
      throw new DeclarationError(`${where}: 'args' must be a list of strings; got ${describeValue(args)}.`);
    }
    if (cwd !== undefined && typeof cwd !== 'string')
      throw new DeclarationError(`${where}: 'cwd' must be a string; got ${describeValue(cwd)}.`);
    const checkedEnv = stringRecord(env, `${where}: 'env'`);
    checkEnvKeys(where, checkedEnv);
    return { command, args: args as string[] | undefined, env: checkedEnv, cwd: cwd as string | undefined, ...protocol };
  }
  const { url, headers } = rest;
  if (typeof url !== 'string') throw new DeclarationError(`${where}: 'url' must be a string; got ${describeValue(url)}.`);
  try {
    new URL(url);
  } catch {
    throw new DeclarationError(`${where}: 'url' ${describeValue(url)} is not a valid URL.`);
  }
  const checkedHeaders = stringRecord(headers, `${where}: 'headers'`);
  if (rest.auth === undefined) return { url, headers: checkedHeaders, ...protocol };
  if (Object.keys(checkedHeaders ?? {}).some((name) => name.toLowerCase() === 'authorization')) {
    throw new DeclarationError(
      `${where}: give either an Authorization header or 'auth', not both ('auth' sets the header from its tokens).`,
    );
  }
  return { url, headers: checkedHeaders, auth: checkOAuthConfig(where, rest.auth), ...protocol };
}

function checkProtocol(where: string, protocol: unknown): { protocol?: McpProtocol } {
  if (protocol === undefined) return {};
  if (typeof protocol !== 'string' || !(MCP_PROTOCOLS as readonly string[]).includes(protocol)) {
    throw new DeclarationError(
      `${where}: 'protocol' must be ${MCP_PROTOCOLS.map((p) => `'${p}'`).join(', ')} or left out; got ${describeValue(protocol)}.`,
    );
  }
  return { protocol: protocol as McpProtocol };
}

/**
 * Reads and checks a `{ "mcpServers": { "<alias>": { … } } }` file (the format Claude Desktop,
 * Cursor and VS Code use): every server's config, by alias. Starts and reaches nothing; pass each
 * one to admitMcpServer with a policy.
 */
export async function loadMcpConfig(path: string): Promise<Record<string, McpServerConfig>> {
  if (typeof path !== 'string' || path === '')
    throw new DeclarationError(`loadMcpConfig: the path must be a non-empty string; got ${describeValue(path)}.`);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new DeclarationError(`loadMcpConfig: cannot read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new DeclarationError(`loadMcpConfig: ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(parsed) || !isPlainObject(parsed.mcpServers)) {
    throw new DeclarationError(`loadMcpConfig: ${path} must hold { "mcpServers": { "<alias>": { … } } }.`);
  }
  const servers: Record<string, McpServerConfig> = {};
  for (const [alias, config] of Object.entries(parsed.mcpServers))
    servers[checkAlias(alias, `loadMcpConfig (${path})`)] = checkServerConfig(alias, config);
  return servers;
}
