import * as fs from 'node:fs';
import * as path from 'node:path';
import { catalogMark, forgetSince } from '../metadata/catalog';
import { describeValue } from '../util/describe-value';
import { warn } from '../util/warnings';
import { DeclarationError } from '../errors/declaration-errors';

/** Directory names that hold whole applications, never just tools. */
const BULK_DIRECTORIES = ['src', 'app', 'lib', 'dist', 'actions'];
const LOADABLE = /\.(c?js|ts|cts)$/;
const SKIPPED = /(\.d\.ts|\.(test|spec)\.[cm]?[jt]s)$/;

/**
 * Normalizes a tool root lexically (trim, `./` and trailing `/` dropped, `a/../b` resolved) and
 * refuses roots too broad to expose by accident: empty, `.`, escaping with `..`, the filesystem
 * root, or ending in a bulk directory. Runs when roots are assigned and again when they are read.
 */
export function normalizeToolRoot(raw: unknown, adapter: string): string {
  if (typeof raw !== 'string') {
    throw new DeclarationError(`Tool roots for '${adapter}' must be directory paths; got ${describeValue(raw)}.`);
  }
  const trimmed = raw.trim();
  const lexical = trimmed === '' ? '' : path.normalize(trimmed);
  const normalized = path.isAbsolute(lexical) && path.parse(lexical).root === lexical ? lexical : lexical.replace(/[\\/]+$/, '');
  const tooBroad = (why: string): never => {
    throw new DeclarationError(
      `Tool root ${describeValue(raw)} for '${adapter}' is too broad: ${why}. ` +
        'Point it at a directory that holds only tools, such as agent_tools.',
    );
  };
  if (normalized === '' || normalized === '.') tooBroad('it is the project root');
  if (normalized === '..' || normalized.startsWith(`..${path.sep}`)) tooBroad('it escapes the project with ..');
  if (path.isAbsolute(normalized) && path.parse(normalized).root === normalized) tooBroad('it is the filesystem root');
  const base = path.basename(normalized);
  if (BULK_DIRECTORIES.includes(base)) tooBroad(`'${base}' holds a whole application, not just tools`);
  return normalized;
}

/** True when `file` lies inside `root` (a sibling that merely shares a prefix does not). */
export function isUnder(file: string, root: string): boolean {
  const relative = path.relative(root, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

function listModules(directory: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (LOADABLE.test(entry.name) && !SKIPPED.test(entry.name)) found.push(full);
    }
  };
  walk(directory);
  // A compiled module beside its TypeScript source is the same module: load it once.
  const names = new Set(found);
  return found.filter((file) => !(file.endsWith('.ts') && names.has(file.replace(/\.ts$/, '.js'))));
}

/** A tool root as registered: the normalized path as given, and the directory it names. */
export interface ToolRoot {
  readonly root: string;
  readonly absolute: string;
  /** The directory a relative root was resolved against, and whether it was `baseDir`. */
  readonly base: string;
  readonly fromBaseDir: boolean;
}

/**
 * Checks and resolves a tool root: relative roots resolve against `baseDir` when given (so a server
 * started from another directory, as desktop clients do, finds them), otherwise against the
 * working directory at registration.
 */
export function resolveToolRoot(raw: unknown, adapter: string, baseDir: string | undefined): ToolRoot {
  const root = normalizeToolRoot(raw, adapter);
  const base = baseDir ?? process.cwd();
  return { root, absolute: path.resolve(base, root), base, fromBaseDir: baseDir !== undefined };
}

/** `baseDir` must be an absolute directory path, such as `__dirname`. */
export function checkBaseDir(baseDir: unknown, adapter: string): string | undefined {
  if (baseDir === undefined) return undefined;
  if (typeof baseDir !== 'string' || !path.isAbsolute(baseDir)) {
    throw new DeclarationError(
      `registerAdapter('${adapter}'): baseDir must be an absolute directory path such as __dirname ` +
        `(or path.dirname(fileURLToPath(import.meta.url)) in an ES module); got ${describeValue(baseDir)}.`,
    );
  }
  return baseDir;
}

export interface LoadedRoot {
  /** Every class a module under the root exports. */
  readonly classes: readonly Function[];
}

/**
 * Loads every module under a root and collects the classes they export. A module that fails to
 * load is skipped with a warning naming the file and the error, and nothing it declared is kept.
 */
export function loadToolRoot({ root, absolute, base, fromBaseDir }: ToolRoot, adapter: string): LoadedRoot {
  if (!fs.existsSync(absolute) || !fs.statSync(absolute).isDirectory()) {
    const against = fromBaseDir ? `baseDir ${base}` : `the working directory ${base}`;
    const hint = path.isAbsolute(root)
      ? 'Create it or correct the path.'
      : fromBaseDir
        ? 'Create it or correct the path (relative to baseDir).'
        : `Create it or correct the path; to resolve relative roots against your module's directory, pass baseDir: __dirname to registerAdapter.`;
    throw new DeclarationError(
      `Tool root '${root}' for '${adapter}' is not a directory (resolved to ${absolute}` +
        (path.isAbsolute(root) ? '' : `, against ${against}`) +
        `). ${hint}`,
    );
  }
  const classes: Function[] = [];
  for (const file of listModules(absolute)) {
    if (!isUnder(file, absolute)) continue;
    const mark = catalogMark();
    let exported: unknown;
    try {
      exported = require(file);
    } catch (error) {
      forgetSince(mark);
      warn({
        code: 'TOOLWRIGHT_TOOL_ROOT_LOAD',
        message: `toolwright: skipped ${path.relative(process.cwd(), file)} under tool root '${root}': ${(error as Error)?.message ?? String(error)}`,
      });
      continue;
    }
    if (exported && (typeof exported === 'object' || typeof exported === 'function')) {
      for (const value of Object.values(exported as Record<string, unknown>)) {
        if (typeof value === 'function' && value.prototype && !classes.includes(value)) classes.push(value);
      }
    }
  }
  return { classes };
}
