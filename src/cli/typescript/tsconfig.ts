import * as fs from 'node:fs';
import * as path from 'node:path';
import { CliError } from '../cli-error';

/** A `compilerOptions.paths` entry: `pattern` with at most one `*`, and where it maps to (absolute). */
export interface PathMapping {
  readonly prefix: string;
  readonly suffix: string;
  readonly wildcard: boolean;
  readonly targets: readonly string[];
}

/** What the command's TypeScript loader takes from the project's tsconfig.json. */
export interface CompilerSettings {
  /** The tsconfig.json read, if any. */
  readonly file?: string;
  /** Class fields as own properties (`Object.defineProperty`) or assignments in the constructor. */
  readonly useDefineForClassFields: boolean;
  readonly paths: readonly PathMapping[];
}

/** tsconfig.json is JSON with comments and trailing commas. */
function parseJsonc(text: string): unknown {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      out += text.slice(start, i + 1);
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (char === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2);
      if (i < 0) break;
      i++;
    } else out += char;
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
}

interface RawOptions {
  target?: string;
  useDefineForClassFields?: boolean;
  baseUrl?: string;
  paths?: Record<string, string[]>;
}

/** compilerOptions through the `extends` chain; `paths` and `baseUrl` resolved against the file that sets them. */
function readOptions(file: string, seen: Set<string>): RawOptions & { pathsBase?: string } {
  if (seen.has(file)) return {};
  seen.add(file);
  const raw = parseJsonc(fs.readFileSync(file, 'utf8')) as { extends?: string | string[]; compilerOptions?: RawOptions };
  const parents = raw.extends === undefined ? [] : Array.isArray(raw.extends) ? raw.extends : [raw.extends];
  let options: RawOptions & { pathsBase?: string } = {};
  for (const parent of parents) {
    const parentFile = resolveExtends(parent, path.dirname(file));
    if (parentFile) options = { ...options, ...readOptions(parentFile, seen) };
  }
  const own = raw.compilerOptions ?? {};
  const dir = path.dirname(file);
  options = { ...options, ...own };
  if (own.baseUrl !== undefined) options.baseUrl = path.resolve(dir, own.baseUrl);
  if (own.paths !== undefined) options.pathsBase = options.baseUrl ?? dir;
  return options;
}

function resolveExtends(specifier: string, from: string): string | undefined {
  const candidates = specifier.startsWith('.') || path.isAbsolute(specifier) ? [path.resolve(from, specifier)] : [];
  if (candidates.length === 0) {
    for (const request of [specifier, `${specifier}/tsconfig.json`, `${specifier}.json`]) {
      try {
        candidates.push(require.resolve(request, { paths: [from] }));
      } catch {
        // try the next form
      }
    }
  }
  return [...candidates, ...candidates.map((file) => `${file}.json`)].find((file) => fs.existsSync(file) && fs.statSync(file).isFile());
}

/** ES2022 and later define class fields (TypeScript's default follows the target). */
function definesByTarget(target: string | undefined, root: string): boolean {
  if (target !== undefined) {
    const year = /^es(\d{4})$/i.exec(target)?.[1];
    return target.toLowerCase() === 'esnext' || (year !== undefined && Number(year) >= 2022);
  }
  // No target: TypeScript 5 defaults to ES5 (assignments), 6 and later to the newest (define).
  try {
    const manifest = require.resolve('typescript/package.json', { paths: [root] });
    return Number((JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version.split('.')[0]) >= 6;
  } catch {
    return true;
  }
}

/** The nearest tsconfig.json at or above `root` (stopping at the filesystem root). */
function findTsconfig(root: string): string | undefined {
  for (let dir = root; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'tsconfig.json');
    if (fs.existsSync(file)) return file;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Reads the project's tsconfig.json; a project without one gets TypeScript's defaults. */
export function readCompilerSettings(root: string): CompilerSettings {
  const file = findTsconfig(root);
  let options: RawOptions & { pathsBase?: string } = {};
  if (file) {
    try {
      options = readOptions(file, new Set());
    } catch (error) {
      throw new CliError(`cannot read ${file}: ${(error as Error).message}. Fix the file (JSON with comments).`);
    }
  }
  const base = options.pathsBase ?? options.baseUrl;
  const paths = Object.entries(options.paths ?? {}).map(([pattern, targets]): PathMapping => {
    const star = pattern.indexOf('*');
    return {
      prefix: star < 0 ? pattern : pattern.slice(0, star),
      suffix: star < 0 ? '' : pattern.slice(star + 1),
      wildcard: star >= 0,
      targets: targets.map((target) => path.resolve(base!, target)),
    };
  });
  return {
    file,
    useDefineForClassFields: options.useDefineForClassFields ?? definesByTarget(options.target, root),
    paths,
  };
}
