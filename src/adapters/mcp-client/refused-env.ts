import { DeclarationError } from '../../index';

/**
 * Variables a server config's `env` may not set unless the policy allows them by name
 * (`allowEnv`): each one lets whoever writes the config choose which program or library runs, or
 * inject code or options into the allowed one, or change whom it trusts. Names are compared
 * case-insensitively on every platform: Windows' environment is case-insensitive (`node_options`
 * sets NODE_OPTIONS there), and a config file is written once and read on any platform, so its
 * verdict must not depend on where it runs (no real server needs a lower-case `path`). An entry
 * ending in `*` covers every name with that prefix. The list covers the runtimes MCP servers are usually started with (node/npx,
 * python/uvx, shells, perl, ruby, java, git, the dynamic linker); the command allowlist stays the
 * first line of defence.
 */
export const REFUSED_ENV_VARIABLES: readonly string[] = Object.freeze([
  // Which executable, library or configuration is found.
  'PATH',
  'PATHEXT',
  'COMSPEC',
  'HOME',
  'USERPROFILE',
  'XDG_CONFIG_HOME',
  'LD_*',
  'DYLD_*',
  // Node and npm/npx: code and options injected into the runtime, the registry npx installs from.
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_REPL_EXTERNAL_MODULE',
  'NPM_CONFIG_*',
  // Python and uv/pip.
  'PYTHONPATH',
  'PYTHONHOME',
  'PYTHONSTARTUP',
  'PYTHONUSERBASE',
  'PYTHONBREAKPOINT',
  'PYTHONWARNINGS',
  'PYTHONINSPECT',
  'UV_*',
  'PIP_*',
  // Perl, Ruby, Java.
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'PERL5DB',
  'RUBYOPT',
  'RUBYLIB',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'CLASSPATH',
  // Shells: startup files, exported functions, options.
  'BASH_ENV',
  'ENV',
  'BASH_FUNC_*',
  'SHELLOPTS',
  'BASHOPTS',
  'PS4',
  'ZDOTDIR',
  // git reads helpers and configuration (core.sshCommand, core.fsmonitor) from GIT_* variables.
  'GIT_*',
  'SSH_ASKPASS',
  // Whom the server trusts: extra CA certificates, disabled verification, OpenSSL engines.
  'NODE_EXTRA_CA_CERTS',
  'NODE_TLS_REJECT_UNAUTHORIZED',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  'OPENSSL_CONF',
  'OPENSSL_ENGINES',
]);

/**
 * A plain variable name: what every shell and platform reads as one name. Anything else is
 * refused wherever a name enters a server's environment (a config's `env`, the policy's passEnv
 * and allowEnv): the environment a process receives is `NAME=value` lines, so a key such as
 * `NODE_OPTIONS=--require` would set NODE_OPTIONS; and a name with whitespace, NUL or other
 * characters is a different spelling of a name the refusal list would catch.
 */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Why `name` is not a plain variable name, for a message; undefined when it is one. */
export function envNameProblem(name: string): string | undefined {
  if (ENV_NAME_PATTERN.test(name)) return undefined;
  if (name === '') return 'it is empty';
  const equals = name.indexOf('=');
  if (equals > 0)
    return `it has '=', so the process would receive the variable ${shownName(name.slice(0, equals))} with the rest of the key in its value`;
  if (equals === 0) return "it has '='";
  if (name.includes('\0')) return 'it has a NUL byte';
  if (/\s/.test(name)) return 'it has whitespace';
  if (/^[0-9]/.test(name)) return 'it starts with a digit';
  return "it has characters other than letters, digits and '_'";
}

/** A name as messages show it: quoted, or as JSON when it has whitespace, NUL or other invisible characters; a very long one shortened. */
export function shownName(name: string): string {
  const short = name.length > 64 ? `${name.slice(0, 61)}…` : name;
  return /^[!-~…]*$/.test(short) && !short.includes("'") ? `'${short}'` : JSON.stringify(short);
}

/**
 * Throws a TypeError when a key of `env` is not a plain variable name, naming it and the fix. No
 * policy allows such a key, not even `trusted()`: it is not the variable it looks like.
 */
export function checkEnvKeys(where: string, env: Readonly<Record<string, string>> | undefined): void {
  for (const name of Object.keys(env ?? {})) {
    const problem = envNameProblem(name);
    if (problem !== undefined) {
      throw new DeclarationError(
        `${where}: the env key ${shownName(name)} is not a variable name: ${problem}. A name is letters, digits and '_', ` +
          'not starting with a digit: write the bare name as the key and everything else in its value.',
      );
    }
  }
}

const EXACT = new Set(REFUSED_ENV_VARIABLES.filter((entry) => !entry.endsWith('*')));
const PREFIXES = REFUSED_ENV_VARIABLES.filter((entry) => entry.endsWith('*')).map((entry) => entry.slice(0, -1));

/** The refused entry (`LD_*`, `PATH`) a variable name falls under, if any. */
export function refusedEnvEntry(name: string): string | undefined {
  const upper = name.toUpperCase();
  if (EXACT.has(upper)) return upper;
  const prefix = PREFIXES.find((p) => upper.startsWith(p));
  return prefix === undefined ? undefined : `${prefix}*`;
}
