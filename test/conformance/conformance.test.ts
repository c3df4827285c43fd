/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance 0.2, `--requirements
 * <revision>`) through scripts/conformance/run.mjs, the same runs as `npm run conformance`:
 * - server: examples/conformance/main.ts (toolwright tools, resources, prompts and completions,
 *   all declared as classes: no SDK handlers of its own), one endpoint per mode (session, stateless), both revisions
 *   against it;
 * - client: every client scenario each requirements file names (scored and not scored) against
 *   examples/conformance/client.ts, built on toolwright/mcp-client's public API.
 * Each run must match examples/conformance/expected-failures.<revision>.<mode>.yml exactly: a
 * failure not listed, or a listed scenario that passes, fails it. The counts are asserted too.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(__dirname, '..', '..');

async function conformance(...args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, [join(root, 'scripts', 'conformance', 'run.mjs'), '--quiet', ...args], { cwd: root });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: `${failed.stdout}\n${failed.stderr}` };
  }
}

const matches = (label: string, counts: string) =>
  new RegExp(`conformance ${label}: ${counts.replace(/[()]/g, '\\$&')}; matches its expected failures`);

describe('the official MCP conformance suite, by revision', () => {
  it.each([
    [
      'session',
      [
        ['server 2025-11-25 session', '33 scenarios run; scored: 30 of 30 passed; not scored: 3 of 3 passed; 0 expected failures'],
        // The same endpoint for 2026-07-28 (stateless whatever the mode): the failures left are listed,
        // each with its reason, in examples/conformance/expected-failures.2026-07-28.*.yml.
        ['server 2026-07-28 session', '50 scenarios run; scored: 37 of 37 passed; not scored: 12 of 13 passed; 1 expected failures'],
      ],
    ],
    [
      'stateless',
      [
        ['server 2025-11-25 stateless', '33 scenarios run; scored: 30 of 30 passed; not scored: 3 of 3 passed; 0 expected failures'],
        ['server 2026-07-28 stateless', '50 scenarios run; scored: 37 of 37 passed; not scored: 12 of 13 passed; 1 expected failures'],
      ],
    ],
    [
      'client',
      [
        // Every client scenario of each requirements file, auth/* included (examples/conformance/client-auth.ts).
        ['client 2025-11-25', '25 scenarios run; scored: 18 of 18 passed; not scored: 7 of 7 passed; 0 expected failures'],
        ['client 2026-07-28', '39 scenarios run; scored: 32 of 32 passed; not scored: 7 of 7 passed; 0 expected failures'],
      ],
    ],
  ] as const)('%s: every run matches its expected failures, with these counts', async (mode, lines) => {
    const { code, stdout } = await conformance('--mode', mode);
    for (const [label, counts] of lines) expect(stdout).toMatch(matches(label, counts));
    expect(code).toBe(0);
  }, 600_000); // the client leg: 64 scenarios, each a suite scenario server and a client process

  it('a failure not listed and a listed scenario that passes both fail the run, and the line says which', async () => {
    const dir = fs.mkdtempSync(join(os.tmpdir(), 'tw-baselines-'));
    try {
      for (const file of fs.readdirSync(join(root, 'examples', 'conformance')).filter((f) => f.startsWith('expected-failures.'))) {
        fs.copyFileSync(join(root, 'examples', 'conformance', file), join(dir, file));
      }
      const file = join(dir, 'expected-failures.2026-07-28.stateless.yml');
      // tasks-mrtr-composition still fails but is no longer listed; tools-list passes but is listed.
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('  - tasks-mrtr-composition\n', '  - tools-list\n'));
      const { code, stdout } = await conformance('--mode', 'stateless', '--revision', '2026-07-28', '--baseline-dir', dir);
      expect(stdout).toContain(
        'DOES NOT match its expected failures (unexpected failures: tasks-mrtr-composition; listed but passing (remove them): tools-list)',
      );
      expect(code).toBe(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000); // one 2026-07-28 run: 50 scenarios
});

describe('the Node 20 route: a resolve hook gives only the suite fs.globSync', () => {
  const hook = join(root, 'scripts', 'conformance', 'node20-fs-hook.mjs');

  it('other importers of fs see the real module; the shim globs like Node 22 (relative paths, exclude)', async () => {
    const script = `
      import * as fs from 'node:fs';
      const shim = await import(${JSON.stringify(join(root, 'scripts', 'conformance', 'fs-with-glob.mjs'))});
      const found = shim.globSync('*.json', { cwd: ${JSON.stringify(root)}, exclude: (p) => p === 'tsconfig.build.json' });
      console.log(JSON.stringify({ native: typeof fs.globSync === 'function', found }));
    `;
    const { stdout } = await run(process.execPath, ['--import', hook, '--input-type=module', '-e', script], { cwd: root });
    const { native, found } = JSON.parse(stdout) as { native: boolean; found: string[] };
    // Only the conformance package is redirected: here fs is Node's own, with or without globSync.
    expect(native).toBe(Number(process.versions.node.split('.')[0]) >= 22);
    expect(found).toContain('package.json');
    expect(found).toContain('tsconfig.json');
    expect(found).not.toContain('tsconfig.build.json');
  });
});
