/**
 * The checks of a client's answers to the input requests of MCP 2026-07-28 rounds (../protocol/rounds.ts):
 * each `inputResponses` entry is checked for the kind of request it answers (elicitation, sampling,
 * roots) and kept in its checked shape only; a bad one is -32602 naming its key. An accepted form
 * must also fill the form that was asked, or it is asked again.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { ElicitResult, ElicitSchema } from '../../../index';
import { isPlainObject } from '../../../adapter-kit/internal';

/** The kinds of asks a round carries: a form for the user, a completion of the caller's model, the client's roots. */
export type AskKind = 'elicit' | 'sample' | 'roots';

function badResponse(key: string, expected: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Invalid inputResponses['${key}']: expected ${expected}, the answer to the request the server sent under that key.`,
  );
}

const isElicitValue = (value: unknown) =>
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value)) ||
  (Array.isArray(value) && value.every((item) => typeof item === 'string'));

const isRoot = (root: unknown) =>
  isPlainObject(root) && typeof root.uri === 'string' && (root.name === undefined || typeof root.name === 'string');

/** A client's response under `key`, checked for the `kind` of request it answers (a -32602 naming the key otherwise). */
export function checkResponse(kind: AskKind, key: string, response: unknown): unknown {
  if (kind === 'elicit') {
    const expected = "an elicitation result { action: 'accept' | 'decline' | 'cancel', content? } with primitive content values";
    if (!isPlainObject(response) || !['accept', 'decline', 'cancel'].includes(response.action as string)) throw badResponse(key, expected);
    if (response.action !== 'accept') return { action: response.action };
    const content = response.content ?? {};
    if (!isPlainObject(content) || !Object.values(content).every(isElicitValue)) throw badResponse(key, expected);
    return { action: 'accept', content };
  }
  if (kind === 'roots') {
    if (!isPlainObject(response) || !Array.isArray(response.roots) || !response.roots.every(isRoot)) {
      throw badResponse(key, "a roots result { roots: [{ uri: 'file:///…', name? }] }");
    }
    return { roots: (response.roots as Array<{ uri: string; name?: string }>).map(({ uri, name }) => (name === undefined ? { uri } : { uri, name })) };
  }
  const expected = "a sampling result { role: 'assistant', content: { type: 'text', text } (or image/audio), model }";
  if (!isPlainObject(response) || response.role !== 'assistant' || typeof response.model !== 'string' || !isPlainObject(response.content)) {
    throw badResponse(key, expected);
  }
  const { content } = response;
  const fine =
    content.type === 'text'
      ? typeof content.text === 'string'
      : (content.type === 'image' || content.type === 'audio') && typeof content.data === 'string' && typeof content.mimeType === 'string';
  if (!fine) throw badResponse(key, expected);
  return {
    role: 'assistant',
    content,
    model: response.model,
    ...(typeof response.stopReason === 'string' ? { stopReason: response.stopReason } : {}),
  };
}

/** Accepted content must fill the form that was asked: its fields only, its required ones present, of their types. */
export function fitsForm(result: ElicitResult, schema: ElicitSchema): boolean {
  if (result.action !== 'accept') return true;
  const content = result.content ?? {};
  for (const [name, value] of Object.entries(content)) {
    const field = schema.properties[name];
    if (!field) return false;
    const type = field.type === 'integer' ? 'number' : field.type;
    if (type === 'array' ? !Array.isArray(value) : typeof value !== type) return false;
    if (field.type === 'integer' && !Number.isInteger(value)) return false;
  }
  return (schema.required ?? []).every((name) => content[name] !== undefined);
}
