/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, every server scenario)
 * against examples/conformance/main.ts — toolwright tools, with resources, prompts and completions
 * through the configure hook — in session mode and in stateless mode, each on a free port. A mode
 * passes when its failures are exactly those in examples/conformance/expected-failures.<mode>.yml
 * (the suite also fails when a listed scenario starts passing). Same run as `npm run conformance`.
 */
import { execFile } from 'node:child_process';
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

describe('the official MCP conformance suite', () => {
  // One run per mode: each mode's outcome must match its expected-failures file exactly.
  it.each([
    ['session', /conformance session: 32 scenarios run, 31 passed, 1 passed with warnings \(server-sse-polling\)/],
    ['stateless', /conformance stateless: 32 scenarios run, 26 passed, 2 passed with warnings .*, 4 failed/],
  ])('%s mode: every scenario passes but those listed, with reasons, as expected failures', async (mode, counts) => {
    const { code, stdout } = await conformance('--mode', mode);
    expect(stdout).toMatch(counts);
    expect(stdout).toContain('matches its expected failures');
    expect(code).toBe(0);
  }, 60_000);
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
