import type { CallToolResult, Tool as McpTool, ToolAnnotations } from '@modelcontextprotocol/server';
import type { DependencyContainer } from 'tsyringe';
import { AmbientSource, CallContext, Approver, CallTrace, Invoker, Result, ToolDefinition, ToolLike, Tools } from '../../../index';
import { defaultInvoker, guardToolResponse, MAPPING_FAILURE } from '../../../adapter-kit';
import { MCP_ADAPTER, McpConfig } from './config';
import { withHeaderFields } from './tool-extras';

/** Per-call inputs of a wrapped tool's handler. */
export interface McpCallOptions {
  /** Runs the call (default: the kit's `defaultInvoker`). */
  invoker?: Invoker;
  /** Trusted ambient values for this call (`{}` when there are none). */
  ambientContext?: AmbientSource;
  container?: DependencyContainer;
  /** The transport's request (the server passes its `McpRequestContext`), for the resolver. */
  request?: unknown;
  signal?: AbortSignal;
  /** The tool context's handlers and the call's identity (the server fills them from the MCP request). */
  context?: CallContext;
  /** Asks a person when the tool needs approval (the server passes an elicitation; without it such a call is refused). */
  approve?: Approver;
  /** The call's id (the server passes the JSON-RPC request id). */
  callId?: string;
  /** The client's trace context (`_meta.traceparent`) and the MCP span attributes. */
  trace?: CallTrace;
}

/** A toolwright tool as MCP sees it: the `tools/list` entry and the `tools/call` handler. */
export interface McpToolEntry {
  readonly definition: ToolDefinition;
  /** The entry `tools/list` returns. */
  readonly tool: McpTool;
  /** Runs the tool through the invoker and maps the Result to an MCP CallToolResult. Never throws. */
  handler(args: unknown, options?: McpCallOptions): Promise<CallToolResult>;
}

/** The options of `McpAdapter.wrap(tool, { ... })`: the name and description clients see. */
export interface WrapOptions {
  /** The name clients call (default: the tool's `mcp` name). */
  name?: string;
  /** The description clients show (default: the tool's description). */
  description?: string;
}

const MCP_SCHEMA = { declareDialect: true, sharedDefs: true } as const;

/** MCP annotations from semantic hints, or undefined when the tool declares none MCP knows. */
function annotationsFor(hints: readonly string[]): ToolAnnotations | undefined {
  const annotations: ToolAnnotations = {};
  if (hints.includes('readOnly')) annotations.readOnlyHint = true;
  if (hints.includes('destructive')) {
    annotations.readOnlyHint = false;
    annotations.destructiveHint = true;
  }
  if (hints.includes('idempotent')) annotations.idempotentHint = true;
  if (hints.includes('openWorld')) annotations.openWorldHint = true;
  if (hints.includes('closedWorld')) annotations.openWorldHint = false;
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}

function text(value: string): CallToolResult['content'][number] {
  return { type: 'text', text: value };
}

