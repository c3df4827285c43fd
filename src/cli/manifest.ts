import * as fs from 'node:fs';
import { JsonSchema, ToolDefinition } from '../index';
import type { MemberKind } from '../index';
import { isPlainObject } from '../adapter-kit/internal';
import { CliError } from './cli-error';
import { completesOf } from './members';
import { json } from './output';
import { compareText, projectTools } from './tools';

/** The declaration record of one tool version: no executable part. */
export interface ManifestTool {
  readonly name: string;
  readonly version: number;
  readonly description: string | null;
  readonly hints: readonly string[];
  /** Adapter key → the tool's name there. */
  readonly adapters: Readonly<Record<string, string>>;
  readonly input: JsonSchema;
  /** null when the tool exposes nothing. */
  readonly output: JsonSchema | null;
  /** The tags a server's `visible` rule reads (absent in manifests written before members: none). */
  readonly tags?: readonly string[];
}

/**
 * The record of a member beside the tools: the same fields (a prompt's `input` is its arguments, a
 * template's its variables), and the kind's own.
 */
export interface ManifestMember extends ManifestTool {
  /** A resource's URI. */
  readonly uri?: string;
  /** A resource template's RFC 6570 template. */
  readonly uriTemplate?: string;
  readonly mimeType?: string | null;
  /** What a completion completes. */
  readonly completes?: { readonly kind: MemberKind; readonly name: string; readonly argument: string };
}

export interface Manifest {
  readonly toolwrightManifest: 1;
  readonly tools: readonly ManifestTool[];
  /** Absent in a manifest written before members existed: read as none. */
  readonly resources?: readonly ManifestMember[];
  readonly resourceTemplates?: readonly ManifestMember[];
  readonly prompts?: readonly ManifestMember[];
  readonly completions?: readonly ManifestMember[];
}

/** The manifest key of each kind beside tools. */
export const MEMBER_SECTIONS = [
  ['resource', 'resources'],
  ['resource-template', 'resourceTemplates'],
  ['prompt', 'prompts'],
  ['completion', 'completions'],
] as const satisfies readonly (readonly [MemberKind, keyof Manifest])[];

export function manifestRecord(tool: ToolDefinition): ManifestMember {
  const adapters: Record<string, string> = {};
  for (const key of [...tool.adapters].sort(compareText)) adapters[key] = tool.toolName(key);
  const record = {
    name: tool.toolName(),
    version: tool.version,
    description: tool.description ?? null,
    hints: [...tool.hints].sort(compareText),
    tags: [...tool.tags].sort(compareText),
    adapters,
    input: tool.inputSchema(),
    output: tool.outputSchema() ?? null,
  };
  switch (tool.member) {
    case 'resource':
      return { ...record, uri: tool.resource!.uri, mimeType: tool.resource!.mimeType ?? null };
    case 'resource-template':
      return { ...record, uriTemplate: tool.resource!.uri, mimeType: tool.resource!.mimeType ?? null };
    case 'completion':
      return { ...record, completes: completesOf(tool) };
    default:
      return record;
  }
}

/** Every version of every tool and member of the loaded project, by kind, sorted by name then version. */
export function buildManifest(): Manifest {
  const manifest: Record<string, unknown> = { toolwrightManifest: 1, tools: projectTools({ allVersions: true }).map(manifestRecord) };
  for (const [kind, section] of MEMBER_SECTIONS) manifest[section] = projectTools({ allVersions: true, kind }).map(manifestRecord);
  return manifest as unknown as Manifest;
}

/** Deterministic text: the same tools give the same bytes. */
export function manifestText(manifest: Manifest): string {
  return json(manifest);
}

/** Reads a manifest written by `toolwright manifest` (one written before members existed included), checking its shape. */
export function readManifest(file: string): Manifest {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new CliError(`cannot read the manifest ${file}: ${reason}. Write one with toolwright manifest --out ${file}.`);
  }
  if (!isPlainObject(raw) || raw.toolwrightManifest !== 1 || !Array.isArray(raw.tools)) {
    throw new CliError(`${file} is not a toolwright manifest (version 1): write one with toolwright manifest --out ${file}.`);
  }
  const check = (section: string, records: unknown[], what: string) =>
    records.forEach((record, i) => {
      if (
        !isPlainObject(record) ||
        typeof record.name !== 'string' ||
        !Number.isInteger(record.version) ||
        !isPlainObject(record.input) ||
        !isPlainObject(record.adapters) ||
        (record.tags !== undefined && !(Array.isArray(record.tags) && record.tags.every((tag) => typeof tag === 'string')))
      ) {
        throw new CliError(
          `${file}: ${section}[${i}] is not a ${what} record (name, version, adapters, input, output): regenerate it with toolwright manifest.`,
        );
      }
    });
  check('tools', raw.tools, 'tool');
  for (const [kind, section] of MEMBER_SECTIONS) {
    const records = raw[section];
    if (records === undefined) continue;
    if (!Array.isArray(records)) {
      throw new CliError(
        `${file}: '${section}' must be a list of ${kind.replace('-', ' ')} records: regenerate it with toolwright manifest.`,
      );
    }
    check(section, records, kind.replace('-', ' '));
  }
  return raw as unknown as Manifest;
}
