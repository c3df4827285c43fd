#!/usr/bin/env node
// Runs a command's node arguments on one pinned Node line (scripts/node-lines):
//   node scripts/node-line.mjs 24 -r ts-node/register/transpile-only bench/run-all.ts
// `npm run bench:node24` is `npm run bench` this way. The line's node is first on PATH, so child
// processes the command starts with `node` (or process.execPath) run on it too.
import { spawn } from 'node:child_process';
import { envFor, LINES, nodeBinaries, unsupportedPlatform } from './node-lines/lines.mjs';

const [major, ...args] = process.argv.slice(2);
const line = LINES.find((candidate) => candidate.major === major);
if (!line || args.length === 0) {
  console.error(`usage: node scripts/node-line.mjs <${LINES.map((known) => known.major).join('|')}> <node arguments…>`);
  process.exit(2);
}
const unsupported = unsupportedPlatform();
if (unsupported) {
  console.error(`node-line: ${unsupported}.`);
  process.exit(1);
}
const [node] = nodeBinaries([line], (message) => console.log(`node-line: ${message}`));
const child = spawn(node, args, { stdio: 'inherit', env: envFor(node) });
child.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
