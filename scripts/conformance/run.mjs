#!/usr/bin/env node
// `npm run conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance) by
// spec revision (`--requirements <revision>`, what each revision requires, plus what it runs
// without scoring: the tasks extension, pending scenarios).
//
// Server: examples/conformance/main.ts is started once per mode (session, stateless) on a free
// port, and BOTH revisions run against that one endpoint. The suite reaches servers by URL only
// (it has no stdio server runner). Client: the suite's tool-calling client scenarios run against
// examples/conformance/client.ts, a client built on toolwright/mcp-client's public API.
//
// Every run is compared with its file examples/conformance/expected-failures.<revision>.<mode>.yml
// (mode: session, stateless or client), in the suite's format, each entry with its reason: a
// failing scenario not listed, or a listed one that passes, fails the run. That comparison is
// made here, the same way for scored and not-scored scenarios (the suite's own baseline check
// ignores the not-scored ones). One summary line per run; exit 0 only when every run matches.
//
// Options: --revision 2025-11-25|2026-07-28, --mode session|stateless|client (each repeatable;
// default all), --quiet (summary lines only), --baseline-dir <dir> (read the expected-failures
// files from there instead: the runner's own test uses it). On Node < 22 the suite runs with
// ./node20-fs-hook.mjs (see that file): a dev-only route.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(root, 'package.json'));
const suiteRoot = dirname(require.resolve('@modelcontextprotocol/conformance/package.json'));
const suiteCli = join(suiteRoot, 'dist', 'index.js');
const hook = join(root, 'scripts', 'conformance', 'node20-fs-hook.mjs');
const tsNode = ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register'];

const REVISIONS = ['2025-11-25', '2026-07-28'];
const MODES = ['session', 'stateless', 'client'];
/** The auth/* client scenarios (toolwright/mcp-client's `auth`), by revision; the extension ones are not scored. */
const AUTH_2025 = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
];
const AUTH_2026 = [
  ...AUTH_2025,
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
];
const AUTH_EXTENSIONS = [
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/enterprise-managed-authorization',
  'auth/dpop',
  'auth/dpop-nonce',
  'auth/wif-jwt-bearer',
];
/** The client scenarios that apply to a tool-calling client, by revision. */
const CLIENT_SCENARIOS = {
  '2025-11-25': ['tools_call', ...AUTH_2025, ...AUTH_EXTENSIONS],
  '2026-07-28': [
    ...AUTH_2026,
    ...AUTH_EXTENSIONS,
    'tools_call',
    'request-metadata',
    'sep-2322-client-request-state',
    'http-standard-headers',
    'http-custom-headers',
    'http-invalid-tool-headers',
    'json-schema-ref-no-deref',
  ],
};

function option(name, allowed) {
  const values = [];
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) if (args[i] === name) values.push(args[++i]);
  for (const value of values) {
    if (!allowed.includes(value)) {
      console.error(`conformance: ${name} must be ${allowed.join(', ')}; got ${JSON.stringify(value)}.`);
      process.exit(2);
    }
  }
  return values.length > 0 ? allowed.filter((value) => values.includes(value)) : allowed;
}
const revisions = option('--revision', REVISIONS);
const modes = option('--mode', MODES);
const quiet = process.argv.includes('--quiet');
const baselineAt = process.argv.indexOf('--baseline-dir');
const baselines = baselineAt >= 0 ? process.argv[baselineAt + 1] : join(root, 'examples', 'conformance');
const baseline = (revision, mode) => join(baselines, `expected-failures.${revision}.${mode}.yml`);

/** The scenario names listed under `leg:` in a suite-format YAML list (`server:` / `client:`), comments ignored. */
function listed(file, leg) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const names = [];
  let inLeg = false;
  for (const line of lines) {
    if (/^\S/.test(line)) inLeg = line.startsWith(`${leg}:`);
    const item = inLeg && line.match(/^\s+-\s+([\w/:-]+)\s*$/);
    if (item) names.push(item[1]);
  }
  return names;
}

/** The scenarios a revision runs without scoring, on one leg (from the suite's requirements file). */
function notScored(revision, leg) {
  const text = readFileSync(join(suiteRoot, 'requirements', `${revision}.yaml`), 'utf8');
  return [...text.matchAll(/- scenario: ([\w/-]+)\n\s+leg: (\w+)/g)].filter((m) => m[2] === leg).map((m) => m[1]);
}

/** Runs the suite's CLI; resolves with its exit code and output (colours removed). */
function suite(args, env = {}) {
  const nodeArgs = [...(Number(process.versions.node.split('.')[0]) < 22 ? ['--import', hook] : []), suiteCli];
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk) => {
      output += chunk;
      if (!quiet) process.stdout.write(chunk);
    });
  }
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output: output.replace(/\x1b\[[0-9;]*m/g, '') })));
}

/** Starts the conformance server on a free port; resolves with its URL and the child. */
function startServer(mode) {
  const child = spawn(process.execPath, [...tsNode, 'examples/conformance/main.ts', ...(mode === 'stateless' ? ['--stateless'] : [])], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TS_NODE_PROJECT: join(root, 'tsconfig.json') },
  });
  let errors = '';
  child.stderr.on('data', (chunk) => (errors += chunk));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve({ url: out.split('\n')[0].trim(), child });
    });
    child.once('exit', (code) => reject(new Error(`conformance server (${mode}) exited with ${code} before listening:\n${errors}`)));
  });
}