/** `ask_user` → "Ask user". */
function sentenceOf(name: string): string {
  const words = name
    .replace(/[_\-.]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Maps a Result to what tools/call answers. */
function toCallToolResult(definition: ToolDefinition, result: Result, exposes: boolean): CallToolResult {
  if (!result.ok) {
    const failed: CallToolResult = { isError: true, content: [text(result.error ?? result.message)] };
    if (result.fieldErrors.length > 0) failed._meta = { fieldErrors: result.fieldErrors.map(({ field, message }) => ({ field, message })) };
    return failed;
  }
  const presentAs = McpConfig.resolveOverrideFor(definition, 'presentAs');
  // Content parts are MCP content blocks as they are (the same fields, base64 data).
  const parts = (result.content ?? []) as CallToolResult['content'];
  const rendered = McpConfig.serializeExposed(result);
  if (exposes) {
    const structured = rendered as Record<string, unknown>;
    return {
      content: [text(presentAs === 'message' ? result.message : JSON.stringify(structured)), ...parts],
      structuredContent: structured,
    };
  }
  if (parts.length > 0 && rendered === undefined) return { content: [...parts] };
  if (presentAs === 'message' || rendered === undefined) return { content: [text(result.message), ...parts] };
  return { content: [text(typeof rendered === 'string' ? rendered : JSON.stringify(rendered)), ...parts] };
}

/** A Result as tools/call answers it; a mapping problem is reported and answered as a generic error. */
export function mapResult(definition: ToolDefinition, result: Result, exposes = definition.outputSchema() !== undefined): CallToolResult {
  return guardToolResponse(
    definition,
    () => toCallToolResult(definition, result, exposes),
    (): CallToolResult => ({ isError: true, content: [text(MAPPING_FAILURE)] }),
  );
}

/** @internal Runs a definition for an MCP call through the call's invoker (its pipeline). */
export function invokeFor(definition: ToolDefinition, args: unknown, call: McpCallOptions = {}): Promise<Result> {
  return (call.invoker ?? defaultInvoker).invoke(definition, args ?? {}, {
    ambientContext: call.ambientContext ?? {},
    container: call.container,
    request: call.request,
    signal: call.signal,
    transport: 'mcp',
    approve: call.approve,
    callId: call.callId,
    trace: call.trace,
    context: call.context ?? { transport: 'mcp' },
  });
}

/**
 * The MCP adapter's tools one by one, for mounting them on a server of your own: `tools()` (every
 * `mcp` member, wrapped) and `wrap(tool)`. (`createMcpServer` and `serveHttp` use these entries.)
 */
export const McpAdapter = {
  /** Every member of the `mcp` adapter (latest version of each), wrapped. Takes no arguments. */
  tools(): McpToolEntry[] {
    return Tools.forAdapter(MCP_ADAPTER).map((tool) => McpAdapter.wrap(tool));
  },

  /** One tool as an MCP tool entry and its handler. */
  wrap(tool: ToolLike, options: WrapOptions = {}): McpToolEntry {
    const definition = Tools.resolve(tool);
    // What MCP clients expect: the dialect named, and a class used in several places written once.
    const outputSchema = definition.outputSchema(MCP_SCHEMA);
    const title = McpConfig.resolveOverrideFor(definition, 'title') ?? definition.title;
    const icons = McpConfig.resolveOverrideFor(definition, 'icons');
    const headers = McpConfig.resolveOverrideFor(definition, 'headers');
    const inputSchema = withHeaderFields(definition, definition.inputSchema(MCP_SCHEMA) as Record<string, unknown>, headers);
    const entry: McpTool = {
      name: options.name ?? definition.toolName(MCP_ADAPTER),
      ...(title !== undefined ? { title } : {}),
      // MCP clients expect a description: a tool without one is described by its title or its name.
      description: options.description ?? definition.description ?? title ?? sentenceOf(definition.toolName(MCP_ADAPTER)),
      inputSchema: inputSchema as McpTool['inputSchema'],
      ...(icons ? { icons: icons.map((icon) => ({ ...icon, ...(icon.sizes ? { sizes: [...icon.sizes] } : {}) })) } : {}),
      ...(outputSchema ? { outputSchema: outputSchema as McpTool['outputSchema'] } : {}),
    };
    const annotations = annotationsFor(definition.hints);
    if (annotations) entry.annotations = annotations;
    if (definition.version > 1) entry._meta = { toolVersion: definition.version };
    const taskSupport = McpConfig.resolveOverrideFor(definition, 'taskSupport');
    if (taskSupport !== 'forbidden') entry.execution = { taskSupport };
    const exposes = outputSchema !== undefined;
    return {
      definition,
      tool: entry,
      async handler(args, call = {}) {
        return mapResult(definition, await invokeFor(definition, args, call), exposes);
      },
    };
  },
};
