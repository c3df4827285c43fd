import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { container as rootContainer, type DependencyContainer, type InjectionToken } from 'tsyringe';
import { AmbientSource, guardToolResponse, Invoker, InvokerOptions, ToolDefinition, ToolLike } from '../../index';
import { McpRequestContext, withMcpRequest } from './request-context';
import { McpAdapter, McpToolEntry } from './wrap';

export interface McpServerOptions {
  /** The server's name, as clients show it. */
  name: string;
  version: string;
  /** Instructions for the model, sent at initialization. */
  instructions?: string;
  /** The tools to serve: tools, or entries from `McpAdapter.wrap`. Default: `McpAdapter.tools()`. */
  tools?: ReadonlyArray<ToolLike | McpToolEntry>;
  /** The container tools resolve from; each call gets a child of it with the request registered. */
  container?: DependencyContainer;
  /**
   * The trusted ambient values of a call, from its request (auth info, session, headers). Never
   * from the model's arguments.
   */
  ambientContext?: (request: McpRequestContext) => AmbientSource | undefined | Promise<AmbientSource | undefined>;
  /** Invoker options: `rejectUndeclaredInputs`, `userFacingInputErrors`, `onException`. */
  invoker?: Omit<InvokerOptions, 'container'>;
}

interface RequestExtra {
  signal: AbortSignal;
  requestId: string | number;
  sessionId?: string;
  authInfo?: McpRequestContext['authInfo'];
  _meta?: Record<string, unknown> & { progressToken?: string | number };
  requestInfo?: { headers?: Record<string, string | string[] | undefined> };
  sendNotification: (notification: { method: 'notifications/progress'; params: Record<string, unknown> }) => Promise<void>;
}

class RequestContext extends McpRequestContext {
  readonly requestId: string | number;
  readonly sessionId?: string;
  readonly authInfo?: McpRequestContext['authInfo'];
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
  readonly signal: AbortSignal;
  readonly meta?: Readonly<Record<string, unknown>>;

  constructor(private readonly extra: RequestExtra) {
    super();
    this.requestId = extra.requestId;
    this.sessionId = extra.sessionId;
    this.authInfo = extra.authInfo;
    this.headers = extra.requestInfo?.headers;
    this.signal = extra.signal;
    this.meta = extra._meta;
  }

  async progress(progress: number, total?: number, message?: string): Promise<void> {
    const progressToken = this.extra._meta?.progressToken;
    if (progressToken === undefined || this.signal.aborted) return;
    await this.extra.sendNotification({
      method: 'notifications/progress',
      params: { progressToken, progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) },
    });
  }
}

/**
 * Builds the tool entries once and returns a factory of SDK servers over them: one server per
 * connection or session, as the SDK requires, all answering from the same prebuilt tool list.
 */
export function mcpServerFactory(options: McpServerOptions): () => Server {
  if (typeof options?.name !== 'string' || typeof options.version !== 'string') {
    throw new TypeError("createMcpServer needs { name, version }, e.g. { name: 'loan-desk', version: '1.0.0' }.");
  }
  const entries = (options.tools ?? McpAdapter.tools()).map((tool) => (isEntry(tool) ? tool : McpAdapter.wrap(tool)));
  const byName = new Map<string, McpToolEntry>();
  for (const entry of entries) {
    const existing = byName.get(entry.tool.name);
    if (existing) {
      const [a, b] = [existing.definition.id, entry.definition.id].sort();
      throw new TypeError(
        `Tools ${a} and ${b} are both served as '${entry.tool.name}'. Give one another name (wrap(tool, { name }) or @Tool({ adapters: { mcp: { name } } })).`,
      );
    }
    byName.set(entry.tool.name, entry);
  }
  const listing = { tools: entries.map((entry) => entry.tool) };
  const invoker = new Invoker(options.invoker);
  const root = options.container ?? rootContainer;

  const call = async (name: string, args: unknown, extra: RequestExtra): Promise<CallToolResult> => {
    const entry = byName.get(name);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const request = new RequestContext(extra);
    const child = root.createChildContainer();
    // An abstract class is a fine token at run time; tsyringe's types only admit concrete ones.
    child.register(McpRequestContext as unknown as InjectionToken<McpRequestContext>, { useValue: request });
    let ambientContext: AmbientSource = {};
    if (options.ambientContext) {
      try {
        ambientContext = (await options.ambientContext(request)) ?? {};
      } catch (error) {
        return failedContext(entry.definition, error);
      }
    }
    return withMcpRequest(request, () => entry.handler(args, { invoker, ambientContext, container: child, signal: extra.signal }));
  };

  return () => {
    const server = new Server(
      { name: options.name, version: options.version },
      { capabilities: { tools: { listChanged: false } }, ...(options.instructions ? { instructions: options.instructions } : {}) },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => listing);
    server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      call(request.params.name, request.params.arguments, extra as unknown as RequestExtra),
    );
    return server;
  };
}

/** An ambientContext function that threw: the server's problem, reported once, never shown to the model. */
function failedContext(tool: ToolDefinition, error: unknown): CallToolResult {
  const wrapped = new Error(
    `the server's ambientContext function threw for ${tool.toolName('mcp')}: ${(error as Error)?.message ?? String(error)}`,
    {
      cause: error,
    },
  );
  return guardToolResponse(
    tool,
    () => {
      throw wrapped;
    },
    (): CallToolResult => ({ isError: true, content: [{ type: 'text', text: tool.messages.error ?? 'Something went wrong' }] }),
  );
}

function isEntry(value: ToolLike | McpToolEntry): value is McpToolEntry {
  return typeof value === 'object' && value !== null && 'tool' in value && 'handler' in value && !(value instanceof ToolDefinition);
}

/**
 * An MCP server (the SDK's low-level `Server`) answering `tools/list` and `tools/call` for
 * toolwright tools. Connect it to any SDK transport; `serveStdio` and `serveHttp` do that for you.
 */
export function createMcpServer(options: McpServerOptions): Server {
  return mcpServerFactory(options)();
}
