/**
 * Consumer projects for the packed-tarball tests: pack toolwright once, install it with a set of
 * dependencies into a fresh directory, compile a consumer from test/package/consumers under one
 * module setting, and run it. Child processes run asynchronously, so installs overlap.
 */
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const repo = path.resolve(__dirname, '..', '..');
const tsc = path.join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
const consumers = path.join(__dirname, 'consumers');

interface Output {
  stdout: string;
  stderr: string;
}

/** Runs a command; rejects with its output when it exits non-zero. */
export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Output> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} (in ${cwd}) failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

/** `npm pack` (which builds dist/) into `destination`; returns the tarball's path. */
export function packToolwright(destination: string): string {
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: repo,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [{ filename }] = JSON.parse(output.slice(output.indexOf('['))) as Array<{ filename: string }>;
  return path.join(destination, filename);
}

/** The version of a package installed in this repository (what the suite itself tests). */
export function repoVersion(name: string): string {
  return `${name}@${(JSON.parse(fs.readFileSync(path.join(repo, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version}`;
}

/**
 * Install specs for the optional peers (package.json peerDependenciesMeta), one per peer: its range's
 * `newest` (last) or `oldest` (first) alternative (`bullmq` `^5.0.0 || ^6.0.0` → `bullmq@^6.0.0`), so
 * the consumer projects install exactly the majors the ranges claim. `except` leaves peers out.
 */
export function optionalPeerSpecs(which: 'newest' | 'oldest', except: readonly string[] = []): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as {
    peerDependencies: Record<string, string>;
    peerDependenciesMeta: Record<string, { optional?: boolean }>;
  };
  return Object.keys(manifest.peerDependenciesMeta)
    .filter((name) => manifest.peerDependenciesMeta[name].optional && !except.includes(name))
    .map((name) => {
      const alternatives = manifest.peerDependencies[name].split('||').map((range) => range.trim());
      return `${name}@${which === 'newest' ? alternatives[alternatives.length - 1] : alternatives[0]}`;
    });
}

/** A fresh npm project under `root` with `packages` installed (one `npm install`). */
export async function createProject(root: string, name: string, packages: readonly string[]): Promise<string> {
  const dir = path.join(root, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...packages], dir);
  return dir;
}

export interface Setting {
  readonly name: string;
  readonly compilerOptions: Readonly<Record<string, unknown>>;
  /** The consumer is an ES module (`"type": "module"` in its package.json). */
  readonly esm: boolean;
}

const common = {
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  target: 'ES2022',
  skipLibCheck: true,
  types: [],
  outDir: 'out',
};

export const SETTINGS: Readonly<Record<'node10' | 'node16' | 'nodenext' | 'bundler', Setting>> = {
  node10: { name: 'CommonJS, node10 resolution', compilerOptions: { module: 'commonjs', moduleResolution: 'node10' }, esm: false },
  node16: { name: 'CommonJS, node16 resolution', compilerOptions: { module: 'node16', moduleResolution: 'node16' }, esm: false },
  nodenext: { name: 'ES module, nodenext resolution', compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' }, esm: true },
  bundler: { name: 'bundler resolution, run as an ES module', compilerOptions: { module: 'esnext', moduleResolution: 'bundler' }, esm: true },
};

/**
 * Copies consumers (file names in test/package/consumers) into `project/<dir>` and compiles them
 * with the repository's TypeScript under `setting`; rejects with the compiler's errors.
 */
export async function compile(project: string, dir: string, setting: Setting, files: readonly string[]): Promise<string> {
  return compileSources(project, dir, setting, Object.fromEntries(files.map((file) => [file, fs.readFileSync(path.join(consumers, file), 'utf8')])));
}

/** As `compile`, for sources given by file name (generated ones); `options` adds compiler options. */
export async function compileSources(
  project: string,
  dir: string,
  setting: Setting,
  sources: Readonly<Record<string, string>>,
  options: Readonly<Record<string, unknown>> = {},
): Promise<string> {
  const where = path.join(project, dir);
  const files = Object.keys(sources);
  fs.mkdirSync(where);
  for (const file of files) fs.writeFileSync(path.join(where, file), sources[file]);
  if (setting.esm) fs.writeFileSync(path.join(where, 'package.json'), JSON.stringify({ type: 'module' }));
  fs.writeFileSync(path.join(where, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...common, ...setting.compilerOptions, ...options }, files }));
  await run(process.execPath, [tsc, '-p', 'tsconfig.json'], where);
  return where;
}

/** Runs a compiled consumer (`app.ts` → out/app.js); its stdout is one JSON document. */
export async function runConsumer(where: string, file: string, env: NodeJS.ProcessEnv = {}): Promise<{ json: unknown; stderr: string }> {
  const { stdout, stderr } = await run(process.execPath, [path.join('out', file.replace(/\.ts$/, '.js'))], where, env);
  return { json: JSON.parse(stdout), stderr };
}

/**
 * Bytes of every file under `dir` (apparent size, not disk blocks); `nested: false` leaves out
 * node_modules folders (a package's own files only).
 */
export function sizeOf(dir: string, { nested = true } = {}): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += nested || entry.name !== 'node_modules' ? sizeOf(full, { nested }) : 0;
    else if (entry.isFile()) total += fs.statSync(full).size;
  }
  return total;
}

/** The installed packages of a project: directory → name, nested copies included. */
export function installedPackages(project: string): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (modules: string) => {
    if (!fs.existsSync(modules)) return;
    for (const entry of fs.readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const dirs = entry.startsWith('@') ? fs.readdirSync(path.join(modules, entry)).map((scoped) => path.join(modules, entry, scoped)) : [path.join(modules, entry)];
      for (const dir of dirs) {
        const manifest = path.join(dir, 'package.json');
        if (!fs.existsSync(manifest)) continue;
        found.set(dir, (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name: string }).name);
        visit(path.join(dir, 'node_modules'));
      }
    }
  };
  visit(path.join(project, 'node_modules'));
  return found;
}

/**
 * The directories a package brings of its own: itself and its `dependencies`, transitively,
 * resolved the way Node does (nearest node_modules first); peers are the app's, not counted.
 */
export function ownClosure(project: string, name: string): Set<string> {
  const seen = new Set<string>();
  const locate = (from: string, dependency: string): string | undefined => {
    for (let dir = from; dir.startsWith(project); dir = path.dirname(dir)) {
      const candidate = path.join(dir, 'node_modules', dependency);
      if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    }
    return undefined;
  };
  const visit = (dir: string) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      const found = locate(dir, dependency);
      if (found) visit(found);
    }
  };
  visit(path.join(project, 'node_modules', name));
  return seen;
}
