/**
 * Reads a tsconfig.json as TypeScript does: JSON with comments and trailing commas, its
 * `compilerOptions` merged through the `extends` chain (a path or a package). Used by the
 * `toolwright` command's loader and by the message for a class without type metadata.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The compiler options toolwright reads; `paths` and `baseUrl` resolved against the file that sets them. */
export interface TsconfigOptions {
  target?: string;
  useDefineForClassFields?: boolean;
  experimentalDecorators?: boolean;
  emitDecoratorMetadata?: boolean;
  baseUrl?: string;
  paths?: Record<string, string[]>;
  /** Where `paths` entries are relative to: the `baseUrl`, or the directory of the file that sets `paths`. */
  pathsBase?: string;
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

function readOptions(file: string, seen: Set<string>): TsconfigOptions {
  if (seen.has(file)) return {};
  seen.add(file);
  const raw = parseJsonc(fs.readFileSync(file, 'utf8')) as { extends?: string | string[]; compilerOptions?: TsconfigOptions };
  const parents = raw.extends === undefined ? [] : Array.isArray(raw.extends) ? raw.extends : [raw.extends];
  let options: TsconfigOptions = {};
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

/** A tsconfig.json's compiler options through its `extends` chain; throws when a file is not JSON with comments. */
export function readTsconfigOptions(file: string): TsconfigOptions {
  return readOptions(file, new Set());
}

/** The nearest tsconfig.json at or above `dir` (stopping at the filesystem root). */
export function findTsconfig(dir: string): string | undefined {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    const file = path.join(at, 'tsconfig.json');
    if (fs.existsSync(file)) return file;
    if (path.dirname(at) === at) return undefined;
  }
}
