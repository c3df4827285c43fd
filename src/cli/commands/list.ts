import { Command } from 'commander';
import { Tools } from '../../index';
import type { MemberKind, ToolDefinition } from '../../index';
import { CliError } from '../cli-error';
import { argumentList, argumentsOf, completesOf, completesText, KIND_HEADING, KINDS, parseKind } from '../members';
import { json, painter, table } from '../output';
import { projectFrom, withProjectOptions } from '../project-options';
import { projectTools } from '../tools';

interface ListOptions {
  adapter?: string;
  allVersions?: boolean;
  kind?: MemberKind;
  json?: boolean;
  config?: string;
  import?: string[];
}

/** The columns a kind shows between its adapters and its tags. */
const COLUMNS: Readonly<Record<MemberKind, readonly [string, (member: ToolDefinition, adapter?: string) => string][]>> = {
  tool: [['hints', (tool) => tool.hints.join(', ') || '-']],
  resource: [
    ['uri', (member) => member.resource!.uri],
    ['mime type', (member) => member.resource!.mimeType ?? '-'],
  ],
  'resource-template': [
    ['template', (member) => member.resource!.uri],
    ['mime type', (member) => member.resource!.mimeType ?? '-'],
  ],
  prompt: [['arguments', (member) => argumentList(member) || '-']],
  completion: [['completes', (member, adapter) => completesText(member, adapter)]],
};

export function listCommand(): Command {
  return withProjectOptions(new Command('list'))
    .description(
      'list the tools (name, version, adapters, hints, description), then the resources, resource templates, prompts and completions',
    )
    .option('-a, --adapter <key>', 'only the members of this adapter')
    .option('-k, --kind <kind>', `only this kind of member: ${KINDS.join(', ')}`, parseKind)
    .option('--all-versions', 'every version, not only the latest of each')
    .option('--json', 'JSON for scripts')
    .action(async (options: ListOptions) => {
      await projectFrom(options);
      if (Tools.adapters().length === 0) {
        throw new CliError(
          "no adapter is registered, so no tool is a member of one: add adapters: ['mcp'] (or your adapter's key) to toolwright.config.",
        );
      }
      const kinds = options.kind === undefined ? KINDS : [options.kind];
      const groups = kinds.map((kind) => ({
        kind,
        members: projectTools({ adapter: options.adapter, allVersions: options.allVersions, kind }),
      }));
      if (options.json) {
        process.stdout.write(json(groups.flatMap(({ kind, members }) => members.map((member) => row(kind, member, options.adapter)))));
        return;
      }
      const shown = groups.filter(({ members }) => members.length > 0);
      if (shown.length === 0) {
        const what = options.kind === undefined ? 'tools' : KIND_HEADING[options.kind].toLowerCase();
        process.stdout.write(`No ${what}${options.adapter ? ` in the '${options.adapter}' adapter` : ''}.\n`);
        return;
      }
      const blocks = shown.map(({ kind, members }, i) => {
        const text = kindTable(kind, members, options.adapter);
        // The tools' table stands as it always has; each other kind under its heading.
        return kind === 'tool' && i === 0 ? text : `${painter(process.stdout)('bold', KIND_HEADING[kind])}\n${text}`;
      });
      process.stdout.write(`${blocks.join('\n\n')}\n`);
    });
}

/** One kind as a table: name, version, adapters, the kind's own columns, tags (when any has some), description. */
function kindTable(kind: MemberKind, members: readonly ToolDefinition[], adapter: string | undefined): string {
  const paint = painter(process.stdout);
  const own = COLUMNS[kind];
  const tagged = members.some((member) => member.tags.length > 0);
  const described = kind !== 'completion';
  const header = [
    'name',
    'version',
    'adapters',
    ...own.map(([title]) => title),
    ...(tagged ? ['tags'] : []),
    ...(described ? ['description'] : []),
  ];
  const rows = members.map((member) => [
    member.toolName(adapter),
    String(member.version),
    member.adapters.join(', '),
    ...own.map(([, cell]) => cell(member, adapter)),
    ...(tagged ? [member.tags.join(', ') || '-'] : []),
    ...(described ? [member.description ?? '-'] : []),
  ]);
  const tagsAt = tagged ? 3 + own.length : -1;
  const last = header.length - 1;
  return table(header, rows, (column, cell) =>
    column === 0
      ? paint('bold', cell)
      : (kind === 'tool' && column === 3) || column === tagsAt
        ? cell.trim() === '-'
          ? cell
          : paint('cyan', cell)
        : described && column === last
          ? paint('dim', cell)
          : cell,
  );
}

/** One member as `list --json` prints it: the tool fields every kind has, then the kind's own. */
function row(kind: MemberKind, member: ToolDefinition, adapter: string | undefined): Record<string, unknown> {
  const common = {
    name: member.toolName(adapter),
    version: member.version,
    adapters: [...member.adapters],
    hints: [...member.hints],
    description: member.description ?? null,
    id: member.id,
    kind,
    tags: [...member.tags],
  };
  switch (kind) {
    case 'resource':
      return { ...common, uri: member.resource!.uri, mimeType: member.resource!.mimeType ?? null };
    case 'resource-template':
      return {
        ...common,
        uriTemplate: member.resource!.uri,
        variables: member.resource!.variables.map((variable) => variable.name),
        mimeType: member.resource!.mimeType ?? null,
      };
    case 'prompt':
      return { ...common, arguments: argumentsOf(member) };
    case 'completion':
      return { ...common, completes: completesOf(member, adapter) };
    default:
      return common;
  }
}
