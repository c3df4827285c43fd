import 'reflect-metadata';
import { Tools } from 'toolwright';
import './tools';

Tools.registerAdapter('mcp');

const rows = Tools.forAdapter('mcp', { allVersions: true }).map((tool) => [
  tool.toolName('mcp'),
  String(tool.version),
  tool.hints.join(', ') || '-',
  tool.description ?? '-',
]);
const header = ['name', 'version', 'hints', 'description'];
const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
const line = (cells: string[]) =>
  cells
    .map((cell, i) => cell.padEnd(widths[i]))
    .join('  ')
    .trimEnd();
console.log(line(header));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of rows) console.log(line(row));
