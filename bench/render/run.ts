/**
 * bench/render: a result of 5,000 records (strings, numbers, dates, a nested object, a tag array;
 * about 1 MB of JSON) made JSON-safe and checked against its contract, then JSON.stringify'd, side
 * by side with JSON.stringify alone and with safe-stable-stringify.
 */
import 'reflect-metadata';
import stringify from 'safe-stable-stringify';
import { Exposes, Field, Integer, invoke, Tool } from 'toolwright';
import { declareRejectOpaqueExposedValues, defineAdapterConfig, render } from 'toolwright/kit';
import { fmt, machine, markdownTable, median, sampleAsync, writeReport } from '../lib/stats';

class Owner {
  @Field() name!: string;
  @Field({ format: 'email' }) email!: string;
}

class RecordRow {
  @Field() id!: string;
  @Field() name!: string;
  @Field() price!: number;
  @Field({ type: () => Integer }) quantity!: number;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
  @Field() owner!: Owner;
  @Field({ type: () => [String] }) tags!: string[];
}

class RecordPage {
  @Field({ type: () => [RecordRow] }) records!: RecordRow[];
}

const records: RecordRow[] = Array.from({ length: 5000 }, (_, i) => ({
  id: `rec-${String(i).padStart(6, '0')}`,
  name: `Record number ${i} with a moderately long descriptive name`,
  price: Math.round(i * 137.31) / 100,
  quantity: i % 97,
  createdAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000),
  updatedAt: new Date(Date.UTC(2025, 6, 1) + i * 60_000),
  owner: { name: `Owner ${i % 50}`, email: `owner${i % 50}@example.com` },
  tags: ['alpha', 'beta', `tag-${i % 10}`],
}));
const page = { records };

@Tool()
@Exposes(RecordPage)
class ListRecords {
  call() {
    return page;
  }
}

const config = defineAdapterConfig('bench-render', { ...declareRejectOpaqueExposedValues({ default: false }) });

type Contender = { key: string; label: string; run: () => Promise<string> | string };
const contenders: Contender[] = [
  { key: 'stringify', label: '`JSON.stringify` alone', run: () => JSON.stringify(page) },
  {
    key: 'toolwright-invoke',
    label: 'toolwright `invoke` → `serializeExposed` → `JSON.stringify`',
    run: async () => JSON.stringify(config.serializeExposed(await invoke(ListRecords, {}))),
  },
  { key: 'toolwright-render', label: 'toolwright `render` → `JSON.stringify`', run: () => JSON.stringify(render(page, RecordPage)) },
  { key: 'safe-stable', label: '`safe-stable-stringify`', run: () => stringify(page) as string },
];

async function main(): Promise<void> {
  const reference = JSON.stringify(page);
  for (const contender of contenders) {
    const out = await contender.run();
    if (contender.key !== 'safe-stable' && out !== reference) throw new Error(`${contender.key} produced different JSON`);
  }
  const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 9);
  const times = new Map<string, number[]>();
  for (let round = 0; round < SAMPLES; round++) {
    for (const contender of contenders) {
      const [perCall] = await sampleAsync(contender.run, { samples: 1, minMs: 300 });
      times.set(contender.key, [...(times.get(contender.key) ?? []), perCall / 1000]);
    }
  }
  const base = median(times.get('stringify')!);
  const invokeRatio = median(times.get('toolwright-invoke')!) / base;
  const rows = contenders.map((contender) => {
    const ms = median(times.get(contender.key)!);
    return [contender.label, `${fmt(ms)} ms`, `${fmt(ms / base)}×`];
  });
  const report = [
    '## Rendering exposed values (`bench/render`)',
    '',
    `${machine()}; median of ${SAMPLES} samples of ≥300 ms each, contenders interleaved.`,
    '',
    `A result of 5,000 records (strings, numbers, two dates, a nested object, a tag array; ${fmt(reference.length / 1e6)} MB of JSON).`,
    'toolwright walks the value once, checking it against the `@Exposes` contract and refusing what has no',
    'honest JSON form (cycles, NaN, lone surrogates, …), then `JSON.stringify` writes it. In the `invoke` row that',
    'walk happens inside `invoke()` (its output check), and `serializeExposed` returns its result. Goal: within 2×',
    'of `JSON.stringify` alone. "× JSON.stringify" is the time divided by JSON.stringify\'s.',
    '',
    `Goal: **${invokeRatio <= 2 ? 'met' : 'not met'}**, \`invoke\` → \`serializeExposed\` → \`JSON.stringify\` takes ${fmt(invokeRatio)}× \`JSON.stringify\` alone.`,
    '',
    markdownTable(['contender', 'median', '× JSON.stringify'], rows),
    '',
  ].join('\n');
  writeReport('render', report);
}

void main();
