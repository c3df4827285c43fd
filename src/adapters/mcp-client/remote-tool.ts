/**
 * A remote MCP server's tool as a toolwright definition the invoker runs like a local one
 * (middleware, approvals from its annotations, rate limits, audit, time limit, tracing), and the
 * checks its untrusted listing must pass first. Shared by every surface that mounts remote tools:
 * the Toolbox of `toolwright/openai` and the mounts of `toolwright/mcp`.
 */
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/client';
import { fail, MemberKind, ToolContext, ToolDefinition, ToolFailure } from '../../index';
import { foreignTool, isPlainObject } from '../../adapter-kit/internal';
import type { McpServerConnection } from './connection';
import type { McpInputHandlers } from './input-requests';

/** The 2026-07-28 error for an input request the call's declared capabilities do not cover. */
const MISSING_CLIENT_CAPABILITY = -32021;

/** A failure the send itself raised (`fail()`): passed on as it is. */
function isFailure(error: unknown): boolean {
  return error instanceof ToolFailure;
}

/** The start of the failure the model reads for arguments the remote server refused (-32602). */
const INVALID_ARGUMENTS = 'Invalid tool arguments: ';

/**
 * Why a remote tool's listing cannot be mounted (its input schema is not an object schema with
 * well-formed properties and required), or undefined when it can. The name is the mounting
 * surface's own rule (function names, MCP tool names).
 */
export function remoteToolProblem(tool: McpTool): string | undefined {
  const schema = tool.inputSchema as unknown;
  if (!isPlainObject(schema) || schema.type !== 'object') return 'its input schema is not a JSON Schema of type object';
  if (schema.properties !== undefined && !isPlainObject(schema.properties)) return "its input schema's properties are not an object";
  if (schema.required !== undefined && (!Array.isArray(schema.required) || schema.required.some((r) => typeof r !== 'string'))) {
    return "its input schema's required is not a list of names";
  }
  if (tool.description !== undefined && typeof tool.description !== 'string') return 'its description is not a string';
  return undefined;
}

/**
 * The semantic hints of a remote tool's annotations, with the MCP defaults: a tool that does not
 * say it is read-only may be destructive unless it says it is not (`destructiveHint` defaults to
 * true), so under `requireApprovalForDestructive` an unannotated remote tool needs approval.
 */
export function hintsOf(annotations: McpTool['annotations']): string[] {
  const hints: string[] = [];
  if (annotations?.readOnlyHint === true) hints.push('readOnly');
  else if (annotations?.destructiveHint !== false) hints.push('destructive');
  if (annotations?.idempotentHint === true) hints.push('idempotent');
  if (annotations?.openWorldHint === true) hints.push('openWorld');
  if (annotations?.openWorldHint === false) hints.push('closedWorld');
  return hints;
}

function texts(result: CallToolResult): string[] {
  return result.content.filter((block): block is { type: 'text'; text: string } => block.type === 'text').map((block) => block.text);
}

/** The value of a remote result: its structured content, its one text block, or its content blocks. */
function valueOf(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const content = result.content;
  return content.length === 1 && content[0].type === 'text' ? content[0].text : content;
}

/** How a remote server's tool is mounted as a local tool: the name it is called by, and what a successful call's value is. */
export interface RemoteToolOptions {
  /** The name it is mounted as (`mcp__files__read`, `files_read`): its name in every message. */
  name: string;
  /**
   * What a successful call's value is: `'value'` (default), its structured content, its one text
   * block or its content blocks (what a model reads); `'result'`, the remote `CallToolResult`
   * itself, for a surface that answers MCP (a proxy passes the blocks through unchanged).
   */
  value?: 'value' | 'result';
  /** The longest a call may take, in milliseconds; then it is cancelled and fails. Default none (the invoker's own limit). */
  timeoutMs?: number;
  /**
   * @internal How a call reaches the server (default: sent at once with the call's signal and its
   * context's handlers). `toolwright/mcp` keeps a call that asks mid-call open across its client's
   * 2026-07-28 input-required rounds.
   */
  sender?: (call: RemoteToolCall) => Promise<CallToolResult>;
}

/** One call of a remote tool as a sender gets it (toolwright/mcp keeps such a call open across 2026-07-28 input-required rounds). */
export interface RemoteToolCall {
  /** Sends the call to the server, cancelled by `signal`; its requests for the user or the model go to `input`. */
  send(signal: AbortSignal, input: McpInputHandlers): Promise<CallToolResult>;
  /** The handlers of this call's tool context, those it supports. */
  readonly input: McpInputHandlers;
  /** This call's signal: the caller's cancellation and the time limit. */
  readonly signal: AbortSignal;
  /** Safe to send twice: the tool says it is read-only or idempotent. */
  readonly retryable: boolean;
  /** How messages name it: `The tool 'charge' on MCP server 'payments'`. */
  readonly what: string;
  /** Fails the call as one that did not answer within `timeoutMs`. */
  late(): never;
}

