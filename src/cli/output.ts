/**
 * Terminal output: ANSI colours only when the stream is a TTY (and NO_COLOR is unset, or
 * FORCE_COLOR is set), aligned tables, JSON for scripts.
 */
type Stream = NodeJS.WriteStream;

export function colourful(stream: Stream): boolean {
  if (process.env.FORCE_COLOR !== undefined && process.env.FORCE_COLOR !== '0') return true;
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false;
  return Boolean(stream.isTTY);
}

const CODES = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39], cyan: [36, 39] } as const;
export type Colour = keyof typeof CODES;

/** Paints text for a stream: plain when the stream takes no colours. */
export function painter(stream: Stream): (colour: Colour, text: string) => string {
  const on = colourful(stream);
  return (colour, text) => (on ? `\u001b[${CODES[colour][0]}m${text}\u001b[${CODES[colour][1]}m` : text);
}

/** An aligned table; `paint` colours whole cells after padding, so colour codes never skew widths. */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  paint?: (column: number, cell: string) => string,
): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: readonly string[], colour: (column: number, cell: string) => string) =>
    cells
      .map((cell, i) => colour(i, i === cells.length - 1 ? cell : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const plain = (_: number, cell: string) => cell;
  return [
    line(header, plain),
    line(
      widths.map((w) => '-'.repeat(w)),
      plain,
    ),
    ...rows.map((row) => line(row, paint ?? plain)),
  ].join('\n');
}

/** Stable, indented JSON with a trailing newline. */
export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
