import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Tools } from '../index';
import { CliError, oneLine } from './cli-error';
import { CONFIG_NAMES, findConfig, readConfig, ToolwrightConfig } from './config-file';
import { importModule, isEsModule, isTypeScript, registerTypeScript, SYNTAX_ERROR_PREFIX } from './typescript-loader';

/** The options every command that loads a project takes. */
export interface ProjectOptions {
  config?: string;
  import?: string[];
  cwd?: string;
}

export interface Project {
  /** Where the config is, or the working directory when there is none. */
  readonly root: string;
  readonly configFile?: string;
  readonly config: ToolwrightConfig;
  /** The project's source files the loaded modules pulled in (not node_modules): what `dev` watches. */
  loadedFiles(): string[];
  /**
   * The directories of the ES modules it loaded: Node lists no ES module's imports, so `dev` watches
   * these directories, recursively, for changes to source files.
   */
  moduleDirectories(): string[];
  /** Loads a `module#export` reference relative to the project root. */
  loadExport(reference: string): Promise<unknown>;
}

/** Built-in adapters whose entry point registers their key (and hints). */
const BUILT_IN_ADAPTERS: Record<string, () => unknown> = {
  mcp: () => require('../adapters/mcp'),
  openai: () => require('../adapters/openai'),
  ai: () => require('../adapters/ai'),
};

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json'];

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** A module specifier → its file: a path (with or without extension, or a directory's index) or a package. */
export function resolveModule(specifier: string, base: string): string {
  if (specifier.startsWith('.') || path.isAbsolute(specifier)) {
    const full = path.resolve(base, specifier);
    const candidates = [full, ...EXTENSIONS.map((ext) => full + ext), ...EXTENSIONS.map((ext) => path.join(full, `index${ext}`))];
    const found = candidates.find(isFile);
    if (found) return found;
    throw new CliError(`cannot find module '${specifier}' (looked in ${full}): fix the path in --import or the config's 'import' list.`);
  }
  try {
    return require.resolve(specifier, { paths: [base] });
  } catch {
    throw new CliError(
      `cannot find module '${specifier}' from ${base}: install it or fix the name in --import or the config's 'import' list.`,
    );
  }
}

/** ES modules loaded so far (Node keeps no list of them). */
const esmLoaded = new Set<string>();

/** Loads one file as the project's own code: `require` for CommonJS, `import()` for ES modules. */
async function loadFile(file: string, root: string): Promise<unknown> {
  const esm = isEsModule(file);
  if (isTypeScript(file)) registerTypeScript(root, file, esm);
  try {
    if (esm) {
      esmLoaded.add(file);
      return await importModule(pathToFileURL(file).href);
    }
    return require(file);
  } catch (error) {
    if (error instanceof CliError) throw error;
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    // From the ES module hooks' thread, where the error's class does not survive.
    if (reason.startsWith(SYNTAX_ERROR_PREFIX)) throw new CliError(reason);
    const where = path.relative(root, file) || file;
    const wrapped = new CliError(`could not load ${where}: ${reason}`);
    (wrapped as { cause?: unknown }).cause = error;
    throw wrapped;
  }
}

/**
 * A config that names no adapters gets `mcp`, as `serve mcp` and `dev` do (and a program that
 * imports toolwright/mcp): a tool that names no adapter (`@Tool()`) is a member of every registered
 * one, so `list`, `call` and `manifest` see the tools those commands serve. Without the MCP peer
 * installed, the key alone is registered (what is listed stays the same).
 */
function registerDefaultAdapter(): void {
  try {
    BUILT_IN_ADAPTERS.mcp();
  } catch {
    Tools.registerAdapter('mcp');
  }
}

/** The real path of the toolwright this command runs, and of the one the project would load. */
function checkOneToolwright(root: string): void {
  let theirs: string;
  try {
    theirs = fs.realpathSync(require.resolve('toolwright', { paths: [root] }));
  } catch {
    return; // the project does not depend on toolwright by name (it may use relative imports)
  }
  const ours = fs.realpathSync(require.resolve('../index'));
  if (theirs !== ours) {
    throw new CliError(
      `this project loads toolwright from ${path.dirname(theirs)} but this command is ${path.dirname(ours)}: run the project's own copy (npx toolwright) so both see the same tools.`,
    );
  }
}

/** Finds the config (or takes `--import`), registers the adapters, and loads the project's modules. */
export async function loadProject(options: ProjectOptions): Promise<Project> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const configFile = options.config ? path.resolve(cwd, options.config) : findConfig(cwd);
  if (options.config && !isFile(configFile!)) throw new CliError(`--config ${options.config}: no such file.`);
  const imports = options.import ?? [];
  if (!configFile && imports.length === 0) {
    throw new CliError(
      `no ${CONFIG_NAMES[0]} (or .mjs, .cjs, .json) in ${cwd} or above, and no --import: create one exporting { import: ['./src/tools'], adapters: ['mcp'] }, or pass --import <module>.`,
    );
  }
  const root = configFile ? path.dirname(configFile) : cwd;
  checkOneToolwright(root);
  const { config } = configFile ? await readConfig(configFile, (file) => loadFile(file, root)) : { config: {} as ToolwrightConfig };

  if (config.adapters === undefined) registerDefaultAdapter();
  for (const key of config.adapters ?? []) {
    if (BUILT_IN_ADAPTERS[key]) {
      try {
        BUILT_IN_ADAPTERS[key]();
      } catch (error) {
        throw new CliError(
          `adapter '${key}' could not load: ${(error as Error).message.split('\n')[0]}. Install its peer dependency or remove it from 'adapters'.`,
        );
      }
    } else Tools.registerAdapter(key);
  }
  for (const [key, roots] of Object.entries(config.toolRoots ?? {})) {
    try {
      Tools.registerAdapter(key, { toolRoots: roots.map((root_) => path.resolve(root, root_)) });
    } catch (error) {
      throw new CliError(`${path.basename(configFile!)}: toolRoots.${key}: ${oneLine(error)}`);
    }
  }

  const before = new Set(Object.keys(require.cache));
  const modules = [...(config.import ?? []).map((spec) => resolveModule(spec, root)), ...imports.map((spec) => resolveModule(spec, cwd))];
  for (const file of modules) await loadFile(file, root);

  const loaded = (): string[] => {
    const files = new Set(modules);
    for (const file of Object.keys(require.cache)) {
      if (!before.has(file) && !file.includes(`${path.sep}node_modules${path.sep}`)) files.add(file);
    }
    if (configFile) files.add(configFile);
    return [...files].filter((file) => file.startsWith(root + path.sep) || modules.includes(file)).sort();
  };
  return {
    root,
    configFile,
    config,
    loadedFiles: loaded,
    moduleDirectories: () => [...new Set([...esmLoaded].filter((file) => file !== configFile).map((file) => path.dirname(file)))].sort(),
    loadExport: async (reference) => {
      const [specifier, name = 'default'] = reference.split('#');
      const module = (await loadFile(resolveModule(specifier, root), root)) as Record<string, unknown>;
      const value = module[name] ?? (name === 'default' ? module : undefined);
      if (value === undefined) throw new CliError(`'${reference}': ${specifier} has no export '${name}'. Export it or fix the reference.`);
      return value;
    },
  };
}
