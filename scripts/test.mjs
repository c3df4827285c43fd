#!/usr/bin/env node
// The test stages, and what `npm test` and `npm run test:ci` run of them.
//
//   npm test                 # typecheck and jest on the machine's Node, at the same time
//   npm run test:browser     # the documentation site's build and the tests that drive chromium
//   npm run test:node-lines  # the Node-internals suites on the other Node lines (scripts/test-node-lines.mjs)
//   npm run test:ci          # all of them, as .ci/run does: `npm test`, then the browser stage, then the Node lines
//
// `npm test` is a contributor's loop: every suite but the browser ones, once, on the Node that runs
// it. The type check (tsc over src, test, examples and bench: ts-jest only transpiles) runs beside
// jest instead of before it; its output is printed when it ends, and a failure of either fails the run.
// jest.config.ts holds the one list of browser suites (BROWSER_SUITES): the main run leaves them
// out and jest.browser.config.ts runs exactly them, so that each suite belongs to exactly one stage
// (test/readme/test-stages.test.ts holds that).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (pkg, file) => join(root, 'node_modules', pkg, file);

/** Runs `node args…` in the repository; resolves with its exit code. `buffered`: its output is kept and printed when it ends. */
function run(name, args, { buffered = false } = {}) {
  const started = Date.now();
  const child = spawn(process.execPath, args, { cwd: root, stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  let output = '';
  if (buffered) {
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
  }
  return new Promise((resolve) =>
    child.once('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      if (buffered && output.trim() !== '') process.stdout.write(`\n${name}:\n${output}`);
      const verdict = code === 0 ? 'passed' : `FAILED (exit ${signal ?? code})`;
      console.log(`test: ${name} ${verdict} in ${seconds} s`);
      resolve(code === 0 ? 0 : 1);
    }),
  );
}

const STAGES = {
  /** tsc and jest at the same time. */
  main: async () => {
    const [typecheck, jest] = await Promise.all([
      run('typecheck (tsc -p tsconfig.json)', [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json'], { buffered: true }),
      run('jest', [bin('jest', 'bin/jest.js'), ...passThrough]),
    ]);
    return typecheck || jest;
  },
  browser: () => run('jest (browser suites)', [bin('jest', 'bin/jest.js'), '--config', 'jest.browser.config.ts', ...passThrough]),
  'node-lines': () => run('node lines', [join(root, 'scripts', 'test-node-lines.mjs'), ...passThrough]),
};

const args = process.argv.slice(2);
const ci = args.includes('--ci');
const named = args.filter((arg) => arg in STAGES);
const passThrough = args.filter((arg) => arg !== '--ci' && !(arg in STAGES));
const stages = ci ? Object.keys(STAGES) : named.length > 0 ? named : ['main'];

const started = Date.now();
let failed = 0;
// One stage after the other: each already uses the machine's cores, and a later stage's failure
// must not hide an earlier one's output.
for (const stage of stages) failed |= await STAGES[stage]();
if (stages.length > 1) console.log(`test: ${stages.join(', ')}: ${failed ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(failed);
