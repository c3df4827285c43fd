import * as fs from 'node:fs';
import { JsonSchema, ToolDefinition } from '../index';
import { isPlainObject } from '../adapter-kit/internal';
import { CliError } from './cli-error';
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
}

export interface Manifest {
  readonly toolwrightManifest: 1;
  readonly tools: readonly ManifestTool[];
}

export function manifestRecord(tool: ToolDefinition): ManifestTool {
  const adapters: Record<string, string> = {};
  for (const key of [...tool.adapters].sort(compareText)) adapters[key] = tool.toolName(key);
  return {
    name: tool.toolName(),
    version: tool.version,
    description: tool.description ?? null,
    hints: [...tool.hints].sort(compareText),
    adapters,
    input: tool.inputSchema(),
    output: tool.outputSchema() ?? null,
  };
}

/** Every version of every tool of the loaded project, sorted by name then version. */
export function buildManifest(): Manifest {
  return { toolwrightManifest: 1, tools: projectTools({ allVersions: true }).map(manifestRecord) };
}

/** Deterministic text: the same tools give the same bytes. */
export function manifestText(manifest: Manifest): string {
  return json(manifest);
}

/** Reads a manifest written by `toolwright manifest`, checking its shape. */
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
  raw.tools.forEach((tool, i) => {
    if (
      !isPlainObject(tool) ||
      typeof tool.name !== 'string' ||
      !Number.isInteger(tool.version) ||
      !isPlainObject(tool.input) ||
      !isPlainObject(tool.adapters)
    ) {
      throw new CliError(
        `${file}: tools[${i}] is not a tool record (name, version, adapters, input, output): regenerate it with toolwright manifest.`,
      );
    }
  });
  return raw as unknown as Manifest;
}
