/**
 * Builds toolwright into a private package directory (so the tests never race a rebuild of ./dist,
 * such as the one `npm pack` does in test/package), with a copy of the loan desk
 * and its repository config, and the CLI fixture projects under fixtures/ (where `toolwright`
 * resolves to that build). The tests then run the built bin as a user does: `node dist/cli/bin.js`.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const repo = path.resolve(__dirname, '..', '..');

let home = '';

function copy(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true });
}

/** Builds the package into a fresh temporary directory and lays out the projects; returns the directory. */
export function buildPackage(): string {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-cli-'));
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(home, 'node_modules'), 'dir');
  fs.copyFileSync(path.join(repo, 'package.json'), path.join(home, 'package.json'));
  execFileSync(process.execPath, [path.join(repo, 'scripts', 'build.js'), '--into', home, '--no-types'], { cwd: repo, stdio: 'pipe' });
  copy(path.join(repo, 'examples', 'loan-desk'), path.join(home, 'examples', 'loan-desk'));
  for (const file of ['toolwright.config.js', 'tsconfig.json']) fs.copyFileSync(path.join(repo, file), path.join(home, file));
  copy(path.join(repo, 'test', 'fixtures', 'cli'), path.join(home, 'fixtures'));
  fs.mkdirSync(path.join(home, 'fixtures', 'node_modules'));
  fs.symlinkSync(home, path.join(home, 'fixtures', 'node_modules', 'toolwright'), 'dir');
  return home;
}

export function removeBuild(): void {
  if (home) fs.rmSync(home, { recursive: true, force: true });
}

export interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built bin in `cwd` and waits for it to exit. */
export function toolwright(args: string[], options: { cwd: string; input?: string; env?: NodeJS.ProcessEnv }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(home, 'dist', 'cli', 'bin.js'), ...args], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

export const bin = () => path.join(home, 'dist', 'cli', 'bin.js');

/** A fresh copy of the fixture project `name` beside the fixtures (where `toolwright` resolves), to change freely. */
export function fixtureCopy(name: string): string {
  const dir = fs.mkdtempSync(path.join(home, 'fixtures', `${name}-copy-`));
  fs.cpSync(path.join(home, 'fixtures', name), dir, { recursive: true });
  return dir;
}

/** Starts a long-running bin command and resolves once a stdout or stderr line matches. */
export function startUntil(args: string[], cwd: string, pattern: RegExp, env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; match: RegExpMatchArray; output: () => string }> {
  const child = spawn(process.execPath, [bin(), ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = output.match(pattern);
      if (match) resolve({ child, match, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${code} before ${pattern}: ${output}`)));
  });
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Resolves once `output()` matches `pattern`; rejects, showing the output, if it has not in 20 s. */
export function until(output: () => string, pattern: RegExp): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (pattern.test(output())) {
        clearInterval(timer);
        clearTimeout(timeout);
        resolve();
      }
    }, 50);
    const timeout = setTimeout(() => (clearInterval(timer), reject(new Error(`no ${pattern} in: ${output()}`))), 20_000);
  });
}

/**
 * Makes `change` once and resolves once `dev` has said it saw a change and its server has said it is
 * serving again since.
 */
export async function restarted(output: () => string, change: () => void): Promise<void> {
  const before = output().length;
  change();
  await until(() => output().slice(before), /changed, restarting\n[\s\S]*serving .* on http/);
}
