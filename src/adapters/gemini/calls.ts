/**
 * Gemini's function calls in, its function responses out: `response.functionCalls` (or the parts'
 * `functionCall`s) as calls a toolbox runs, and the records as `functionResponse` parts.
 */
import { randomUUID } from 'node:crypto';
import { contentAsText, type ContentPart } from '../../index';
import { describeValue } from '../../adapter-kit';
import { isPlainObject } from '../../adapter-kit/internal';
import type { PlainToolCall, ToolCallRecord } from '../toolbox/index';
import type { GeminiFunctionCall, GeminiFunctionResponseContentPart, GeminiFunctionResponsePart } from './types';

/**
 * The id given to a call the model sent without one (the Gemini API often does): the record carries
 * it, and its function response is sent without an id, as the model's call had none.
 */
const UNNAMED = 'gemini-unnamed-';

/** What `fromGeminiCalls` reads: a `generateContent` response, a content's parts, or the function calls. */
export type GeminiCallSource =
  | { readonly functionCalls?: readonly GeminiFunctionCall[] | undefined }
  | readonly ({ readonly functionCall?: GeminiFunctionCall } | GeminiFunctionCall)[];

/** The keys of a `FunctionCall`; no other part of a content has them. */
const CALL_KEYS = ['name', 'args', 'id'];

const SHAPES = "a generateContent response (its 'functionCalls'), a content's parts, or a list of function calls { id?, name, args }";

function readCall(call: unknown, index: number): PlainToolCall {
  if (!isPlainObject(call)) throw new TypeError(`fromGeminiCalls: call ${index} is not a function call { id?, name, args }; got ${describeValue(call)}.`);
  const { id, name, args } = call as GeminiFunctionCall;
  if (id !== undefined && typeof id !== 'string') throw new TypeError(`fromGeminiCalls: call ${index}'s id must be a string; got ${describeValue(id)}.`);
  // A name or arguments the model got wrong give a failed record for the model to read, never an exception.
  return { id: id ?? `${UNNAMED}${randomUUID()}`, name: typeof name === 'string' ? name : '', arguments: args ?? {} };
}

/**
 * The calls of a Gemini response, for `toolbox.invokeAll`: `{ id, name, arguments }` from each
 * `functionCall` (`args` as the arguments; a call without an id gets one, and its response goes back
 * without). Takes the response itself, a content's `parts` (parts without a call are skipped), or
 * the function calls. No calls gives an empty list.
 */
export function fromGeminiCalls(source: GeminiCallSource): PlainToolCall[] {
  let calls: unknown[];
  if (Array.isArray(source)) {
    // A part with a call, or a call itself (even one missing its name: the model reads why); other parts (text, thoughts) are skipped.
    calls = source.flatMap((item: unknown) => (!isPlainObject(item) ? [item] : 'functionCall' in item ? [item.functionCall] : CALL_KEYS.some((key) => key in item) ? [item] : []));
  } else if (typeof source === 'object' && source !== null && 'functionCalls' in source) {
    const found = (source as { functionCalls?: unknown }).functionCalls;
    if (found !== undefined && !Array.isArray(found)) throw new TypeError(`fromGeminiCalls: 'functionCalls' must be a list; got ${describeValue(found)}.`);
    calls = found ?? [];
  } else {
    throw new TypeError(`fromGeminiCalls: expected ${SHAPES}; got ${describeValue(source)}.`);
  }
  return calls.map(readCall);
}

/** Is this part sent to Gemini as media (an image, an embedded binary file)? */
const isMedia = (part: ContentPart): boolean => part.type === 'image' || (part.type === 'resource' && 'blob' in part.resource);

/** Images and binary resources as Gemini's function-response media parts. */
function mediaParts(content: readonly ContentPart[]): GeminiFunctionResponsePart[] {
  const parts: GeminiFunctionResponsePart[] = [];
  for (const part of content) {
    if (part.type === 'image') parts.push({ inlineData: { mimeType: part.mimeType, data: part.data } });
    else if (part.type === 'resource' && 'blob' in part.resource) {
      parts.push({ inlineData: { mimeType: part.resource.mimeType ?? 'application/octet-stream', data: part.resource.blob } });
    }
  }
  return parts;
}

/**
 * A completed call's output: the exposed value (or the text); beside media parts, the value and the
 * text stand-ins of the parts not sent as media (audio, links, text), or which media are attached.
 */
function outputOf(record: ToolCallRecord): unknown {
  const content = record.content ?? [];
  if (!content.some(isMedia)) return record.data !== undefined ? record.data : record.output;
  const texts = content.filter((part) => !isMedia(part)).map(contentAsText);
  if (texts.length === 0) return record.data !== undefined ? record.data : `[attached: ${content.map((part) => (part.type === 'image' ? part.mimeType : 'a file')).join(', ')}]`;
  return [...(record.data !== undefined ? [JSON.stringify(record.data)] : []), ...texts].join('\n');
}

/**
 * The answers to a model's function calls, one `functionResponse` part per record, in order, for the
 * next `user` turn: `{ functionResponse: { id?, name, response: { output } } }` for a completed call
 * (the exposed value, or the text), `{ response: { error } }` for a failed one (as Gemini reads
 * errors), and the images and binary files a tool answered with as media `parts`. A record still
 * waiting for approval is an error: answer it with `toolbox.approve` or `toolbox.deny` first.
 */
export function toFunctionResponses(records: readonly ToolCallRecord[]): GeminiFunctionResponseContentPart[] {
  if (!Array.isArray(records)) throw new TypeError(`toFunctionResponses: expected the records Toolbox.invokeAll returned; got ${describeValue(records)}.`);
  return records.map((record: ToolCallRecord, index) => {
    if (!isPlainObject(record) || typeof record.id !== 'string' || typeof record.name !== 'string' || typeof record.output !== 'string') {
      throw new TypeError(`toFunctionResponses: record ${index} is not a tool call record (from Toolbox.invoke or invokeAll); got ${describeValue(record)}.`);
    }
    if (record.status === 'approval_required') {
      throw new TypeError(
        `toFunctionResponses: record ${index} (${record.name}) is waiting for approval. Answer it first with toolbox.approve(record) or toolbox.deny(record), and send the record that returns.`,
      );
    }
    const media = record.status === 'completed' ? mediaParts(record.content ?? []) : [];
    return {
      functionResponse: {
        ...(record.id.startsWith(UNNAMED) ? {} : { id: record.id }),
        name: record.name,
        response: record.status === 'completed' ? { output: outputOf(record) } : { error: record.output },
        ...(media.length > 0 ? { parts: media } : {}),
      },
    };
  });
}

