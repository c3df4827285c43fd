/**
 * The members beside tools, as the command line shows them: resources (their URI), resource
 * templates (their template and variables), prompts (their arguments) and completions (what they
 * complete). One place for the kinds' order, names and summaries, read by list and manifest.
 */
import type { JsonSchema, MemberKind, ToolDefinition } from '../index';
import { isPlainObject, joinWords } from '../adapter-kit/internal';
import { CliError } from './cli-error';

/** Every kind, in the order the command line shows them. */
export const KINDS: readonly MemberKind[] = ['tool', 'resource', 'resource-template', 'prompt', 'completion'];

/** A kind as a heading (`Resource templates`) and as a word in sentences (`resource template`). */
export const KIND_HEADING: Readonly<Record<MemberKind, string>> = {
  tool: 'Tools',
  resource: 'Resources',
  'resource-template': 'Resource templates',
  prompt: 'Prompts',
  completion: 'Completions',
};

/** Parses `--kind K`. */
export function parseKind(value: string): MemberKind {
  if (!KINDS.includes(value as MemberKind)) throw new CliError(`--kind must be one of ${joinWords(KINDS)}; got '${value}'.`);
  return value as MemberKind;
}

export function kindWord(kind: MemberKind): string {
  return kind.replace('-', ' ');
}

/** One argument of a prompt (or variable of a template), read from its input schema. */
export interface MemberArgumentInfo {
  readonly name: string;
  readonly required: boolean;
  readonly type: string;
  readonly description: string | null;
}

/** The arguments a caller sends, from the member's input schema (ambient fields never appear). */
export function argumentsOf(member: ToolDefinition): MemberArgumentInfo[] {
  const schema = member.inputSchema() as JsonSchema & { properties?: unknown; required?: unknown };
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, property]) => {
    const node = (isPlainObject(property) ? property : {}) as { type?: unknown; enum?: unknown; description?: unknown; items?: unknown };
    const types = ([] as unknown[]).concat(node.type ?? (Array.isArray(node.enum) ? 'enum' : 'any')).map(String);
    const items = isPlainObject(node.items) && node.items.type !== undefined ? `<${String(node.items.type)}>` : '';
    return {
      name,
      required: required.has(name),
      type: types.filter((type) => type !== 'null').join('|') + items,
      description: typeof node.description === 'string' ? node.description : null,
    };
  });
}

/** `applicant, amount?` : the argument names, optional ones marked. */
export function argumentList(member: ToolDefinition): string {
  return argumentsOf(member)
    .map((arg) => `${arg.name}${arg.required ? '' : '?'}`)
    .join(', ');
}

/** What a completion completes: its argument and the prompt's or template's kind and name. */
export function completesOf(member: ToolDefinition, adapter?: string): { kind: MemberKind; name: string; argument: string } | undefined {
  const completes = member.completes;
  if (!completes) return undefined;
  return { kind: completes.of.member, name: completes.of.toolName(adapter), argument: completes.argument };
}

/** `applicant of prompt review_loan` */
export function completesText(member: ToolDefinition, adapter?: string): string {
  const of = completesOf(member, adapter);
  return of ? `${of.argument} of ${kindWord(of.kind)} ${of.name}` : '-';
}
