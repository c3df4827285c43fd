/**
 * Which remote MCP servers a toolbox may start or reach. Fail-closed: a policy allows nothing it
 * was not told to allow, and omitting the policy is the deny-all policy, never trust.
 */
import { describeValue, isPlainObject, joinWords, ToolwrightError } from '../../../index';
import type { McpServerConfig } from './server-config';

/** Environment variable name fragments never passed on to a server's process (case-insensitive). */
export const SENSITIVE_ENV_PATTERNS: readonly string[] = Object.freeze([
  'API_KEY',
  'API_SECRET',
  'API_TOKEN',
  'ACCESS_TOKEN',
  'AUTH_TOKEN',
  'AWS_SECRET',
  'AWS_SESSION_TOKEN',
  'CREDENTIAL',
  'DATABASE_URL',
  'DB_PASSWORD',
  'PASSWORD',
  'PRIVATE_KEY',
  'REFRESH_TOKEN',
  'SECRET_KEY',
  'SERVICE_TOKEN',
]);

export interface McpSecurityPolicyOptions {
  /** May a server be started as a local command (stdio)? Default false. */
  allowCommands?: boolean;
  /** Only these commands, as bare names (`npx`, `node`, `uvx`); a path is refused. Default: any, once allowed. */
  commandAllowlist?: readonly string[];
  /** May a server be reached by URL (Streamable HTTP)? Default false. */
  allowUrls?: boolean;
  /** Plain `http:` to 127.0.0.1, localhost or ::1 (default false: only `https:` and `wss:`). */
  allowPlainHttpOnLoopback?: boolean;
  /** Only these hosts (compared case-insensitively). Default: any, once URLs are allowed. */
  hostAllowlist?: readonly string[];
  /** Name fragments of parent environment variables a server process never inherits. */
  sensitiveEnvPatterns?: readonly string[];
  /** Filter the inherited environment at all (default true). A server's own `env` is always passed. */
  filterSensitiveEnv?: boolean;
}

export type McpTransportKind = 'command' | 'url';

/** A policy refused a server. One class for every denial, naming the server, the transport and the rule. */
export class McpSecurityError extends ToolwrightError {
  override readonly code = 'MCP_SECURITY';
  constructor(
    readonly server: string,
    readonly transport: McpTransportKind,
    readonly rule: string,
    message: string,
  ) {
    super(`MCP server '${server}' (${transport === 'command' ? 'command' : 'URL'} transport) denied by the security policy: ${message}`);
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
const OPTION_KEYS = [
  'allowCommands',
  'commandAllowlist',
  'allowUrls',
  'allowPlainHttpOnLoopback',
  'hostAllowlist',
  'sensitiveEnvPatterns',
  'filterSensitiveEnv',
];

function stringList(value: unknown, name: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item.trim() === '')) {
    throw new TypeError(`McpSecurityPolicy: '${name}' must be a list of non-empty strings; got ${describeValue(value)}.`);
  }
  return Object.freeze([...value]);
}

export class McpSecurityPolicy {
  readonly allowCommands: boolean;
  readonly commandAllowlist?: readonly string[];
  readonly allowUrls: boolean;
  readonly allowPlainHttpOnLoopback: boolean;
  readonly hostAllowlist?: readonly string[];
  readonly sensitiveEnvPatterns: readonly string[];
  readonly filterSensitiveEnv: boolean;
  /** Set only by `trusted()`: plain http to any host, any command. */
  private readonly trustsEverything: boolean;

