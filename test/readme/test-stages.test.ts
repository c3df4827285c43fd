/**
 * The test stages (scripts/test.mjs): every suite runs in exactly one jest stage, and CI runs every
 * stage. `npm test` leaves the browser suites out (BROWSER_SUITES in jest.config.ts) and
 * `npm run test:browser` runs exactly them, so a suite added anywhere under test/ is in one of the
 * two without a list to keep.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BROWSER_SUITES } from '../../jest.config';

const repo = path.resolve(__dirname, '..', '..');

/** The test files a stage's jest selects (`jest --listTests`), relative to the repository. */
async function selected(...config: string[]): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(repo, 'node_modules', 'jest', 'bin', 'jest.js'), '--listTests', '--json', ...config], { cwd: repo });
  return (JSON.parse(stdout) as string[]).map((test) => path.relative(repo, test)).sort();
}

function every(folder: string): string[] {
  return (fs.readdirSync(path.join(repo, folder), { recursive: true, encoding: 'utf8' }) as string[])
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => path.join(folder, file))
    .sort();
}

describe('the test stages', () => {
  it('put every suite under test/ in exactly one of `npm test` and `npm run test:browser`', async () => {
    const [inMain, inBrowser] = await Promise.all([selected(), selected('--config', 'jest.browser.config.ts')]);
    expect(inBrowser).toEqual([...BROWSER_SUITES].sort());
    expect(inMain.filter((file) => inBrowser.includes(file))).toEqual([]);
    expect([...inMain, ...inBrowser].sort()).toEqual(every('test'));
  }, 60_000);

  it('are all run by CI: .ci/run runs `npm run test:ci`, which runs the jest stages and the Node lines', () => {
    const ci = fs.readFileSync(path.join(repo, '.ci', 'run'), 'utf8');
    expect(ci.split('\n').filter((line) => /^\s*npm (run )?test/.test(line))).toEqual(['npm run test:ci']);
    const scripts = (JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts).toMatchObject({ test: 'node scripts/test.mjs', 'test:browser': 'node scripts/test.mjs browser', 'test:ci': 'node scripts/test.mjs --ci' });
    const runner = fs.readFileSync(path.join(repo, 'scripts', 'test.mjs'), 'utf8');
    const stages = /const STAGES = \{([\s\S]*?)\n\};/.exec(runner)?.[1] ?? '';
    expect([...stages.matchAll(/^ {2}(?:'([\w-]+)'|(\w+)):/gm)].map((match) => match[1] ?? match[2])).toEqual(['main', 'browser', 'node-lines']);
    expect(stages).toContain("'--config', 'jest.browser.config.ts'");
    expect(stages).toContain("'test-node-lines.mjs'");
  });
});
