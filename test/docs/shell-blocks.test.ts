/**
 * Shell blocks that claim an output are run (issue 29): every block of README.md and the docs pages
 * marked `<!-- run -->` (test/helpers/shell-blocks.ts has the markers and the block format) is run,
 * command by command with bash, in a fresh copy of the repository as a clone is after `npm run build`:
 * the package built from src (test/cli/harness.ts), the loan desk, the repository's
 * toolwright.config.js and tsconfig.json, and src itself (what `npm start` runs). `npx toolwright`
 * is that build's bin; `npm start` is the repository's script. What each command prints must be
 * the output the block shows: exactly, or line by line where the marker says `lines`. A drift fails
 * with the diff, naming the page and line.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildPackage, removeBuild, repo } from '../cli/harness';
import { docsPages } from '../helpers/markdown-blocks';
import { runBlocks, runShellCommand, showsLines, type RunBlock } from '../helpers/shell-blocks';

const documents = [{ name: 'README.md', markdown: fs.readFileSync(path.join(repo, 'README.md'), 'utf8') }, ...docsPages()];
const blocks: RunBlock[] = documents.flatMap((document) => runBlocks(document.name, document.markdown));

describe('the marked shell blocks', () => {
  let home: string;

  beforeAll(() => {
    home = buildPackage();
    fs.symlinkSync(path.join(repo, 'src'), path.join(home, 'src'), 'dir');
  }, 120_000);

  afterAll(() => removeBuild());

  it('are found: the loan desk, the command line, the contract guard', () => {
    const pages = new Set(blocks.map((block) => block.where.replace(/:\d+$/, '')));
    expect([...pages]).toEqual(expect.arrayContaining(['docs/guide/example-application.md', 'docs/guide/command-line.md', 'docs/guide/contract-guard.md']));
  });

  it.each(blocks.map((block) => [`${block.where} (${block.commands.map((command) => command.command.split('\n')[0].replace(/\s*\\$/, '')).join('; ')})`, block] as const))(
    'print what they show: %s',
    async (_, block) => {
      for (const shown of block.commands) {
        const printed = await runShellCommand(shown.command, {
          cwd: home,
          bin: path.join(home, 'dist', 'cli', 'bin.js'),
          servesLines: block.modes.includes('serves') ? shown.output.length : undefined,
        });
        const at = `${block.where.replace(/:\d+$/, '')}:${shown.line} $ ${shown.command}`;
        const claimed = shown.output.join('\n');
        // On a drift, the diff of the whole output against what the block shows.
        if (block.modes.includes('lines')) {
          if (!showsLines(printed, shown.output)) expect({ at, output: printed }).toEqual({ at, output: claimed });
        } else {
          expect({ at, output: printed }).toEqual({ at, output: claimed });
        }
      }
    },
    60_000,
  );
});

describe('the run-block reader', () => {
  const read = (...lines: string[]) => runBlocks('probe.md', lines.join('\n'));

  it('reads commands, continuation lines and outputs, and the modes', () => {
    expect(read('<!-- run: lines (… is an id) -->', '```console', '$ npm start \\', '  -- --port 0', 'one', '', 'two', '$ echo', '```')).toEqual([
      {
        where: 'probe.md:1',
        modes: ['lines'],
        commands: [
          { command: 'npm start \\\n  -- --port 0', line: 3, output: ['one', '', 'two'] },
          { command: 'echo', line: 8, output: [] },
        ],
      },
    ]);
    expect(read('<!-- run: serves, lines (the port is free) -->', '```console', '$ npm start', 'serving …', '```')[0].modes).toEqual(['serves', 'lines']);
    expect(read('```console', '$ echo unmarked', 'unmarked', '```')).toEqual([]);
  });

  it('refuses a marked block with no output to check, no command, an unknown mode or no console block', () => {
    expect(() => read('<!-- run -->', '```console', '$ true', '$ true', '```')).toThrow('probe.md:1: a run block must show an output to check');
    expect(() => read('<!-- run -->', '```console', '```')).toThrow('probe.md:1: a run block needs a command');
    expect(() => read('<!-- run -->', '```console', 'output first', '$ true', '```')).toThrow('probe.md:3: output before the first command');
    expect(() => read('<!-- run: exactly -->', '```console', '$ echo', 'x', '```')).toThrow('probe.md:1: unknown run mode exactly');
    expect(() => read('<!-- run -->', '```ts', 'const x = 1;', '```')).toThrow('probe.md:1: a run marker must precede a ```console block');
    expect(() => read('<!-- run -->', '```console', '$ echo', 'x')).toThrow('probe.md:1: the block is not closed');
    expect(() => read('<!-- run: serves -->', '```console', '$ npm start', 'x', '$ curl', 'y', '```')).toThrow('probe.md:1: a serves block shows one command');
  });

  it('matches shown lines in order, with … for any text', () => {
    const printed = 'id: 3f66fead\nat: 2026-12-02T07:55:07.752Z\ndone';
    expect(showsLines(printed, ['id: …', 'done'])).toBe(true);
    expect(showsLines(printed, ['at: 2…Z'])).toBe(true);
    expect(showsLines(printed, ['done', 'id: …'])).toBe(false);
    expect(showsLines(printed, ['id: 3f66'])).toBe(false);
    expect(showsLines(printed, ['at: 2026-12-02T07:55:07.752Z.'])).toBe(false);
  });

  it('shows an exit status other than 0, and a drifted output, as output the block does not show', async () => {
    const options = { cwd: repo, bin: path.join(repo, 'no-such-bin.js') };
    await expect(runShellCommand('echo out; echo err >&2; exit 3', options)).resolves.toBe('out\nerr\n[exit 3]');
    await expect(runShellCommand('echo err >&2; echo out', options)).resolves.toBe('err\nout');
    await expect(runShellCommand('npx cowsay hi', options)).resolves.toBe('npx cowsay: not run by the docs test\n[exit 127]');
    await expect(runShellCommand('sleep 5', { ...options, timeoutMs: 200 })).resolves.toBe('\n[still running after 200 ms]');
    await expect(runShellCommand('echo "serving on http://127.0.0.1:$PORT"; echo more; sleep 30', { ...options, servesLines: 1 })).resolves.toMatch(/^serving on http:\/\/127\.0\.0\.1:3000(\nmore)?$/);
    await expect(runShellCommand('echo one; exit 0', { ...options, servesLines: 2 })).resolves.toBe('one\n[exited (0) before printing 2 lines]');
  });
});
