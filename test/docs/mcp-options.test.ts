/**
 * The MCP options reference (docs/guide/mcp-options.md) stays true to the types: each options
 * interface `toolwright/mcp` exports has a section whose heading names it, and that section's table
 * lists exactly its properties (inherited ones included), read with the TypeScript compiler from the
 * entry point, wherever the interfaces live.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const repo = path.resolve(__dirname, '..', '..');
const PAGE = path.join('docs', 'guide', 'mcp-options.md');
const ENTRY = path.join(repo, 'src', 'adapters', 'mcp', 'index.ts');
const DOCUMENTED = ['McpServerOptions', 'McpTasksOptions', 'McpListCache', 'McpRequestStateOptions', 'McpToolSearchOptions', 'HttpServeOptions', 'StdioServeOptions'];

/** The properties of each exported interface named, as the compiler sees them. */
function optionsOf(names: readonly string[]): Map<string, string[]> {
  const program = ts.createProgram([ENTRY], { strict: true, noEmit: true, skipLibCheck: true, experimentalDecorators: true });
  const checker = program.getTypeChecker();
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(ENTRY)!)!);
  return new Map(
    names.map((name) => {
      const symbol = exports.find((candidate) => candidate.name === name);
      if (!symbol) throw new Error(`toolwright/mcp exports no ${name}`);
      const type = checker.getDeclaredTypeOfSymbol(checker.getAliasedSymbol(symbol));
      return [name, checker.getPropertiesOfType(type).map((property) => property.name)];
    }),
  );
}

/** The first-column names of the table under the `## ` heading that names `name` in backticks. */
function tableOf(markdown: string, name: string): string[] | undefined {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith('## ') && line.includes(`\`${name}\``));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  return lines
    .slice(start + 1, end < 0 ? undefined : end)
    .map((line) => /^\| `([A-Za-z]+)` \|/.exec(line)?.[1])
    .filter((option): option is string => option !== undefined);
}

describe('the MCP options reference', () => {
  const page = fs.readFileSync(path.join(repo, PAGE), 'utf8');
  const options = optionsOf(DOCUMENTED);

  it.each(DOCUMENTED)('lists every option of %s, and no other', (name) => {
    const table = tableOf(page, name);
    if (!table) throw new Error(`${PAGE} has no "## … \`${name}\`" section: add one with a table of its options`);
    expect([...table].sort()).toEqual([...options.get(name)!].sort());
  });

  it('reads the real types (a sanity check of the reader: the inherited composition options are there)', () => {
    expect(options.get('McpServerOptions')).toEqual(expect.arrayContaining(['name', 'configure', 'tasks', 'visible', 'visibleTimeoutMs', 'mounts']));
  });

  it('is linked from the sidebar and from the MCP guide', () => {
    expect(fs.readFileSync(path.join(repo, 'docs', '.vitepress', 'config.mts'), 'utf8')).toContain("link: '/guide/mcp-options'");
    expect(fs.readFileSync(path.join(repo, 'docs', 'guide', 'mcp.md'), 'utf8')).toContain('(./mcp-options.md)');
  });
});
