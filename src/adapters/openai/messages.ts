import { contentAsText, ContentPart } from '../../index';
import { describeValue } from '../../adapter-kit';
import { isPlainObject } from '../../adapter-kit/internal';
/**
 * Records back to the messages the model reads: Chat Completions `tool` messages and Responses API
 * `function_call_output` items (structural types, assignable to the `openai` package's).
 */
import type { FunctionApi, ToolCallRecord } from '../toolbox/index';

/** A Chat Completions `tool` message (`ChatCompletionToolMessageParam`). */
export interface ChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** A Responses API input item answering a `function_call` (`ResponseInputItem.FunctionCallOutput`). */
export interface ResponsesFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  /** The text; or, for a tool that answered with images or files, the parts (`input_text`, `input_image`, `input_file`). */
  output: string | ResponsesOutputPart[];
}

/** A part of a Responses `function_call_output` (`ResponseFunctionCallOutputItem`). */
export type ResponsesOutputPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'input_file'; file_data: string; filename: string };

/**
 * Content parts as the Responses API takes them: images as `input_image` data URLs, embedded
 * binary resources as `input_file`, the rest (audio, links, text resources) as `input_text`.
 */
function responsesParts(data: unknown, content: readonly ContentPart[]): ResponsesOutputPart[] {
  const parts: ResponsesOutputPart[] = data !== undefined ? [{ type: 'input_text', text: JSON.stringify(data) }] : [];
  for (const part of content) {
    if (part.type === 'image') parts.push({ type: 'input_image', image_url: `data:${part.mimeType};base64,${part.data}`, detail: 'auto' });
    else if (part.type === 'resource' && 'blob' in part.resource) {
      const { uri, mimeType = 'application/octet-stream', blob } = part.resource;
      parts.push({ type: 'input_file', file_data: `data:${mimeType};base64,${blob}`, filename: uri.split('/').pop() || 'file' });
    } else parts.push({ type: 'input_text', text: contentAsText(part) });
  }
  return parts;
}

/** The options of `toMessages(records, { ... })`. */
export interface ToMessagesOptions {
  /** The message form for every record (default: each record's own, from the API its call came from). */
  api?: FunctionApi;
}

function toMessage(record: ToolCallRecord, api: FunctionApi): ChatToolMessage | ResponsesFunctionCallOutput {
  return api === 'responses'
    ? {
        type: 'function_call_output',
        call_id: record.id,
        output: record.content?.some((part) => part.type === 'image' || (part.type === 'resource' && 'blob' in part.resource))
          ? responsesParts(record.data, record.content)
          : record.output,
      }
    : { role: 'tool', tool_call_id: record.id, content: record.output };
}

/**
 * The answers to a model's tool calls, one per record, in order: a Chat Completions `tool` message
 * (`{ role: 'tool', tool_call_id, content }`) for a call that came as a Chat Completions tool call
 * or `{ name, arguments }`, a Responses `function_call_output` item for a Responses `function_call`.
 * `{ api }` picks one form for all.
 */
export function toMessages(records: readonly ToolCallRecord<'chat'>[], options?: { api?: 'chat' }): ChatToolMessage[];
export function toMessages(records: readonly ToolCallRecord<'responses'>[], options?: { api?: 'responses' }): ResponsesFunctionCallOutput[];
export function toMessages(records: readonly ToolCallRecord[], options: { api: 'chat' }): ChatToolMessage[];
export function toMessages(records: readonly ToolCallRecord[], options: { api: 'responses' }): ResponsesFunctionCallOutput[];
export function toMessages(
  records: readonly ToolCallRecord[],
  options?: ToMessagesOptions,
): Array<ChatToolMessage | ResponsesFunctionCallOutput>;
export function toMessages(
  records: readonly ToolCallRecord[],
  options: ToMessagesOptions = {},
): Array<ChatToolMessage | ResponsesFunctionCallOutput> {
  if (!isPlainObject(options) || Object.keys(options).some((key) => key !== 'api')) {
    throw new TypeError(`toMessages: options must be { api?: 'chat' | 'responses' }; got ${describeValue(options)}.`);
  }
  const { api } = options;
  if (api !== undefined && api !== 'chat' && api !== 'responses') {
    throw new TypeError(`toMessages: 'api' must be 'chat' or 'responses'; got ${describeValue(api)}.`);
  }
  if (!Array.isArray(records))
    throw new TypeError(`toMessages: expected the records Toolbox.invokeAll returned; got ${describeValue(records)}.`);
  return records.map((record, index) => {
    if (!isPlainObject(record) || typeof record.id !== 'string' || typeof record.output !== 'string') {
      throw new TypeError(
        `toMessages: record ${index} is not a tool call record (from Toolbox.invoke or invokeAll); got ${describeValue(record)}.`,
      );
    }
    if (record.status === 'approval_required') {
      throw new TypeError(
        `toMessages: record ${index} (${String(record.name)}) is waiting for approval. Answer it first with toolbox.approve(record) or toolbox.deny(record), and send the record that returns.`,
      );
    }
    return toMessage(record as unknown as ToolCallRecord, api ?? (record.api === 'responses' ? 'responses' : 'chat'));
  });
}