/**
 * Compares outcomes with the expected-failures file and prints the run's summary line. `outcomes`
 * maps each scenario run to true (passed) or false (failed); `unscored` names those not scored.
 */
function judge(label, file, leg, outcomes, unscored, seconds) {
  const expected = listed(file, leg);
  const ran = Object.keys(outcomes);
  const failed = ran.filter((name) => !outcomes[name]);
  const unexpected = failed.filter((name) => !expected.includes(name));
  const stale = expected.filter((name) => outcomes[name] === true);
  const missing = expected.filter((name) => !(name in outcomes));
  const scored = ran.filter((name) => !unscored.includes(name));
  const count = (names) => `${names.filter((n) => outcomes[n]).length} of ${names.length} passed`;
  const ok = ran.length > 0 && unexpected.length === 0 && stale.length === 0 && missing.length === 0;
  const problems = [
    ...(unexpected.length ? [`unexpected failures: ${unexpected.join(', ')}`] : []),
    ...(stale.length ? [`listed but passing (remove them): ${stale.join(', ')}`] : []),
    ...(missing.length ? [`listed but not run: ${missing.join(', ')}`] : []),
    ...(ran.length === 0 ? ['no scenario ran'] : []),
  ];
  const notScoredPart = ran.length > scored.length ? `; not scored: ${count(ran.filter((n) => unscored.includes(n)))}` : '';
  console.log(
    `conformance ${label}: ${ran.length} scenarios run; scored: ${count(scored)}${notScoredPart}; ${failed.length} expected failures; ` +
      `${ok ? 'matches its expected failures' : `DOES NOT match its expected failures (${problems.join('; ')})`} (${seconds.toFixed(1)} s)`,
  );
  return ok;
}

async function serverRuns(mode) {
  const { url, child } = await startServer(mode);
  let ok = true;
  try {
    for (const revision of revisions) {
      const started = Date.now();
      const { output } = await suite(['server', '--url', url, '--requirements', revision]);
      const summary = output.slice(output.lastIndexOf('=== SUMMARY ==='));
      const outcomes = Object.fromEntries([...summary.matchAll(/^([✓✗]) ([\w/-]+):/gm)].map((m) => [m[2], m[1] === '✓']));
      const file = baseline(revision, mode);
      const matches = judge(
        `server ${revision} ${mode}`,
        file,
        'server',
        outcomes,
        notScored(revision, 'server'),
        (Date.now() - started) / 1000,
      );
      if (!matches && Object.keys(outcomes).length === 0) process.stdout.write(output.slice(-2000));
      ok = matches && ok;
    }
  } finally {
    await stopServer(child, mode);
  }
  return ok;
}

/** SIGTERM, and the server's exit awaited: one still running 10 s later is reported and killed (never left behind). */
async function stopServer(child, mode) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', () => resolve(true)));
  child.kill('SIGTERM');
  if (await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve(false), 10_000))])) return;
  console.error(`conformance: the ${mode} server did not stop within 10 s of SIGTERM; killed.`);
  child.kill('SIGKILL');
  await exited;
}

async function clientRuns() {
  const command = ['node', ...tsNode, 'examples/conformance/client.ts'].join(' ');
  const out = mkdtempSync(join(tmpdir(), 'toolwright-conformance-'));
  let ok = true;
  try {
    for (const revision of revisions) {
      const started = Date.now();
      const outcomes = {};
      // One scenario per run (each starts its own scenario server and the client once), two at a
      // time: each client is a Node process with ts-node, and the suite times a scenario out.
      const queue = [...CLIENT_SCENARIOS[revision]];
      const failures = [];
      const worker = async () => {
        for (let scenario = queue.shift(); scenario !== undefined; scenario = queue.shift()) {
          const args = [
            'client',
            '--command',
            command,
            '--scenario',
            scenario,
            '--spec-version',
            revision,
            // An extension scenario is on no revision's timeline: the suite runs it only when forced.
            ...(AUTH_EXTENSIONS.includes(scenario) ? ['--force'] : []),
            '--timeout',
            '120000',
            '-o',
            out,
          ];
          const { output } = await suite(args);
          outcomes[scenario] = /OVERALL: PASSED/.test(output);
          if (!outcomes[scenario]) failures.push(`--- ${scenario}\n${output.slice(-1500)}`);
        }
      };
      await Promise.all([worker(), worker()]);
      const file = baseline(revision, 'client');
      const matches = judge(`client ${revision}`, file, 'client', outcomes, notScored(revision, 'client'), (Date.now() - started) / 1000);
      if (!matches && quiet) process.stdout.write(failures.join('\n') + '\n');
      ok = matches && ok;
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return ok;
}

let ok = true;
for (const mode of modes) ok = (mode === 'client' ? await clientRuns() : await serverRuns(mode)) && ok;
process.exit(ok ? 0 : 1);
