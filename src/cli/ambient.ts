import { AmbientContextError } from '../index';
import type { AmbientSource, ToolDefinition } from '../index';
import { isPlainObject } from '../adapter-kit/internal';
import { CliError, oneLine } from './cli-error';

/** `--ambient '{"userId": "u1"}'`: trusted values for `@AmbientContext` fields, as a JSON object. */
export function parseAmbient(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`--ambient is not valid JSON (${oneLine(error)}): pass an object such as '{"userId": "u1"}'.`);
  }
  if (!isPlainObject(value)) throw new CliError(`--ambient must be a JSON object such as '{"userId": "u1"}'.`);
  return value;
}

function has(source: AmbientSource | undefined, key: string): boolean {
  const value =
    source instanceof Map
      ? source.get(key)
      : source && Object.prototype.hasOwnProperty.call(source, key)
        ? (source as Record<string, unknown>)[key]
        : undefined;
  return value !== undefined && value !== null;
}

/**
 * The first ambient value a tool requires (a non-optional, non-nullable field without a default)
 * that `source` lacks, as the sentence that says how to pass it; undefined when none is missing.
 */
export function missingAmbient(tool: ToolDefinition, source: AmbientSource | undefined, how: string): string | undefined {
  for (const field of tool.inputContract.ambientFields) {
    const key = field.ambient!.key;
    if (field.optional || field.nullable || field.default !== undefined || has(source, key)) continue;
    return ambientSentence(tool, key, how);
  }
  return undefined;
}

function ambientSentence(tool: ToolDefinition, key: string, how: string): string {
  const field = tool.inputContract.ambientFields.find((candidate) => candidate.ambient!.key === key);
  const where = field ? ` (${field.owner.name}.${field.name})` : '';
  return `${tool.toolName()} needs the ambient value '${key}'${where}, and none was given: ${how.replace('KEY', key)}.`;
}

/**
 * The invoker's report of a missing ambient value (an `AmbientContextError`, whose advice is for a
 * program calling `invoke`), said for the command instead, with `how`; undefined for any other error.
 */
export function missingAmbientReported(error: unknown, tool: ToolDefinition, how: string): string | undefined {
  if (!(error instanceof AmbientContextError)) return undefined;
  const key = /needs the ambient value '([^']+)'/.exec(error.message)?.[1];
  return key === undefined ? undefined : ambientSentence(tool, key, how);
}
