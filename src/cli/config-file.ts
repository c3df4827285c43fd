import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeValue } from '../adapter-kit';
import { isPlainObject, joinWords } from '../adapter-kit/internal';
import { CliError } from './cli-error';

export const CONFIG_NAMES = ['toolwright.config.js', 'toolwright.config.mjs', 'toolwright.config.cjs', 'toolwright.config.json'] as const;

/** Options of `toolwright serve mcp` that a config may set (the command line wins). */
export interface ServeMcpConfig {
  /**
   * The MCP server options (`createMcpServer`'s, without `tools`): an object, or a module and export
   * such as `'./src/server#mcpOptions'` (default export when no `#name`), resolved from the config.
   */
  server?: string | Record<string, unknown>;
  host?: string;
  port?: number;
  path?: string;
}

/** Options of `toolwright serve http` that a config may set (the command line wins). */
export interface ServeHttpConfig {
  /**
   * The HTTP API options (`serveHttpApi`'s: `ambientContext`, `auth`, `invoker`, …): an object, or a
   * module and export such as `'./src/http#httpOptions'`, resolved from the config.
   */
  server?: string | Record<string, unknown>;
  host?: string;
  port?: number;
  prefix?: string;
}

/** `toolwright.config.{js,mjs,cjs,json}`: what the command loads and how it serves. */
export interface ToolwrightConfig {
  /** Modules that declare tools, relative to the config file (a directory loads its index). */
  import?: string[];
  /**
   * Adapter keys to register: `mcp`, `openai` and `ai` load their entry point; any other key is
   * registered as it is (a custom adapter). Default: `mcp` (what `serve mcp` serves: a tool that
   * names no adapter is a member of it), besides those the loaded modules register.
   */
  adapters?: string[];
  /** Directories whose exported action classes join an adapter: `{ mcp: ['./src/tools'] }`. */
  toolRoots?: Record<string, string[]>;
  serve?: { mcp?: ServeMcpConfig; http?: ServeHttpConfig };
}

export interface FoundConfig {
  readonly file: string;
  readonly dir: string;
  readonly config: ToolwrightConfig;
}

/** The nearest config: in `from` or the directories above it, stopping at the project root. */
export function findConfig(from: string): string | undefined {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    const present = CONFIG_NAMES.filter((name) => fs.existsSync(path.join(dir, name)));
    if (present.length > 1) {
      throw new CliError(`${dir} has ${joinWords(present)}: keep one toolwright.config file and delete the others.`);
    }
    if (present.length === 1) return path.join(dir, present[0]);
    if (fs.existsSync(path.join(dir, 'package.json')) || path.dirname(dir) === dir) return undefined;
  }
}

/** Reads and checks a config file; `load` imports a JavaScript module. */
export async function readConfig(file: string, load: (file: string) => Promise<unknown>): Promise<FoundConfig> {
  let raw: unknown;
  try {
    if (file.endsWith('.json')) raw = JSON.parse(fs.readFileSync(file, 'utf8'));
    else {
      const module = (await load(file)) as { default?: unknown } | undefined;
      raw = module && typeof module === 'object' && 'default' in module && module.default !== undefined ? module.default : module;
    }
  } catch (thrown) {
    // The loader's own "could not load" wraps what Node said: the config names the file once.
    const error = thrown instanceof CliError && (thrown as { cause?: unknown }).cause !== undefined ? (thrown as { cause?: unknown }).cause : thrown;
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new CliError(`could not read ${path.basename(file)}: ${reason}. ${moduleSystemFix(path.basename(file), reason)}`);
  }
  return { file, dir: path.dirname(file), config: checkConfig(raw, path.basename(file)) };
}

/**
 * The fix for a config written for the other module system: `module.exports` in a file Node loads as
 * an ES module (`.js` under `"type": "module"`, or `.mjs`), or `export default` in one it loads as
 * CommonJS.
 */
