/**
 * Which remote MCP servers a toolbox may start or reach, and with what. Fail-closed: a policy
 * allows nothing it was not told to allow, and omitting the policy is the deny-all policy, never
 * trust. The policy decides, not the config: a config cannot pick the binary (commands are
 * resolved on the parent's PATH), inject code through loader variables or a working directory,
 * or receive the parent's secrets (the environment is an allowlist).
 */
import { ToolwrightError } from '../../index';
import { checkKnownKeys, describeValue, isLoopbackHost } from '../../adapter-kit';
import { isPlainObject, joinWords } from '../../adapter-kit/internal';
import { isBareCommand } from './command-path';
import { checkEnvKeys, envNameProblem, REFUSED_ENV_VARIABLES, refusedEnvEntry, shownName } from './refused-env';
import { loadSdk } from './sdk';
import type { McpServerConfig } from './server-config';
import { DeclarationError } from '../../index';

/**
 * The rules of `new McpSecurityPolicy({ ... })`: which commands may be started (and with which
 * environment and working directory) and which hosts may be reached. Everything not allowed is refused.
 */
export interface McpSecurityPolicyOptions {
  /** May a server be started as a local command (stdio)? Default false. */
  allowCommands?: boolean;
  /** Only these commands, as bare names (`npx`, `node`); a path is refused. Default: any, once allowed. */
  commandAllowlist?: readonly string[];
  /**
   * Variables of REFUSED_ENV_VARIABLES (`NODE_OPTIONS`, `LD_PRELOAD`, `PATH`, or a listed pattern
   * such as `GIT_*`) that a server config's `env` may set. Default: none.
   */
  allowEnv?: readonly string[];
  /** May a server config set `cwd`? Default false. */
  allowCwd?: boolean;
  /**
   * Variables of this process passed on to every command server, by exact name
   * (`HTTPS_PROXY`). Nothing else of the parent's environment is, beyond the SDK's default set.
   */
  passEnv?: readonly string[];
  /** May a server be reached by URL (Streamable HTTP)? Default false. */
  allowUrls?: boolean;
  /** Plain `http:` to loopback (127.0.0.0/8, ::1, localhost); default false: only `https:` and `wss:`. */
  allowPlainHttpOnLoopback?: boolean;
  /** Only these hosts (case-insensitive; `::1` and `[::1]` alike). Default: any, once URLs are allowed. */
  hostAllowlist?: readonly string[];
}

/** How a remote server is reached: a local `command` (stdio) or a `url` (Streamable HTTP). */
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

const OPTION_KEYS = [
  'allowCommands',
  'commandAllowlist',
  'allowEnv',
  'allowCwd',
  'passEnv',
  'allowUrls',
  'allowPlainHttpOnLoopback',
  'hostAllowlist',
];
const REMOVED_KEYS = ['sensitiveEnvPatterns', 'filterSensitiveEnv'];
const BOOLEAN_KEYS = ['allowCommands', 'allowCwd', 'allowUrls', 'allowPlainHttpOnLoopback'] as const;

/** A host as compared: lower-case, without IPv6 brackets or a trailing dot. */
function normalHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

function stringList(value: unknown, name: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item.trim() === '')) {
    throw new DeclarationError(`McpSecurityPolicy: '${name}' must be a list of non-empty strings; got ${describeValue(value)}.`);
  }
  return Object.freeze([...value]);
}

