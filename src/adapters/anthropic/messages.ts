/**
 * A Messages API response's `tool_use` blocks in, `tool_result` blocks out (structural types,
 * assignable to `@anthropic-ai/sdk`'s `ToolUseBlock` and `ToolResultBlockParam`).
 */
import { contentAsText, ContentPart } from '../../index';
import { describeValue } from '../../adapter-kit';
import { isPlainObject } from '../../adapter-kit/internal';
import type { PlainToolCall, ToolCallRecord } from '../toolbox/index';

/** A block of a response's `content`: a `tool_use` block is a call; other blocks are skipped. */
export interface AnthropicContentBlock {
  type: string;
  id?: string;
  name?: string;
  input?: unknown;
}

/** The image types a `tool_result` can carry (`Base64ImageSource['media_type']`). */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** A block of a `tool_result`'s content: text, an image, or a PDF document. */
export type AnthropicToolResultContent =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'; data: string } }
  | { type: 'document'; source: { type: 'base64'; media_type: 'application/pdf'; data: string } };

/** The answer to one `tool_use` block, for the next `user` message (`Anthropic.ToolResultBlockParam`). */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  /** The text for the model; or, for a tool that answered with images or PDFs, its blocks. */
  content: string | AnthropicToolResultContent[];
  /** Present (and true) for a failed call: invalid input, a tool error, a denied approval. */
  is_error?: true;
}

/**
 * The calls of a response (`message.content`, or the message itself) for `toolbox.invokeAll`: each
 * `tool_use` block as `{ id, name, arguments: input }`, in order (parallel calls are several
 * blocks). Text, thinking and server tool blocks (Anthropic's own tool search) are not calls.
 */
export function toolCalls(content: readonly AnthropicContentBlock[] | { readonly content: readonly AnthropicContentBlock[] }): PlainToolCall[] {
  const blocks: unknown = Array.isArray(content) ? content : typeof content === 'object' && content !== null ? (content as { content?: unknown }).content : undefined;
  if (!Array.isArray(blocks)) {
    throw new TypeError(`toolCalls: expected a Messages API response or its content blocks; got ${describeValue(content)}.`);
  }
  return blocks
    .filter((block): block is AnthropicContentBlock => isPlainObject(block) && block.type === 'tool_use')
    .map((block, index) => {
      if (typeof block.id !== 'string' || typeof block.name !== 'string') {
        throw new TypeError(`toolCalls: tool_use block ${index} needs a string id and name; got ${describeValue(block)}.`);
      }
      return { id: block.id, name: block.name, arguments: block.input ?? {} };
    });
}

function resultBlocks(data: unknown, content: readonly ContentPart[]): AnthropicToolResultContent[] {
  const blocks: AnthropicToolResultContent[] = data !== undefined ? [{ type: 'text', text: JSON.stringify(data) }] : [];
  for (const part of content) {
    if (part.type === 'image' && IMAGE_TYPES.has(part.mimeType)) {
      blocks.push({ type: 'image', source: { type: 'base64', media_type: part.mimeType as 'image/png', data: part.data } });
    } else if (part.type === 'resource' && 'blob' in part.resource && part.resource.mimeType === 'application/pdf') {
      blocks.push({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: part.resource.blob } });
    } else blocks.push({ type: 'text', text: contentAsText(part) });
  }
  return blocks;
}

const carriesMedia = (part: ContentPart): boolean =>
  (part.type === 'image' && IMAGE_TYPES.has(part.mimeType)) ||
  (part.type === 'resource' && 'blob' in part.resource && part.resource.mimeType === 'application/pdf');

/**
 * The `tool_result` blocks answering a response's calls, one per record, in order, for the next
 * `user` message: `{ type: 'tool_result', tool_use_id, content, is_error? }`. `content` is the text
 * the model reads, or for a tool that answered with images (JPEG, PNG, GIF, WebP) or PDFs, text,
 * image and document blocks. A record waiting for approval is an error: answer it first with
 * `toolbox.approve(record)` or `toolbox.deny(record)` and pass the record that returns.
 */
export function toToolResults(records: readonly ToolCallRecord[]): AnthropicToolResult[] {
  if (!Array.isArray(records)) throw new TypeError(`toToolResults: expected the records Toolbox.invokeAll returned; got ${describeValue(records)}.`);
  return records.map((record: ToolCallRecord, index) => {
    if (!isPlainObject(record) || typeof record.id !== 'string' || typeof record.output !== 'string') {
      throw new TypeError(`toToolResults: record ${index} is not a tool call record (from Toolbox.invoke or invokeAll); got ${describeValue(record)}.`);
    }
    if (record.status === 'approval_required') {
      throw new TypeError(
        `toToolResults: record ${index} (${String(record.name)}) is waiting for approval. Show a person record.question, answer with toolbox.approve(record) or toolbox.deny(record, reason), and pass the record that returns.`,
      );
    }
    return {
      type: 'tool_result',
      tool_use_id: record.id,
      content: record.content?.some(carriesMedia) ? resultBlocks(record.data, record.content) : record.output,
      ...(record.status === 'failed' ? { is_error: true as const } : {}),
    };
  });
}