function moduleSystemFix(name: string, reason: string): string {
  const stem = name.replace(/\.[^.]+$/, '');
  if (/\b(module|exports|require) is not defined in ES module scope/.test(reason)) {
    return (
      `${name} is loaded as an ES module (${name.endsWith('.mjs') ? 'its extension' : 'package.json has "type": "module"'}), where module.exports does not exist: ` +
      `rename it to ${stem}.cjs, or write export default { … } instead of module.exports = { … }.`
    );
  }
  if (/Unexpected token 'export'|Cannot use import statement outside a module/.test(reason)) {
    return (
      `${name} is loaded as CommonJS (${name.endsWith('.cjs') ? 'its extension' : 'package.json has no "type": "module"'}), where export does not exist: ` +
      `rename it to ${stem}.mjs, or write module.exports = { … } instead of export default { … }.`
    );
  }
  return 'Fix the file (it must export the config object).';
}

const KEYS = ['import', 'adapters', 'toolRoots', 'serve'];

function checkConfig(raw: unknown, name: string): ToolwrightConfig {
  if (!isPlainObject(raw))
    throw new CliError(`${name} must export an object such as { import: ['./src/tools'] }; got ${describeValue(raw)}.`);
  const unknown = Object.keys(raw).filter((key) => !KEYS.includes(key));
  if (unknown.length > 0) throw new CliError(`${name}: unknown key '${unknown[0]}'. Known keys: ${joinWords(KEYS)}.`);
  const strings = (value: unknown, key: string): void => {
    if (value !== undefined && (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item === ''))) {
      throw new CliError(`${name}: '${key}' must be a list of strings; got ${describeValue(value)}.`);
    }
  };
  strings(raw.import, 'import');
  strings(raw.adapters, 'adapters');
  if (raw.toolRoots !== undefined) {
    if (!isPlainObject(raw.toolRoots))
      throw new CliError(`${name}: 'toolRoots' must map adapter keys to directories, like { mcp: ['./src/tools'] }.`);
    for (const [key, roots] of Object.entries(raw.toolRoots)) strings(roots, `toolRoots.${key}`);
  }
  if (raw.serve !== undefined) {
    if (!isPlainObject(raw.serve))
      throw new CliError(`${name}: 'serve' must be an object like { mcp: { server: './src/server#options' } }.`);
    const extra = Object.keys(raw.serve).filter((key) => key !== 'mcp' && key !== 'http');
    if (extra.length > 0) throw new CliError(`${name}: unknown key 'serve.${extra[0]}'. Known: serve.mcp, serve.http.`);
    for (const [key, value] of Object.entries(raw.serve)) {
      if (!isPlainObject(value)) throw new CliError(`${name}: 'serve.${key}' must be an object; got ${describeValue(value)}.`);
      if (value.port !== undefined && !(Number.isInteger(value.port) && (value.port as number) >= 0 && (value.port as number) <= 65535)) {
        throw new CliError(`${name}: 'serve.${key}.port' must be a port number from 0 to 65535; got ${describeValue(value.port)}.`);
      }
      if (value.host !== undefined && typeof value.host !== 'string') throw new CliError(`${name}: 'serve.${key}.host' must be a string.`);
    }
    for (const key of ['mcp', 'http'] as const) {
      const server = (raw.serve as Record<string, { server?: unknown } | undefined>)[key]?.server;
      if (server !== undefined && typeof server !== 'string' && !isPlainObject(server)) {
        throw new CliError(
          `${name}: 'serve.${key}.server' must be the server options object or a 'module#export' string; got ${describeValue(server)}.`,
        );
      }
    }
    const prefix = (raw.serve as { http?: { prefix?: unknown } }).http?.prefix;
    if (prefix !== undefined && (typeof prefix !== 'string' || !prefix.startsWith('/'))) {
      throw new CliError(`${name}: 'serve.http.prefix' must be a path such as '/api'; got ${describeValue(prefix)}.`);
    }
  }
  return raw as ToolwrightConfig;
}
