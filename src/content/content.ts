/**
 * What a tool can answer beside (or instead of) a JSON value: text, images, audio, embedded
 * resources and links to resources, in any mix. Each transport maps the parts to what it carries
 * (MCP content blocks; for function calling, what each API supports, with a text fallback).
 */
import { describeValue, isPlainObject } from '../util/describe-value';

/** One part of a tool's answer. Binary data is base64, as MCP carries it. */
export type ContentPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly data: string; readonly mimeType: string }
  | { readonly type: 'audio'; readonly data: string; readonly mimeType: string }
  | { readonly type: 'resource'; readonly resource: EmbeddedResource }
  | ResourceLink;

/** A resource carried in the answer: its text, or its bytes (base64 `blob`). */
export type EmbeddedResource =
  | { readonly uri: string; readonly mimeType?: string; readonly text: string }
  | { readonly uri: string; readonly mimeType?: string; readonly blob: string };

/** A link to a resource the client may read (MCP `resource_link`). */
export interface ResourceLink {
  readonly type: 'resource_link';
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

/** Bytes, or a string already in base64. */
export type Bytes = Uint8Array | ArrayBuffer | string;

/**
 * A tool's answer as content parts, and the value its `@Exposes` contract renders (when it has
 * one). Build it with `Content.*`; return it (or an array of them) from the tool.
 */
export class ToolContent {
  /** @internal */
  constructor(
    readonly parts: readonly ContentPart[],
    /** The value for `@Exposes` (`Content.with(value, …)`), undefined otherwise. */
    readonly value?: unknown,
  ) {
    Object.freeze(this);
  }
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(?:\s*;.*)?$/i;

function base64(bytes: Bytes, where: string): string {
  if (typeof bytes === 'string') {
    if (!BASE64.test(bytes))
      throw new TypeError(
        `${where}: a string must be base64 (or pass the bytes as a Uint8Array); got ${describeValue(bytes.slice(0, 40))}.`,
      );
    return bytes;
  }
  if (bytes instanceof Uint8Array) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  if (bytes instanceof ArrayBuffer) return Buffer.from(bytes).toString('base64');
  throw new TypeError(
    `${where}: the bytes must be a Uint8Array (a Buffer), an ArrayBuffer or a base64 string; got ${describeValue(bytes)}.`,
  );
}

function mimeType(value: unknown, where: string, family?: string): string {
  if (typeof value !== 'string' || !MIME.test(value) || (family !== undefined && !value.toLowerCase().startsWith(`${family}/`))) {
    const example = family === 'image' ? 'image/png' : family === 'audio' ? 'audio/wav' : 'application/pdf';
    throw new TypeError(
      `${where}: mimeType must be ${family ? `an ${family} type` : 'a media type'} like '${example}'; got ${describeValue(value)}.`,
    );
  }
  return value;
}

function uri(value: unknown, where: string): string {
  if (typeof value !== 'string' || !URL.canParse(value)) {
    throw new TypeError(`${where}: uri must be an absolute URI like 'file:///report.pdf'; got ${describeValue(value)}.`);
  }
  return value;
}

function optionalString(value: unknown, name: string, where: string): string | undefined {
  if (value !== undefined && typeof value !== 'string')
    throw new TypeError(`${where}: ${name} must be a string; got ${describeValue(value)}.`);
  return value;
}

function one(part: ContentPart): ToolContent {
  return new ToolContent([Object.freeze(part)]);
}

const ContentParts = {
  text(text: string): ToolContent {
    if (typeof text !== 'string') throw new TypeError(`Content.text(text): text must be a string; got ${describeValue(text)}.`);
    return one({ type: 'text', text });
  },

  /** An image: `Content.image(pngBytes, 'image/png')`. */
  image(bytes: Bytes, type: string): ToolContent {
    const where = 'Content.image(bytes, mimeType)';
    return one({ type: 'image', data: base64(bytes, where), mimeType: mimeType(type, where, 'image') });
  },

  /** A sound: `Content.audio(wavBytes, 'audio/wav')`. */
  audio(bytes: Bytes, type: string): ToolContent {
    const where = 'Content.audio(bytes, mimeType)';
    return one({ type: 'audio', data: base64(bytes, where), mimeType: mimeType(type, where, 'audio') });
  },

  /** A resource carried in the answer: `{ uri, text }` or `{ uri, bytes }`, with an optional mimeType. */
  resource(resource: { uri: string; mimeType?: string; text?: string; bytes?: Bytes }): ToolContent {
    const where = 'Content.resource({ uri, text | bytes, mimeType? })';
    if (!isPlainObject(resource)) throw new TypeError(`${where}: expected an object; got ${describeValue(resource)}.`);
    const base = {
      uri: uri(resource.uri, where),
      ...(resource.mimeType !== undefined ? { mimeType: mimeType(resource.mimeType, where) } : {}),
    };
    if ((resource.text === undefined) === (resource.bytes === undefined)) {
      throw new TypeError(`${where}: give exactly one of text (a string) and bytes; got ${describeValue(resource)}.`);
    }
    const embedded: EmbeddedResource =
      resource.text !== undefined
        ? { ...base, text: optionalString(resource.text, 'text', where)! }
        : { ...base, blob: base64(resource.bytes!, where) };
    return one({ type: 'resource', resource: Object.freeze(embedded) });
  },

  /** A link to a resource the client may read: `{ uri, name, title?, description?, mimeType? }`. */
  link(link: { uri: string; name: string; title?: string; description?: string; mimeType?: string }): ToolContent {
    const where = 'Content.link({ uri, name, … })';
    if (!isPlainObject(link)) throw new TypeError(`${where}: expected an object; got ${describeValue(link)}.`);
    if (typeof link.name !== 'string' || link.name === '')
      throw new TypeError(`${where}: name must be a non-empty string; got ${describeValue(link.name)}.`);
    const part: { -readonly [K in keyof ResourceLink]: ResourceLink[K] } = {
      type: 'resource_link',
      uri: uri(link.uri, where),
      name: link.name,
    };
    for (const key of ['title', 'description'] as const) {
      const value = optionalString(link[key], key, where);
      if (value !== undefined) part[key] = value;
    }
    if (link.mimeType !== undefined) part.mimeType = mimeType(link.mimeType, where);
    return one(part);
  },

  /** Several parts in order: `Content.of(Content.text('Chart:'), Content.image(png, 'image/png'))`. */
  of(...contents: ToolContent[]): ToolContent {
    return new ToolContent(partsOf(contents, 'Content.of'));
  },

  /** A value for the tool's `@Exposes` contract (structured output) with content parts beside it. */
  with(value: unknown, ...contents: ToolContent[]): ToolContent {
    return new ToolContent(partsOf(contents, 'Content.with(value, …)'), value);
  },
};

function partsOf(contents: readonly unknown[], where: string): ContentPart[] {
  return contents.flatMap((content, index) => {
    if (!(content instanceof ToolContent)) {
      throw new TypeError(
        `${where}: part ${index} must be built with Content.* (text, image, audio, resource, link); got ${describeValue(content)}.`,
      );
    }
    return content.parts;
  });
}

/**
 * @internal A returned value's content, if it is content (a ToolContent, or a non-empty array of
 * them): the parts and the value left for the contract.
 */
export function contentOf(value: unknown): ToolContent | undefined {
  if (value instanceof ToolContent) return value;
  if (Array.isArray(value) && value.length > 0 && value.every((item) => item instanceof ToolContent)) {
    return new ToolContent((value as ToolContent[]).flatMap((item) => item.parts));
  }
  return undefined;
}

/** A one-line text stand-in for a part, for transports that carry text only. */
export function contentAsText(part: ContentPart): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'image':
    case 'audio':
      return `[${part.type}: ${part.mimeType}, ${Buffer.byteLength(part.data, 'base64')} bytes, not shown]`;
    case 'resource':
      return 'text' in part.resource
        ? part.resource.text
        : `[resource ${part.resource.uri}${part.resource.mimeType ? ` (${part.resource.mimeType})` : ''}, not shown]`;
    case 'resource_link':
      return `[resource link: ${part.name} <${part.uri}>${part.description ? ` ${part.description}` : ''}]`;
  }
}

