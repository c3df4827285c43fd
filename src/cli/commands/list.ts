import { Command } from 'commander';
import { Tools } from '../../index';
import { CliError } from '../cli-error';
import { json, painter, table } from '../output';
import { projectFrom, withProjectOptions } from '../project-options';
import { projectTools } from '../tools';

export function listCommand(): Command {
  return withProjectOptions(new Command('list'))
    .description('list the tools: name, version, adapters, hints, description')
    .option('-a, --adapter <key>', 'only the members of this adapter')
    .option('--all-versions', 'every version, not only the latest of each tool')
    .option('--json', 'JSON for scripts')
    .action(async (options: { adapter?: string; allVersions?: boolean; json?: boolean; config?: string; import?: string[] }) => {
      await projectFrom(options);
      if (Tools.adapters().length === 0) {
        throw new CliError(
          "no adapter is registered, so no tool is a member of one: add adapters: ['mcp'] (or your adapter's key) to toolwright.config.",
        );
      }
      const tools = projectTools({ adapter: options.adapter, allVersions: options.allVersions });
      if (options.json) {
        const rows = tools.map((tool) => ({
          name: tool.toolName(options.adapter),
          version: tool.version,
          adapters: [...tool.adapters],
          hints: [...tool.hints],
          description: tool.description ?? null,
          id: tool.id,
        }));
        process.stdout.write(json(rows));
        return;
      }
      if (tools.length === 0) {
        process.stdout.write(`No tools${options.adapter ? ` in the '${options.adapter}' adapter` : ''}.\n`);
        return;
      }
      const paint = painter(process.stdout);
      const rows = tools.map((tool) => [
        tool.toolName(options.adapter),
        String(tool.version),
        tool.adapters.join(', '),
        tool.hints.join(', ') || '-',
        tool.description ?? '-',
      ]);
      const out = table(['name', 'version', 'adapters', 'hints', 'description'], rows, (column, cell) =>
        column === 0
          ? paint('bold', cell)
          : column === 3 && cell.trim() !== '-'
            ? paint('cyan', cell)
            : column === 4
              ? paint('dim', cell)
              : cell,
      );
      process.stdout.write(`${out}\n`);
    });
}