/** A hostAllowlist entry in the form URL.hostname gives it (IPv6 and IPv4 canonicalised). */
function allowedHost(entry: string): string {
  const host = normalHost(entry.trim());
  const bad = () =>
    new DeclarationError(
      `McpSecurityPolicy: the hostAllowlist takes host names or IP addresses (no scheme, port, path or wildcard); got '${entry}'.`,
    );
  if (/[\s/@*?#]/.test(host) || host === '') throw bad();
  let parsed: string;
  try {
    parsed = new URL(`http://${host.includes(':') ? `[${host}]` : host}/`).hostname;
  } catch {
    throw bad();
  }
  return normalHost(parsed);
}

function envNames(value: unknown, name: 'allowEnv' | 'passEnv'): readonly string[] | undefined {
  const names = stringList(value, name);
  for (const item of names ?? []) {
    // allowEnv also takes a pattern exactly as REFUSED_ENV_VARIABLES lists it ('GIT_*').
    if (name === 'allowEnv' && item.endsWith('*') && REFUSED_ENV_VARIABLES.includes(item.toUpperCase())) continue;
    const problem = item.includes('*')
      ? name === 'allowEnv'
        ? 'it is a pattern REFUSED_ENV_VARIABLES does not list'
        : 'it is a pattern (passEnv takes exact names)'
      : envNameProblem(item);
    if (problem !== undefined) {
      throw new DeclarationError(
        `McpSecurityPolicy: '${name}' takes environment variable names${name === 'allowEnv' ? " (or a pattern of REFUSED_ENV_VARIABLES, such as 'GIT_*')" : ''}; ` +
          `${shownName(item)} is not one: ${problem}.`,
      );
    }
  }
  if (name === 'allowEnv') {
    const needless = names?.find((item) => refusedEnvEntry(item) === undefined);
    if (needless !== undefined) {
      throw new DeclarationError(
        `McpSecurityPolicy: allowEnv lists '${needless}', which a server config may set anyway (allowEnv is for the refused variables, REFUSED_ENV_VARIABLES). ` +
          `To pass this process's own value on to servers, use passEnv: ['${needless}'].`,
      );
    }
  }
  return names;
}

/**
 * What remote MCP servers may be started or reached: fail-closed (`McpSecurityPolicy.denyAll()`, the
 * default), explicit rules (`new McpSecurityPolicy(options)`), or everything (`McpSecurityPolicy.trusted()`).
 */
export class McpSecurityPolicy {
  readonly allowCommands: boolean;
  readonly commandAllowlist?: readonly string[];
  /** Upper-cased names and patterns of REFUSED_ENV_VARIABLES a config may set. */
  readonly allowEnv: readonly string[];
  readonly allowCwd: boolean;
  readonly passEnv: readonly string[];
  readonly allowUrls: boolean;
  readonly allowPlainHttpOnLoopback: boolean;
  /** Normalised: lower-case, no brackets, no trailing dot. */
  readonly hostAllowlist?: readonly string[];
  /** Set only by `trusted()`: plain http to any host, any command, any env and cwd. */
  private readonly trustsEverything: boolean;

  constructor(options: McpSecurityPolicyOptions = {}, trustsEverything = false) {
    if (!isPlainObject(options)) throw new DeclarationError(`McpSecurityPolicy takes an options object; got ${describeValue(options)}.`);
    const removed = Object.keys(options).find((key) => REMOVED_KEYS.includes(key));
    if (removed !== undefined) {
      throw new DeclarationError(
        `McpSecurityPolicy: '${removed}' was removed: a server's environment is now an allowlist (the SDK's default variables, ` +
          `the config's own env, and what the policy names), so there is nothing to filter. Use passEnv: ['NAME', …] to pass a variable of this process on.`,
      );
    }
    checkKnownKeys('McpSecurityPolicy', options, OPTION_KEYS);
    for (const key of BOOLEAN_KEYS) {
      if (options[key] !== undefined && typeof options[key] !== 'boolean') {
        throw new DeclarationError(`McpSecurityPolicy: '${key}' must be true or false; got ${describeValue(options[key])}.`);
      }
    }
    const commands = stringList(options.commandAllowlist, 'commandAllowlist');
    const withPath = commands?.find((command) => !isBareCommand(command));
    if (withPath !== undefined) {
      throw new DeclarationError(
        `McpSecurityPolicy: the command allowlist takes bare names (such as 'npx' or 'node'); '${withPath}' has a path separator. ` +
          'List the bare name; the server config then names it the same way.',
      );
    }
    this.allowCommands = options.allowCommands === true;
    this.commandAllowlist = commands;
    this.allowEnv = Object.freeze((envNames(options.allowEnv, 'allowEnv') ?? []).map((name) => name.toUpperCase()));
    this.allowCwd = options.allowCwd === true;
    this.passEnv = envNames(options.passEnv, 'passEnv') ?? Object.freeze([]);
    this.allowUrls = options.allowUrls === true;
    this.allowPlainHttpOnLoopback = options.allowPlainHttpOnLoopback === true;
    const hosts = stringList(options.hostAllowlist, 'hostAllowlist');
    this.hostAllowlist = hosts && Object.freeze(hosts.map(allowedHost));
    this.trustsEverything = trustsEverything;
    Object.freeze(this);
  }

  /**
   * The one explicit way to allow every command, URL, config `env` variable and `cwd`. The
   * environment stays an allowlist: pass `passEnv` to hand variables of this process on.
   */
  static trusted(options: Pick<McpSecurityPolicyOptions, 'passEnv'> = {}): McpSecurityPolicy {
    return new McpSecurityPolicy(
      { ...options, allowCommands: true, allowUrls: true, allowPlainHttpOnLoopback: true, allowCwd: true },
      true,
    );
  }

  /** The deny-all policy: what omitting the policy means. */
  static denyAll(): McpSecurityPolicy {
    return new McpSecurityPolicy();
  }

  /**
   * Throws McpSecurityError when the policy refuses the server, and a TypeError for an env key that
   * is not a plain variable name (no policy allows one); returns quietly otherwise.
   */
  check(server: string, config: McpServerConfig): void {
    if ('command' in config) this.checkCommand(server, config);
    else this.checkUrl(server, config.url);
  }

  private checkCommand(server: string, config: Extract<McpServerConfig, { command: string }>): void {
    const deny = (rule: string, message: string): never => {
      throw new McpSecurityError(server, 'command', rule, message);
    };
    if (!this.allowCommands) {
      deny('allowCommands', `starting local commands is not allowed. Pass a policy with allowCommands: true (and a commandAllowlist).`);
    }
    if (this.commandAllowlist) {
      if (!isBareCommand(config.command)) {
        deny('commandAllowlist', `the command ${describeValue(config.command)} is a path, and the allowlist takes bare names only.`);
      }
      if (!this.commandAllowlist.includes(config.command)) {
        deny(
          'commandAllowlist',
          `the command ${describeValue(config.command)} is not in the allowlist (${joinWords(this.commandAllowlist.map((c) => `'${c}'`))}).`,
        );
      }
    }
    // Before trust: a key that is not a plain name is not the variable it looks like, under any policy.
    checkEnvKeys(`MCP server '${server}'`, config.env);
    if (this.trustsEverything) return;
    for (const name of Object.keys(config.env ?? {})) {
      const entry = refusedEnvEntry(name);
      const upper = name.toUpperCase();
      if (entry !== undefined && !this.allowEnv.includes(upper) && !this.allowEnv.includes(entry)) {
        // Compared without case on every platform (see REFUSED_ENV_VARIABLES), and the message says so.
        const like =
          entry !== upper
            ? ` (like every ${entry})`
            : name !== upper
              ? ` (as ${upper}: names are compared without case, as Windows reads them)`
              : '';
        deny(
          'allowEnv',
          `its env sets ${name}, which${like} can change what runs or what it trusts. ` +
            `Remove it from the config, or allow it by name with allowEnv: ['${name}'].`,
        );
      }
    }
    if (config.cwd !== undefined && !this.allowCwd) {
      deny('allowCwd', `its config sets cwd ${describeValue(config.cwd)}. Remove it, or pass a policy with allowCwd: true.`);
    }
  }

  /**
   * @internal Throws McpSecurityError when the policy refuses a URL a server's OAuth flow reaches
   * or sends the user to (`what` names it): the same rules as the server's own URL.
   */
  checkAuthUrl(server: string, url: URL, what: string): void {
    this.checkUrl(server, url.href, `${what} (${url.origin}${url.pathname})`);
  }

  private checkUrl(server: string, href: string, what?: string): void {
    const deny = (rule: string, message: string): never => {
      throw new McpSecurityError(server, 'url', rule, what === undefined ? message : `${what}: ${message}`);
    };
    if (!this.allowUrls)
      deny('allowUrls', 'reaching servers by URL is not allowed. Pass a policy with allowUrls: true (and a hostAllowlist).');
    const url = new URL(href);
    const host = normalHost(url.hostname);
    const loopback = isLoopbackHost(host);
    if (url.protocol === 'http:') {
      if (!this.trustsEverything && !(this.allowPlainHttpOnLoopback && loopback)) {
        deny(
          'scheme',
          loopback
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
   * The whole environment a command server's process receives: the SDK's default set
   * (`getDefaultEnvironment()`: HOME, LOGNAME, PATH, SHELL, TERM, USER on POSIX), plus the
   * variables of this process the policy names in `passEnv`, plus the config's own `env` (which
   * `check` has admitted). Never anything else of this process's environment.
   */
  async environment(own: Readonly<Record<string, string>> = {}): Promise<Record<string, string>> {
    checkEnvKeys('McpSecurityPolicy.environment', own);
    const { getDefaultEnvironment } = await loadSdk();
    const passed: Record<string, string> = {};
    for (const name of this.passEnv) {
      const value = process.env[name];
      if (value !== undefined) passed[name] = value;
    }
    return { ...getDefaultEnvironment(), ...passed, ...own };
  }
}