/** What a remote member's definition is made of (`remoteMemberDefinition`). */
export interface RemoteMemberSpec {
  /** The name it is served as: its name in every message. */
  name: string;
  /** Who it is in messages and audit records: `mcp:<alias>/<name or URI>`. */
  id: string;
  description?: string;
  /** Its semantic hints (`readOnly` for reads, prompts and completions). */
  hints: readonly string[];
  /** What kind of member it is (default `tool`), as middleware reads it from `call.tool.member`. */
  member?: MemberKind;
  /** The input schema it advertises: values it marks `writeOnly` are redacted in questions, audit records and reports. */
  inputSchema?: unknown;
  /** How messages name it: `The tool 'transfer'`, `The prompt 'review'`, `The resource 'docs://a'`. */
  what: string;
  /** The longest a call may take, in milliseconds; then it is cancelled and fails. Default none (the invoker's own limit). */
  timeoutMs?: number;
  /** Sends the request with the checked input; what it returns is the call's value. */
  send(input: Readonly<Record<string, unknown>>, signal: AbortSignal, context: ToolContext): Promise<unknown>;
}

/** Fails a call that did not answer within its time limit. */
function late(what: string, alias: string, timeoutMs: number | undefined): never {
  fail(`${what} on MCP server '${alias}' did not answer within ${timeoutMs} ms.`, { standalone: true });
}

/**
 * A definition the invoker runs through its pipeline that sends one request to the server behind
 * `connection`: its errors are user-facing failures naming the member and its server (its own
 * JSON-RPC errors; -32602 as invalid arguments), a server that cannot be reached or does not
 * answer in time says so. Make it once per listed member and keep it.
 */
export function remoteMemberDefinition(connection: McpServerConnection, spec: RemoteMemberSpec): ToolDefinition {
  const { alias } = connection;
  const { what, timeoutMs } = spec;
  return foreignTool({
    name: spec.name,
    id: spec.id,
    description: spec.description,
    hints: spec.hints,
    ...(spec.member ? { member: spec.member } : {}),
    inputSchema: spec.inputSchema,
    async call(input, context) {
      const signal = timeoutMs === undefined ? context.signal : AbortSignal.any([context.signal, AbortSignal.timeout(timeoutMs)]);
      try {
        return await spec.send(input, signal, context);
      } catch (error) {
        if (context.signal.aborted) throw error; // the invoker reports the cancellation or its time limit
        if (signal.aborted) late(what, alias, timeoutMs);
        if (isFailure(error)) throw error;
        const code = (error as { code?: unknown }).code;
        const message = (error as Error).message;
        if (code === -32602) fail(`${INVALID_ARGUMENTS}${message}`, { standalone: true });
        if (code === MISSING_CLIENT_CAPABILITY) {
          fail(
            `${what} on MCP server '${alias}' needs to ask the user or the model, and this call cannot answer: ${message}. ` +
              'Pass the handlers in the call options (toolbox.invoke(call, { context: { elicit, sample } })).',
            { standalone: true },
          );
        }
        // A number is the server's own JSON-RPC error; anything else (the SDK's string codes) is this side's.
        if (typeof code === 'number') fail(`${what} on MCP server '${alias}' failed: ${message}`, { standalone: true });
        fail(`${what} on MCP server '${alias}' could not be reached: ${message}`, { standalone: true });
      }
    },
  });
}

/**
 * A definition that calls `tool` on the server behind `connection`, by its wire name, for the
 * invoker to run through its pipeline (the tool's annotations are its hints). The remote's refusals
 * (isError, its JSON-RPC errors) are user-facing failures naming the tool and its server; a server
 * that cannot be reached says so. Make it once per listed tool and keep it.
 */
export function remoteToolDefinition(connection: McpServerConnection, tool: McpTool, options: RemoteToolOptions): ToolDefinition {
  const { name, value = 'value', timeoutMs, sender } = options;
  const retryable = tool.annotations?.readOnlyHint === true || tool.annotations?.idempotentHint === true;
  const what = `The tool '${tool.name}'`;
  return remoteMemberDefinition(connection, {
    name,
    id: `mcp:${connection.alias}/${tool.name}`,
    description: tool.description ?? tool.annotations?.title ?? tool.title,
    hints: hintsOf(tool.annotations),
    inputSchema: tool.inputSchema,
    what,
    timeoutMs,
    async send(input, signal, context) {
      // The server's requests for the user or the model go to this call's own context handlers.
      const ask: McpInputHandlers = {
        ...(context.supports('elicit') ? { elicit: context.elicit.bind(context) } : {}),
        ...(context.supports('sample') ? { sample: context.sample.bind(context) } : {}),
      };
      // The definition as listed: the SDK mirrors the arguments it designates (x-mcp-header) into headers.
      const send = (callSignal: AbortSignal, handlers: McpInputHandlers) =>
        connection.callTool(tool.name, input, { signal: callSignal, retryable, input: handlers, tool });
      const result = sender
        ? await sender({
            send,
            input: ask,
            signal,
            retryable,
            what: `${what} on MCP server '${connection.alias}'`,
            late: () => late(what, connection.alias, timeoutMs),
          })
        : await send(signal, ask);
      if (result.isError) fail(texts(result).join('\n') || 'The remote tool failed without saying why.', { standalone: true });
      return value === 'result' ? result : valueOf(result);
    },
  });
}
