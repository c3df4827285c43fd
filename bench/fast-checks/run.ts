/**
 * bench/fast-checks: the fast checks of class-validator's re-checked built-ins
 * (src/contract/sources/fast-checks.ts) against class-validator's own functions (validator.js).
 * First the proof at a larger budget than the test's: millions of generated and mutated texts
 * (test/fixtures/fast-checks/grammar.ts) per check, over every option set of
 * test/fixtures/fast-checks/cases.ts, unpaired surrogates and non-strings included; every
 * disagreement is printed and counted (the report says 0 or the run fails). Then the speed of each
 * against class-validator's function on the same values: valid real-world values, and the
 * generated mix. FAST_CHECK_BENCH_VALUES sets the budget per check (default 1,000,000).
 */
import 'reflect-metadata';
import { FAST_CHECKS } from '../../src/contract/sources/fast-checks';
import { FastCase, fastCases } from '../../test/fixtures/fast-checks/cases';
import { sample, seeded } from '../../test/fixtures/fast-checks/grammar';
import { fmt, machine, markdownTable, median, writeReport } from '../lib/stats';

const BUDGET = Number(process.env.FAST_CHECK_BENCH_VALUES ?? 1_000_000);
const NON_STRINGS: readonly unknown[] = [undefined, null, 0, 1, true, {}, [], ['a@example.com'], new Date(0), Symbol('s'), 1n];

const outcome = (check: (value: unknown) => boolean, value: unknown): string => {
  try {
    return String(check(value));
  } catch (error) {
    return 'throws';
  }
};

interface Proof {
  readonly kind: string;
  readonly sets: number;
  readonly fastSets: number;
  values: number;
  disagreements: number;
}

function prove(): Proof[] {
  const byKind = new Map<string, FastCase[]>();
  for (const c of fastCases()) byKind.set(c.label.replace(/\(.*$/, ''), [...(byKind.get(c.label.replace(/\(.*$/, '')) ?? []), c]);
  const proofs: Proof[] = [];
  let seed = 1;
  for (const [kind, cases] of byKind) {
    const proof: Proof = { kind, sets: cases.length, fastSets: 0, values: 0, disagreements: 0 };
    const perSet = Math.ceil(BUDGET / cases.length);
    for (const c of cases) {
      const fast = FAST_CHECKS[c.name](c.constraints);
      if (!fast) continue;
      (proof as { fastSets: number }).fastSets++;
      const r = seeded(seed++);
      const check = (value: unknown) => {
        proof.values++;
        const [expected, actual] = [outcome(c.reference, value), outcome(fast, value)];
        if (expected !== actual) {
          proof.disagreements++;
          if (proof.disagreements <= 20)
            process.stderr.write(`${c.label} ${JSON.stringify(value)}: validator.js ${expected}, fast ${actual}\n`);
        }
      };
      NON_STRINGS.forEach(check);
      c.corpus.forEach(check);
      for (let i = 0; i < perSet; i++) check(sample(r, c.generate));
    }
    proofs.push(proof);
  }
  return proofs;
}

/**
 * ns per call of `check` over `values`: the median of 7 rounds of at least 100 ms, each measured by
 * a loop of its own (a shared one would see every check at one call site and slow them all).
 */
function speed(check: (value: unknown) => boolean, values: readonly unknown[]): number {
  const loop = new Function(
    'check',
    'values',
    'let sink = 0; for (let i = 0; i < values.length; i++) if (check(values[i])) sink++; return sink;',
  ) as (check: (value: unknown) => boolean, values: readonly unknown[]) => number;
  const rounds: number[] = [];
  let sink = 0;
  for (let round = 0; round < 8; round++) {
    let calls = 0;
    const start = process.hrtime.bigint();
    let elapsed = 0;
    while (elapsed < 100e6) {
      sink += loop(check, values);
      calls += values.length;
      elapsed = Number(process.hrtime.bigint() - start);
    }
    if (round > 0) rounds.push(elapsed / calls); // the first round warms up
  }
  if (sink < 0) console.log(sink);
  return median(rounds);
}

function speeds(): string[][] {
  const rows: string[][] = [];
  const wanted = [
    '@IsEmail()',
    '@IsEmail({"allow_display_name":true})',
    '@IsUrl()',
    '@IsUrl({"require_protocol":true})',
    '@IsUUID()',
    '@IsUUID(4)',
    '@IsISO8601()',
    '@IsISO8601({"strict":true})',
    '@IsRFC3339()',
  ];
  for (const c of fastCases().filter((x) => wanted.includes(x.label))) {
    const fast = FAST_CHECKS[c.name](c.constraints)!;
    const r = seeded(99);
    const valid = c.corpus.filter((value) => c.reference(value));
    // What most traffic is: valid ASCII text, no display name, no quoted local part, no IP host.
    const typical = valid.filter((value) => /^[\x21-\x7e]*$/.test(value) && !/["<\[]/.test(value) && !/@\d+\.\d+\.\d+\.\d+$/.test(value));
    const mix = Array.from({ length: 2_000 }, () => sample(r, c.generate)).filter((value) => outcome(c.reference, value) !== 'throws');
    const values: Array<readonly [string, readonly string[]]> = [
      ['typical: valid ASCII values', typical],
      ['every valid value of the corpus', valid],
      ['generated and mutated', mix],
    ];
    for (const [name, texts] of values) {
      // As text arrives: parsed from JSON, flat (generated text is concatenated, which V8 reads slower).
      const set = JSON.parse(JSON.stringify(texts)) as string[];
      const [fastNs, referenceNs] = [speed(fast, set), speed(c.reference, set)];
      rows.push([c.label, `${name} (${set.length})`, fmt(fastNs), fmt(referenceNs), `${fmt(referenceNs / fastNs, 1)}×`]);
    }
  }
  return rows;
}

// Speed first: millions of concatenated texts in the proof leave V8's string reads slower for what follows.
const rows = speeds();
const proofs = prove();
const total = proofs.reduce((sum, p) => sum + p.disagreements, 0);
const report = [
  '## Fast checks (class-validator built-ins re-checked at call time)',
  '',
  `${machine()}. \`bench/fast-checks/run.ts\`: each fast check against class-validator's own function (validator.js) with the same options.`,
  '',
  `Proof: ${proofs.reduce((sum, p) => sum + p.values, 0).toLocaleString('en-US')} values (generated from each grammar, then mutated; non-strings, unpaired surrogates and the test corpus included), every outcome compared (true, false, or the exception thrown).`,
  '',
  markdownTable(
    ['check', 'option sets (with a fast check)', 'values compared', 'disagreements'],
    proofs.map((p) => [p.kind, `${p.sets} (${p.fastSets})`, p.values.toLocaleString('en-US'), String(p.disagreements)]),
  ),
  '',
  'Speed: ns per call, the median of 7 rounds of 100 ms (the text generated once; what falls back pays class-validator too).',
  '',
  markdownTable(['check', 'values', 'fast (ns)', 'class-validator (ns)', 'speed-up'], rows),
  '',
].join('\n');
writeReport('fast-checks', report);
if (total > 0) {
  process.stderr.write(`${total} disagreements\n`);
  process.exitCode = 1;
}