/** One message of a prompt: who says it, and one content part. */
export interface PromptMessage {
  readonly role: 'user' | 'assistant';
  readonly content: ContentPart;
}

/**
 * Messages of a prompt, built with `Content.user(…)` and `Content.assistant(…)`; a prompt returns
 * one, an array of them, or `{ description, messages }`.
 */
export class PromptMessages {
  /** @internal */
  constructor(readonly messages: readonly PromptMessage[]) {
    Object.freeze(this);
  }
}

function said(role: 'user' | 'assistant', content: string | ToolContent): PromptMessages {
  const where = `Content.${role}(text | Content.*)`;
  const parts =
    typeof content === 'string'
      ? [Object.freeze({ type: 'text' as const, text: content })]
      : content instanceof ToolContent
        ? content.parts
        : undefined;
  if (!parts || parts.length === 0) {
    throw new TypeError(
      `${where}: pass the message's text, or content built with Content.* (text, image, audio, resource, link); got ${describeValue(content)}.`,
    );
  }
  return new PromptMessages(parts.map((part) => Object.freeze({ role, content: part })));
}

/**
 * Constructors of content parts (combine them with `Content.of` and `Content.with`), and of prompt
 * messages: `Content.user('Review loan 42')`, `Content.assistant(Content.text('…'))`, one message
 * per content part.
 */
export const Content = {
  ...ContentParts,
  user: (content: string | ToolContent): PromptMessages => said('user', content),
  assistant: (content: string | ToolContent): PromptMessages => said('assistant', content),
};

/**
 * What a prompt returned, as its description and messages, or a sentence saying what it should
 * have returned. A string is one user message. (Not public: first-party adapters reach it through
 * adapter-kit/internal, whose declarations must find it.)
 */
export function promptMessagesOf(value: unknown): { description?: string; messages: readonly PromptMessage[] } | string {
  let description: string | undefined;
  let body = value;
  if (isPlainObject(value) && 'messages' in value) {
    const { description: text, messages, ...rest } = value as { description?: unknown; messages: unknown };
    if (Object.keys(rest).length > 0) return `unexpected key ${Object.keys(rest)[0]} beside description and messages`;
    if (text !== undefined && typeof text !== 'string') return `its description must be a string, not ${describeValue(text)}`;
    description = text;
    body = messages;
  }
  const list = Array.isArray(body) ? body : [body];
  const messages: PromptMessage[] = [];
  for (const item of list) {
    if (typeof item === 'string') messages.push(...said('user', item).messages);
    else if (item instanceof PromptMessages) messages.push(...item.messages);
    else if (item instanceof ToolContent) messages.push(...said('user', item).messages);
    else
      return `a prompt returns text, Content.user(…) / Content.assistant(…) messages (or a list of them), or { description, messages }; got ${describeValue(item)}`;
  }
  if (messages.length === 0) return 'it returned no messages';
  return { ...(description !== undefined ? { description } : {}), messages };
}
