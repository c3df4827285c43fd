import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PathMapping } from './tsconfig';

const TS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts'];
/** What a TypeScript import names → the source file: `./x.js` is `./x.ts` before compilation. */
const SOURCE_OF: Record<string, readonly string[]> = { '.js': ['.ts', '.tsx'], '.jsx': ['.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The TypeScript source a path names when the path itself is not a file: `x.js` → `x.ts`, `x` →
 * `x.ts` or `x/index.ts`. Undefined when there is none (Node's own resolution then decides).
 */
export function typeScriptSource(file: string): string | undefined {
  if (isFile(file)) return undefined;
  const ext = path.extname(file);
  const candidates = [
    ...(SOURCE_OF[ext] ?? []).map((source) => file.slice(0, -ext.length) + source),
    ...TS_EXTENSIONS.map((source) => file + source),
    ...TS_EXTENSIONS.map((source) => path.join(file, `index${source}`)),
  ];
  return candidates.find(isFile);
}

/** A bare specifier through tsconfig `paths`: the first mapped file that exists, as TypeScript resolves it. */
export function mapPath(specifier: string, paths: readonly PathMapping[]): string | undefined {
  if (specifier.startsWith('.') || path.isAbsolute(specifier) || specifier.startsWith('node:')) return undefined;
  let best: { mapping: PathMapping; star: string } | undefined;
  for (const mapping of paths) {
    const matches = mapping.wildcard
      ? specifier.length >= mapping.prefix.length + mapping.suffix.length &&
        specifier.startsWith(mapping.prefix) &&
        specifier.endsWith(mapping.suffix)
      : specifier === mapping.prefix;
    // The longest prefix wins, as in TypeScript.
    if (matches && (!best || mapping.prefix.length > best.mapping.prefix.length)) {
      best = { mapping, star: mapping.wildcard ? specifier.slice(mapping.prefix.length, specifier.length - mapping.suffix.length) : '' };
    }
  }
  if (!best) return undefined;
  for (const target of best.mapping.targets) {
    const file = target.replace('*', best.star);
    if (isFile(file)) return file;
    const source = typeScriptSource(file);
    if (source) return source;
    for (const ext of ['.js', '.cjs', '.mjs', '.json']) if (isFile(file + ext)) return file + ext;
  }
  return undefined;
}

/** Whether Node loads `file` as an ES module: `.mjs`/`.mts`, or `.js`/`.ts` under `"type": "module"`. */
export function isEsModule(file: string): boolean {
  const ext = path.extname(file);
  if (ext === '.mjs' || ext === '.mts') return true;
  if (ext === '.cjs' || ext === '.cts' || ext === '.json') return false;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (isFile(manifest)) {
      try {
        return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { type?: string }).type === 'module';
      } catch {
        return false;
      }
    }
    if (path.dirname(dir) === dir) return false;
  }
}

export function isTypeScript(file: string): boolean {
  return TS_EXTENSIONS.includes(path.extname(file)) && !/\.d\.[cm]?ts$/.test(file);
}
