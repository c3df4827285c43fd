import { ToolDefinition, Tools } from '../index';
import type { MemberKind } from '../index';
import { joinWords } from '../adapter-kit/internal';
import { CliError } from './cli-error';
import { KINDS } from './members';

/**
 * Every tool of the loaded project (or, with `kind`, every member of that kind): the members of the
 * registered adapters (or of one adapter), every version or the latest of each, sorted by name then
 * version. A tool in several adapters appears once.
 */
export function projectTools(options: { adapter?: string; allVersions?: boolean; kind?: MemberKind } = {}): ToolDefinition[] {
  const adapters = Tools.adapters();
  if (options.adapter !== undefined && !adapters.includes(options.adapter)) {
    throw new CliError(
      adapters.length === 0
        ? `no adapter is registered, so '${options.adapter}' has no tools: add adapters: ['${options.adapter}'] to toolwright.config.`
        : `unknown adapter '${options.adapter}': the registered ones are ${joinWords(adapters)}.`,
    );
  }
  const seen = new Set<ToolDefinition>();
  for (const key of options.adapter === undefined ? adapters : [options.adapter]) {
    for (const tool of Tools.forAdapter(key, { allVersions: true, kind: options.kind })) seen.add(tool);
  }
  const all = [...seen].sort((a, b) => compareText(a.toolName(), b.toolName()) || a.version - b.version);
  if (options.allVersions) return all;
  const latest = new Map<string, ToolDefinition>();
  for (const tool of all) latest.set(tool.toolName(), tool);
  return [...latest.values()];
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The names a tool answers to: its own and its per-adapter names. */
function namesOf(tool: ToolDefinition): string[] {
  return [...new Set([tool.toolName(), ...tool.adapters.map((key) => tool.toolName(key))])];
}

/** One tool (or, with `kind`, member of that kind) by name (its own or an adapter's), at a version or the latest. */
export function findTool(name: string, options: { version?: number; adapter?: string; kind?: MemberKind }): ToolDefinition {
  const kind = options.kind ?? 'tool';
  const word = kind.replace('-', ' ');
  const all = projectTools({ adapter: options.adapter, allVersions: true, kind });
  const named = all.filter((tool) => namesOf(tool).includes(name));
  if (named.length === 0) {
    const names = [...new Set(all.map((tool) => tool.toolName()))];
    const hint =
      names.length === 0
        ? `the project has no ${word}s (is the adapter registered in toolwright.config?)`
        : `the ${word}s are ${joinWords(names)}`;
    // The name of a member of another kind: say which --kind finds it.
    const other = KINDS.filter((k) => k !== kind).find((k) => {
      try {
        return projectTools({ adapter: options.adapter, allVersions: true, kind: k }).some((tool) => namesOf(tool).includes(name));
      } catch {
        return false; // only a hint: a malformed member of another kind is reported when that kind is asked for
      }
    });
    const elsewhere = other ? ` '${name}' is a ${other.replace('-', ' ')}: pass --kind ${other}.` : '';
    throw new CliError(`unknown ${word} '${name}': ${hint}.${elsewhere} Run toolwright list.`);
  }
  if (options.version === undefined) return named[named.length - 1];
  const match = named.find((tool) => tool.version === options.version);
  if (!match) {
    throw new CliError(
      `${name} has no version ${options.version}: its versions are ${joinWords(named.map((tool) => String(tool.version)))}.`,
    );
  }
  return match;
}

/** Parses `--version N`. */
export function parseVersion(value: string): number {
  const version = Number(value);
  if (!/^\d+$/.test(value) || version < 1) throw new CliError(`--version must be a whole number from 1; got '${value}'.`);
  return version;
}
