import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const repo = path.resolve(__dirname, '..', '..');

/** Runs a benchmark worker script in a fresh Node process (with `nodeFlags`) and parses the JSON it prints. */
export function runWorker<T>(script: string, args: string[], nodeFlags: string[] = []): T {
  const output = execFileSync(
    process.execPath,
    [...nodeFlags, '-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', script, ...args],
    { cwd: repo, encoding: 'utf8', env: { ...process.env, TS_NODE_PROJECT: path.join(repo, 'tsconfig.json'), NODE_ENV: 'production' } },
  );
  return JSON.parse(output) as T;
}
