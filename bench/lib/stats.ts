/** Small statistics and formatting helpers shared by the benchmarks. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function fmt(value: number, digits = 2): string {
  if (value >= 100) return value.toFixed(0);
  if (value >= 10) return value.toFixed(1);
  return value.toFixed(digits);
}

export function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function machine(): string {
  const os = require('node:os') as typeof import('node:os');
  return `Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${new Date().toISOString().slice(0, 10)}`;
}

/** Runs `fn` repeatedly for at least `ms` milliseconds per sample; returns per-call times in µs. */
export async function sampleAsync(fn: () => Promise<unknown> | unknown, options: { samples: number; minMs: number }): Promise<number[]> {
  const results: number[] = [];
  for (let s = 0; s < options.samples; s++) {
    let calls = 0;
    const start = process.hrtime.bigint();
    let elapsed = 0;
    while (elapsed < options.minMs * 1e6) {
      for (let i = 0; i < 100; i++) await fn();
      calls += 100;
      elapsed = Number(process.hrtime.bigint() - start);
    }
    results.push(elapsed / calls / 1e3);
  }
  return results;
}

/** Writes a benchmark's report to bench/results/<name>.md (run-all assembles RESULTS.md) and prints it. */
export function writeReport(name: string, report: string): void {
  const fs = require('node:fs') as typeof import('node:fs');
  const path = require('node:path') as typeof import('node:path');
  const dir = path.join(__dirname, '..', 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.md`), report);
  console.log(report);
}
