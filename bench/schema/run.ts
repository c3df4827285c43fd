/**
 * bench/schema: derive every input and output schema of N generated tool contracts, cold, with
 * toolwright, class-validator-jsonschema (all at once and per class) and zod 4, in one run.
 */
import * as path from 'node:path';
import { fmt, machine, markdownTable, median, writeReport } from '../lib/stats';
import { runWorker } from '../lib/spawn-worker';

const SIZES = [100, 1000];
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 11);
const CONTENDERS: Array<[string, string]> = [
  ['toolwright', 'toolwright `inputSchema` + `outputSchema`'],
  ['cvjs-all', 'class-validator-jsonschema `validationMetadatasToSchemas`'],
  ['cvjs-per-class', 'class-validator-jsonschema `targetConstructorToSchema`'],
  ['zod', 'zod 4 `z.toJSONSchema`'],
];

const worker = path.join(__dirname, 'worker.ts');
const results = new Map<string, number[]>();
for (const mode of ['cold', 'warm', 'declare']) {
  for (const size of SIZES) {
    for (let sample = 0; sample < SAMPLES; sample++) {
      // Interleave contenders so that machine noise spreads over all of them.
      for (const [key] of CONTENDERS) {
        // validationMetadatasToSchemas always converts every class ever decorated: no warm mode, and
        // its quadratic derivation dominates any declaring.
        if (mode !== 'cold' && key === 'cvjs-all') continue;
        const { ms } = runWorker<{ ms: number }>(worker, [key, String(size), mode], ['--expose-gc']);
        const id = `${key}@${size}@${mode}`;
        results.set(id, [...(results.get(id) ?? []), ms]);
      }
    }
  }
}

function table(mode: string): string {
  const rows: string[][] = [];
  for (const [key, label] of CONTENDERS) {
    if (!results.has(`${key}@100@${mode}`)) continue;
    const at = (size: number) => median(results.get(`${key}@${size}@${mode}`)!);
    const ours = (size: number) => median(results.get(`toolwright@${size}@${mode}`)!);
    rows.push([
      label,
      ...SIZES.flatMap((size) => [fmt(at(size)), key === 'toolwright' ? '1.00×' : `${fmt(at(size) / ours(size))}×`]),
      fmt(at(1000) / at(100)),
    ]);
  }
  return markdownTable(
    ['contender', 'median ms, 100 tools', 'vs toolwright', 'median ms, 1000 tools', 'vs toolwright', 'growth 100→1000'],
    rows,
  );
}
function verdicts(mode: string): string[] {
  const at = (key: string, size: number) => median(results.get(`${key}@${size}@${mode}`)!);
  return CONTENDERS.filter(([key]) => key !== 'toolwright' && results.has(`${key}@100@${mode}`)).map(([key, label]) => {
    const ratios = SIZES.map((size) => at(key, size) / at('toolwright', size));
    const met = ratios.every((ratio) => ratio >= 1);
    return `- ${mode}, against ${label}: **${met ? 'faster' : 'not faster'}** (${SIZES.map((size, i) => `${fmt(ratios[i])}× at ${size}`).join(', ')}).`;
  });
}

const report = [
  '## Schema derivation (`bench/schema`)',
  '',
  `${machine()}; ${SAMPLES} samples per cell, each in a fresh process. Each timed region starts right after a full`,
  'garbage collection, so that no contender pays for garbage the harness left behind (in declare mode the',
  'collection comes before declaring): without it, whether one young-generation collection (7 to 15 ms) falls',
  "inside a contender's window depends on how much the harness allocated before it, not on the contender.",
  '',
  'Derive every input and output JSON Schema of N generated tools (8 input fields: three strings, one an',
  'email and one an enum of four; two bounded integers; an optional boolean with a default; a string array',
  'with a maximum size; a nested object of two fields; and a 2-field output). "vs toolwright" is the',
  "contender's time divided by toolwright's: above 1× means toolwright is faster. Growth 10 is linear.",
  '',
  'Goal: beat all three, and grow linearly with the number of tools (toolwright grows',
  `${fmt(median(results.get('toolwright@1000@cold')!) / median(results.get('toolwright@100@cold')!))}× cold and ${fmt(median(results.get('toolwright@1000@warm')!) / median(results.get('toolwright@100@warm')!))}× warm from 100 to 1000 tools: linear is 10×).`,
  '',
  ...verdicts('cold'),
  ...verdicts('warm'),
  ...verdicts('declare'),
  '',
  '**Cold**: the first derivation in a fresh process, as at server start-up.',
  '',
  table('cold'),
  '',
  '**Warm**: the same, after deriving 1000 other tools in the process (code paths optimized by the JIT).',
  '',
  table('warm'),
  '',
  '**Declare and derive**, cold: also timing the declaration of the contracts (decorating the classes; building',
  'the zod schemas). zod does at construction much of the work toolwright does lazily at first derivation (its',
  'field model), so this is the end-to-end comparison of getting from declarations to schemas.',
  '',
  table('declare'),
  '',
].join('\n');
writeReport('schema', report);
