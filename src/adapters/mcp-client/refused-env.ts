/**
 * Variables a server config's `env` may not set unless the policy allows them by name
 * (`allowEnv`): each one lets whoever writes the config choose which program or library runs, or
 * inject code or options into the allowed one, or change whom it trusts. Names are compared
 * case-insensitively (Windows' environment is); an entry ending in `*` covers every name with that
 * prefix. The list covers the runtimes MCP servers are usually started with (node/npx,
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

const EXACT = new Set(REFUSED_ENV_VARIABLES.filter((entry) => !entry.endsWith('*')));
const PREFIXES = REFUSED_ENV_VARIABLES.filter((entry) => entry.endsWith('*')).map((entry) => entry.slice(0, -1));

/** The refused entry (`LD_*`, `PATH`) a variable name falls under, if any. */
export function refusedEnvEntry(name: string): string | undefined {
  const upper = name.toUpperCase();
  if (EXACT.has(upper)) return upper;
  const prefix = PREFIXES.find((p) => upper.startsWith(p));
  return prefix === undefined ? undefined : `${prefix}*`;
}
