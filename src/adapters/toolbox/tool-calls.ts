import type { ContentPart } from '../../index';
/**
 * The tool calls a model makes, in the shapes the OpenAI APIs use (structural types: this entry
 * point does not load the `openai` package), and what the toolbox makes of them.
 */
import { randomUUID } from 'node:crypto';
import type { Result, ToolDefinition } from '../../index';
import { describeValue } from '../../adapter-kit';
import type { FunctionApi } from './function-schema';

/** A Chat Completions function tool call (`message.tool_calls[i]`); `arguments` is a JSON string. */
export interface ChatCompletionsToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/**
 * A Chat Completions custom tool call. It is part of `message.tool_calls`' type, but a toolbox
 * holds function tools only: passing one is an error saying so.
 */
export interface ChatCompletionsCustomToolCall {
  id: string;
  type: 'custom';
  custom: { name: string; input: string };
}

/** A Responses API `function_call` output item; `arguments` is a JSON string. */
export interface ResponsesFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
  id?: string;
}

/** A call from anywhere else: `arguments` is a JSON string or an already parsed object. */
export interface PlainToolCall {
  /** Echoed on the record and the tool message (default: a generated `call_…` id). */
  id?: string;
  name: string;
  arguments?: unknown;
}

/** Anything `Toolbox.match`, `invoke` and `invokeAll` accept. */
export type ToolCallInput = ChatCompletionsToolCall | ChatCompletionsCustomToolCall | ResponsesFunctionCall | PlainToolCall;

/** The API a call came from, and so the message form its answer takes. */
export type ApiOf<C> = C extends { type: 'function_call' } ? 'responses' : 'chat';

/** A call resolved against a toolbox, not yet run. */
export interface ToolCallMatch<A extends FunctionApi = FunctionApi> {
  /** The call id the answer must carry (`tool_call_id` / `call_id`). */
  readonly id: string;
  /** The function name the model asked for. */
  readonly name: string;
  readonly api: A;
  /** The parsed arguments (the raw text when it is not JSON). */
  readonly arguments: unknown;
  /** The local tool the name resolves to (undefined for an unknown name). */
  readonly tool: ToolDefinition | undefined;
  /** Why the call cannot run (unknown tool, arguments that are not JSON), as the model will read it. */
  readonly error: string | undefined;
}

/** The outcome of one call: what the application keeps, and what the model reads (`output`). */
export interface ToolCallRecord<A extends FunctionApi = FunctionApi> {
  readonly id: string;
  readonly name: string;
  readonly api: A;
  /**
   * `approval_required`: the tool needs a person's approval and nothing ran yet; answer it with
   * `toolbox.approve(record)` or `toolbox.deny(record, reason)`, which give the record to send.
   */
  readonly status: 'completed' | 'failed' | 'approval_required';
  readonly durationMs: number;
  /** The parsed arguments (the raw text when it is not JSON). */
  readonly arguments: unknown;
  /** The invoker's Result; undefined when the call never reached a tool (unknown name, arguments not JSON). */
  readonly result: Result | undefined;
  /**
   * The text for the model: the rendered JSON on success (the success message for a tool that
   * exposes nothing), the user-facing error on failure, "Invalid tool arguments: …" for bad input.
   */
  readonly output: string;
  /**
   * On an `approval_required` record: the question to show the person, the one every way in asks (an
   * MCP client reads the same): every argument the call will run with, sensitive values redacted, a
   * long text shortened in its middle with its length.
   */
  readonly question?: string;
  /** The rendered JSON value `output` is the text of (successful calls of tools that expose a value). */
  readonly data?: unknown;
  /**
   * The content parts the tool answered with (`Content.*`): `output` holds their text stand-ins;
   * `toMessages` gives the Responses API the images and files themselves.
   */
  readonly content?: readonly ContentPart[];
}

/** @internal A call read from any of the accepted shapes. */
export interface ReadCall {
  readonly id: string;
  readonly name: string;
  readonly api: FunctionApi;
  readonly rawArguments: unknown;
}

const SHAPES =
  "a Chat Completions tool call { id, type: 'function', function: { name, arguments } }, " +
  "a Responses API item { type: 'function_call', call_id, name, arguments }, or { name, arguments }";

function requireString(value: unknown, what: string, where: string): string {
  if (typeof value !== 'string') throw new TypeError(`${where}: ${what} must be a string; got ${describeValue(value)}. Pass ${SHAPES}.`);
  return value;
}

/** @internal Reads a call envelope. A malformed envelope is the application's mistake (TypeError). */
export function readToolCall(call: unknown, where: string): ReadCall {
  if (typeof call !== 'object' || call === null || Array.isArray(call)) {
    throw new TypeError(`${where}: expected ${SHAPES}; got ${describeValue(call)}.`);
  }
  const envelope = call as Record<string, unknown>;
  switch (envelope.type) {
    case 'function': {
      const fn = envelope.function as Record<string, unknown> | undefined;
      if (typeof fn !== 'object' || fn === null)
        throw new TypeError(`${where}: a 'function' tool call needs a 'function' object. Pass ${SHAPES}.`);
      return {
        id: requireString(envelope.id, 'the tool call id', where),
        name: requireString(fn.name, 'function.name', where),
        api: 'chat',
        rawArguments: fn.arguments,
      };
    }
    case 'function_call':
      return {
        id: requireString(envelope.call_id, 'call_id', where),
        name: requireString(envelope.name, 'name', where),
        api: 'responses',
        rawArguments: envelope.arguments,
      };
    case 'custom': {
      const custom = envelope.custom as { name?: unknown } | undefined;
      throw new TypeError(
        `${where}: the custom tool call ${describeValue(custom?.name)} (id ${describeValue(envelope.id)}) is not a function call; ` +
          'a toolbox runs function tools only. Handle custom tools before passing the calls on.',
      );
    }
    case undefined:
      return {
        id: envelope.id === undefined ? `call_${randomUUID()}` : requireString(envelope.id, 'id', where),
        name: requireString(envelope.name, 'name', where),
        api: 'chat',
        rawArguments: envelope.arguments,
      };
    default:
      throw new TypeError(`${where}: a tool call of type ${describeValue(envelope.type)} is not supported. Pass ${SHAPES}.`);
  }
}

/** The message a model reads when its arguments are not JSON. */
export const NOT_JSON =
  "Invalid tool arguments: the arguments are not valid JSON. Send one JSON object that follows the tool's parameters schema.";

/**
 * @internal Model arguments: a JSON string is parsed (blank means no arguments); anything else is
 * passed on for the invoker to judge. Never throws.
 */
export function parseArguments(raw: unknown): { ok: true; value: unknown } | { ok: false; value: string; error: string } {
  if (typeof raw !== 'string') return { ok: true, value: raw };
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false, value: raw, error: NOT_JSON };
  }
}