  constructor(options: McpSecurityPolicyOptions = {}, trustsEverything = false) {
    if (!isPlainObject(options)) throw new TypeError(`McpSecurityPolicy takes an options object; got ${describeValue(options)}.`);
    const unknown = Object.keys(options).filter((key) => !OPTION_KEYS.includes(key));
    if (unknown.length > 0)
      throw new TypeError(`McpSecurityPolicy: unknown option '${unknown[0]}'. Known options: ${OPTION_KEYS.join(', ')}.`);
    for (const key of ['allowCommands', 'allowUrls', 'allowPlainHttpOnLoopback', 'filterSensitiveEnv'] as const) {
      if (options[key] !== undefined && typeof options[key] !== 'boolean') {
        throw new TypeError(`McpSecurityPolicy: '${key}' must be true or false; got ${describeValue(options[key])}.`);
      }
    }
    const commands = stringList(options.commandAllowlist, 'commandAllowlist');
    const withPath = commands?.find((command) => /[\\/]/.test(command));
    if (withPath !== undefined) {
      throw new TypeError(
        `McpSecurityPolicy: the command allowlist takes bare names (such as 'npx' or 'node'); '${withPath}' has a path separator. ` +
          'List the bare name; the server config then names it the same way.',
      );
    }
    this.allowCommands = options.allowCommands === true;
    this.commandAllowlist = commands;
    this.allowUrls = options.allowUrls === true;
    this.allowPlainHttpOnLoopback = options.allowPlainHttpOnLoopback === true;
    this.hostAllowlist = stringList(options.hostAllowlist, 'hostAllowlist')?.map((host) => host.toLowerCase());
    this.sensitiveEnvPatterns = stringList(options.sensitiveEnvPatterns, 'sensitiveEnvPatterns') ?? SENSITIVE_ENV_PATTERNS;
    this.filterSensitiveEnv = options.filterSensitiveEnv !== false;
    this.trustsEverything = trustsEverything;
    Object.freeze(this);
  }

  /** The one explicit way to allow every command and every URL. Environment filtering stays on. */
  static trusted(options: Pick<McpSecurityPolicyOptions, 'sensitiveEnvPatterns' | 'filterSensitiveEnv'> = {}): McpSecurityPolicy {
    return new McpSecurityPolicy({ ...options, allowCommands: true, allowUrls: true, allowPlainHttpOnLoopback: true }, true);
  }

  /** The deny-all policy: what omitting the policy means. */
  static denyAll(): McpSecurityPolicy {
    return new McpSecurityPolicy();
  }

  /** Throws McpSecurityError when the policy refuses the server; returns quietly otherwise. */
  check(server: string, config: McpServerConfig): void {
    if ('command' in config) {
      const deny = (rule: string, message: string): never => {
        throw new McpSecurityError(server, 'command', rule, message);
      };
      if (!this.allowCommands) {
        deny('allowCommands', `starting local commands is not allowed. Pass a policy with allowCommands: true (and a commandAllowlist).`);
      }
      if (this.commandAllowlist) {
        if (/[\\/]/.test(config.command)) {
          deny('commandAllowlist', `the command ${describeValue(config.command)} is a path, and the allowlist takes bare names only.`);
        }
        if (!this.commandAllowlist.includes(config.command)) {
          deny(
            'commandAllowlist',
            `the command ${describeValue(config.command)} is not in the allowlist (${joinWords(this.commandAllowlist.map((c) => `'${c}'`))}).`,
          );
        }
      }
      return;
    }
    const deny = (rule: string, message: string): never => {
      throw new McpSecurityError(server, 'url', rule, message);
    };
    if (!this.allowUrls)
      deny('allowUrls', 'reaching servers by URL is not allowed. Pass a policy with allowUrls: true (and a hostAllowlist).');
    const url = new URL(config.url);
    const host = url.hostname.toLowerCase();
    if (url.protocol === 'http:') {
      if (!this.trustsEverything && !(this.allowPlainHttpOnLoopback && LOOPBACK.has(host))) {
        deny(
          'scheme',
          LOOPBACK.has(host)
            ? `plain http is refused; use https, or allowPlainHttpOnLoopback: true for a server on this machine.`
            : `plain http to ${host} is refused; use https (plain http is allowed on loopback only, with allowPlainHttpOnLoopback).`,
        );
      }
    } else if (url.protocol !== 'https:' && url.protocol !== 'wss:') {
      deny('scheme', `the scheme ${url.protocol} is refused; use https.`);
    }
    if (this.hostAllowlist && !this.hostAllowlist.includes(host)) {
      deny('hostAllowlist', `the host ${host} is not in the allowlist (${joinWords(this.hostAllowlist.map((h) => `'${h}'`))}).`);
    }
  }

  /**
   * The environment of a server's process: the parent's, minus variables whose names contain a
   * sensitive pattern, plus every variable the server's own config sets (always passed).
   */
  environment(own: Readonly<Record<string, string>> = {}, parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
    const patterns = this.sensitiveEnvPatterns.map((pattern) => pattern.toUpperCase());
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(parent)) {
      if (value === undefined) continue;
      if (this.filterSensitiveEnv && patterns.some((pattern) => name.toUpperCase().includes(pattern))) continue;
      env[name] = value;
    }
    return { ...env, ...own };
  }
}
