/**
 * Runs every benchmark (or the ones named on the command line) and assembles bench/RESULTS.md
 * from their reports in bench/results/.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ALL = [
  'schema',
  'invoke',
  'invoke-memory',
  'fast-checks',
  'tracing',
  'render',
  'mcp',
  'mcp-sessions',
  'mcp-http',
  'mcp-revisions',
  'http',
  'queue',
  'nest',
  'search',
];
/** Benchmarks whose script is not bench/<name>/run.ts. */
const SCRIPTS: Record<string, string> = {
  'invoke-memory': 'invoke/memory.ts',
  'mcp-sessions': 'mcp/sessions.ts',
  'mcp-http': 'mcp/http.ts',
  'mcp-revisions': 'mcp/revisions.ts',
};
const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ALL;
const repo = path.resolve(__dirname, '..');
for (const name of names) {
  const script = path.join(__dirname, SCRIPTS[name] ?? path.join(name, 'run.ts'));
  if (!fs.existsSync(script)) continue;
  process.stderr.write(`bench/${name}…\n`);
  execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', script], {
    cwd: repo,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
/** Sections written by hand, not by a benchmark of their own (node24: from `npm run bench:node24` runs beside Node 20's). */
const HAND_WRITTEN = ['node24'];
const sections = [...HAND_WRITTEN, ...ALL]
  .map((name) => path.join(__dirname, 'results', `${name}.md`))
  .filter((file) => fs.existsSync(file))
  .map((file) => fs.readFileSync(file, 'utf8').trim());
fs.writeFileSync(
  path.join(__dirname, 'RESULTS.md'),
  [
    '# Benchmark results',
    '',
    'Produced by `npm run bench` (`bench/run-all.ts`); each section is rewritten when its benchmark runs.',
    'Ratios compare contenders measured side by side in the same run on the same machine. The machine is',
    'shared and noisy: read the ratios, not the absolute numbers, and expect a few percent of jitter.',
    '',
    ...sections.flatMap((section) => [section, '']),
  ].join('\n'),
);
process.stderr.write('wrote bench/RESULTS.md\n');
