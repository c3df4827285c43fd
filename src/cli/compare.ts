/**
 * Breaking-change classification between two manifests, per `(name, version)`. A change is
 * breaking when a caller written against the old record can notice it: on input, when the new
 * schema refuses something the old one accepted (it narrowed); on output, when the new schema may
 * produce something the old one never did (it widened). Input objects are closed (toolwright
 * refuses undeclared inputs), output objects open (callers ignore fields they do not know).
 * The rules are listed in docs/guide/contract-guard.md ("The rules"); each has a test.
 */
import type { MemberKind } from '../index';
import { MEMBER_SECTIONS } from './manifest';
import type { Manifest, ManifestMember, ManifestTool } from './manifest';
import { KINDS, kindWord } from './members';
import { SchemaComparison, show } from './schema-comparison';
import type { Add, Rule } from './schema-comparison';
import { compareText } from './tools';

export type { Rule };

export interface Finding {
  /** What the record is: a tool, or a member beside tools (`prompt`, `resource-template`, …). */
  readonly kind: MemberKind;
  /** The tool's (or member's) name. */
  readonly tool: string;
  readonly version: number;
  readonly breaking: boolean;
  readonly rule: Rule;
  /** `input.amount`, `output.items[].id`, `arguments.applicant` (a prompt), `variables.id` (a template), or '' for the tool itself. */
  readonly path: string;
  readonly message: string;
}

const key = (tool: { name: string; version: number }) => `${tool.name}@${tool.version}`;

/**
 * Compares the current manifest with an earlier one: every change a caller would notice, and the
 * compatible ones. Tools, then each kind of member (a manifest written before members has none).
 */
export function compareManifests(before: Manifest, after: Manifest): Finding[] {
  const findings: Finding[] = [];
  compareSection('tool', before.tools, after.tools, findings);
  for (const [kind, section] of MEMBER_SECTIONS) compareSection(kind, before[section] ?? [], after[section] ?? [], findings);
  return findings.sort(
    (a, b) =>
      KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind) ||
      compareText(a.tool, b.tool) ||
      a.version - b.version ||
      Number(b.breaking) - Number(a.breaking) ||
      compareText(a.path, b.path),
  );
}

function compareSection(kind: MemberKind, before: readonly ManifestMember[], after: readonly ManifestMember[], findings: Finding[]): void {
  const now = new Map(after.map((tool) => [key(tool), tool]));
  const then = new Map(before.map((tool) => [key(tool), tool]));
  const word = kind === 'tool' ? 'tool' : kindWord(kind);
  for (const old of before) {
    const add = (rule: Rule, breaking: boolean, path: string, message: string) =>
      findings.push({ kind, tool: old.name, version: old.version, breaking, rule, path, message });
    const current = now.get(key(old));
    if (!current) {
      const others = after.filter((tool) => tool.name === old.name).map((tool) => tool.version);
      // A completion is never asked for by name: without it a client only gets no suggestions.
      add(
        kind === 'tool' ? 'tool-removed' : 'member-removed',
        kind !== 'completion',
        '',
        others.length > 0 ? `version ${old.version} was removed (versions now: ${others.join(', ')})` : `the ${word} was removed`,
      );
      continue;
    }
    compareTool(kind, old, current, add);
  }
  for (const tool of after) {
    if (then.has(key(tool))) continue;
    const known = before.some((old) => old.name === tool.name);
    findings.push({
      kind,
      tool: tool.name,
      version: tool.version,
      breaking: false,
      rule: kind === 'tool' ? 'tool-added' : 'member-added',
      path: '',
      message: known ? `new version ${tool.version}` : `new ${word}`,
    });
  }
}

/** Where a kind's input contract is reported: a prompt's arguments, a template's variables. */
const INPUT_PATH: Partial<Record<MemberKind, string>> = { prompt: 'arguments', 'resource-template': 'variables' };

function compareTool(kind: MemberKind, old: ManifestMember, current: ManifestMember, add: Add): void {
  for (const [adapter, name] of Object.entries(old.adapters)) {
    const now = current.adapters[adapter];
    if (now === undefined) add('adapter-removed', true, '', `no longer served by the '${adapter}' adapter`);
    else if (now !== name) add('adapter-renamed', true, '', `its name in '${adapter}' changed from ${name} to ${now}`);
  }
  for (const adapter of Object.keys(current.adapters)) {
    if (!(adapter in old.adapters)) add('adapter-added', false, '', `now also served by the '${adapter}' adapter`);
  }
  if ((old.description ?? null) !== (current.description ?? null)) add('description', false, '', 'description changed');
  if (show([...old.hints].sort()) !== show([...current.hints].sort())) {
    add('hints', false, '', `hints changed from ${show(old.hints)} to ${show(current.hints)}`);
  }
  const tags = (record: ManifestTool) => [...(record.tags ?? [])].sort();
  if (show(tags(old)) !== show(tags(current))) add('tags', false, '', `tags changed from ${show(tags(old))} to ${show(tags(current))}`);
  compareMemberFacts(old, current, add);
  new SchemaComparison('input', old.input, current.input, add).compare(old.input, current.input, INPUT_PATH[kind] ?? 'input');
  const word = kind === 'tool' ? 'tool' : kindWord(kind);
  if (old.output && !current.output) add('output-removed', true, 'output', `the ${word} no longer exposes an output`);
  else if (!old.output && current.output) add('output-added', false, 'output', `the ${word} now exposes an output`);
  else if (old.output && current.output)
    new SchemaComparison('output', old.output, current.output, add).compare(old.output, current.output, 'output');
}

/** A resource's URI or a template's template (where clients find it), its MIME type, what a completion completes. */
function compareMemberFacts(old: ManifestMember, current: ManifestMember, add: Add): void {
  for (const field of ['uri', 'uriTemplate'] as const) {
    if (old[field] !== undefined && old[field] !== current[field]) {
      add(
        'uri-changed',
        true,
        '',
        `its ${field === 'uri' ? 'URI' : 'URI template'} changed from ${old[field]} to ${current[field] ?? 'none'}`,
      );
    }
  }
  if ((old.mimeType ?? null) !== (current.mimeType ?? null)) {
    add('mime-type', false, '', `MIME type changed from ${old.mimeType ?? 'none'} to ${current.mimeType ?? 'none'}`);
  }
  const completes = (record: ManifestMember) =>
    record.completes ? `${record.completes.argument} of ${kindWord(record.completes.kind)} ${record.completes.name}` : undefined;
  if (completes(old) !== completes(current))
    add('completes', false, '', `now completes ${completes(current) ?? 'nothing'} (was ${completes(old)})`);
}
