/**
 * What a resource, prompt or completion returned, as MCP answers it. A value that cannot be
 * answered is the member's bug: reported (with the member) and answered -32603, never shown.
 */
import { ProtocolError, ProtocolErrorCode, type GetPromptResult, type ReadResourceResult } from '@modelcontextprotocol/server';
import type { ContentPart, Result, ToolDefinition } from '../../../index';
import { guardToolResponse, MAPPING_FAILURE } from '../../../adapter-kit';
import { isPlainObject, promptMessagesOf } from '../../../adapter-kit/internal';
import { McpConfig } from './config';
import type { McpResourceEntry } from './member-entries';
import { RemoteAnswer } from './remote-answer';

/** The most values one completion answer carries (the MCP spec's cap). */
export const MAX_COMPLETION_VALUES = 100;

type Contents = ReadResourceResult['contents'];

/** A member's bug (or the server's setup), reported once and answered -32603 without detail. */
export function failed(definition: ToolDefinition, error: unknown): ProtocolError {
  return guardToolResponse(
    definition,
    () => {
      throw error;
    },
    () => new ProtocolError(ProtocolErrorCode.InternalError, definition.messages.error ?? MAPPING_FAILURE),
  );
}

/** Maps with `map`; a mapping that throws is the member's bug (`failed`). */
function guarded<T>(definition: ToolDefinition, map: () => T): T {
  let problem: ProtocolError | undefined;
  const mapped = guardToolResponse(definition, map, () => {
    problem = new ProtocolError(ProtocolErrorCode.InternalError, MAPPING_FAILURE);
    return undefined;
  });
  if (problem) throw problem;
  return mapped as T;
}

function isBytes(value: unknown): value is ArrayBufferView | ArrayBuffer {
  return value instanceof ArrayBuffer || (ArrayBuffer.isView(value) && !(value instanceof DataView));
}

function base64(value: ArrayBufferView | ArrayBuffer): string {
  return value instanceof ArrayBuffer
    ? Buffer.from(value).toString('base64')
    : Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
}

/** One content part as the contents of a read of `uri`. */
function partContents(part: ContentPart, uri: string, mimeType: string | undefined): Contents[number] {
  switch (part.type) {
    case 'resource':
      return { ...part.resource };
    case 'text':
      return { uri, mimeType: mimeType ?? 'text/plain', text: part.text };
    case 'image':
    case 'audio':
      return { uri, mimeType: part.mimeType, blob: part.data };
    default:
      throw new TypeError(
        `a resource answers text, bytes, a JSON value or Content.resource(…) parts; a ${part.type} part has no contents to read`,
      );
  }
}

/**
 * The contents of a read: a string is text (of the declared MIME type, else text/plain); bytes are
 * a blob (of the declared type, else application/octet-stream); `Content.*` parts are their own
 * contents; any other value is its JSON (the declared type, else application/json).
 */
export function readContentsOf(entry: McpResourceEntry, uri: string, result: Result): Contents {
  return guarded(entry.definition, () => {
    const { mimeType } = entry;
    // A remote server's own answer (a mounted remote resource), as it sent it.
    if (result.value instanceof RemoteAnswer) return (result.value as RemoteAnswer<{ contents: Contents }>).answer.contents;
    if (result.content && result.content.length > 0) return result.content.map((part) => partContents(part, uri, mimeType));
    const value = result.value;
    if (typeof value === 'string') return [{ uri, mimeType: mimeType ?? 'text/plain', text: value }];
    if (isBytes(value)) return [{ uri, mimeType: mimeType ?? 'application/octet-stream', blob: base64(value) }];
    if (value === undefined) throw new TypeError('the resource returned nothing; return its text, bytes or a JSON value');
    const rendered = McpConfig.serializeExposed(result);
    return [{ uri, mimeType: mimeType ?? 'application/json', text: JSON.stringify(rendered) }];
  });
}

/** A prompt's messages (and description), from what it returned. */
export function promptResultOf(definition: ToolDefinition, result: Result): GetPromptResult {
  return guarded(definition, () => {
    // A remote server's own answer (a mounted remote prompt), as it sent it.
    if (result.value instanceof RemoteAnswer) return (result.value as RemoteAnswer<GetPromptResult>).answer;
    // Content.* parts returned as they are: one user message each.
    const messages =
      result.value === undefined && result.content && result.content.length > 0
        ? { messages: result.content.map((content) => ({ role: 'user' as const, content })) }
        : promptMessagesOf(result.value);
    if (typeof messages === 'string') throw new TypeError(`${definition.id}: ${messages}`);
    return {
      ...('description' in messages && messages.description !== undefined ? { description: messages.description } : {}),
      messages: messages.messages.map(({ role, content }) => ({ role, content: { ...content } })) as GetPromptResult['messages'],
    };
  });
}

/** A completion's answer, capped at 100 values: `total` and `hasMore` as returned, else counted. */
export function completionOf(definition: ToolDefinition, result: Result): { values: string[]; total?: number; hasMore?: boolean } {
  return guarded(definition, () => {
    const answer = result.value as unknown;
    const values = Array.isArray(answer) ? answer : isPlainObject(answer) ? answer.values : undefined;
    if (!Array.isArray(values) || values.some((value) => typeof value !== 'string')) {
      throw new TypeError(`${definition.id}: a completion returns string[] or { values: string[], total?, hasMore? }`);
    }
    const declared = isPlainObject(answer) ? answer : {};
    // The total of matches is at least what was returned; more than go out means there are more.
    const total =
      typeof declared.total === 'number' && Number.isSafeInteger(declared.total) ? Math.max(declared.total, values.length) : values.length;
    const hasMore = values.length > MAX_COMPLETION_VALUES || declared.hasMore === true;
    return { values: (values as string[]).slice(0, MAX_COMPLETION_VALUES), total, hasMore };
  });
}
