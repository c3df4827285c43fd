/**
 * `Mcp-Param-*` headers (SEP-2243) on the 2026-07-28 endpoint: the SDK's `createMcpHandler` checks a
 * tools/call's headers against its body before dispatch, for the tools of an SDK `McpServer` (its
 * tool registry is where it reads the `x-mcp-header` declarations). toolwright serves the low-level
 * `Server`; when a served tool declares headers, the per-request server is handed to the handler
 * inside an `McpServer` whose tool schemas are toolwright's own, so the SDK's check runs on them.
 */
import { McpServer, type Server } from '@modelcontextprotocol/server';
import type { McpServedTools } from '../members/served-tools';

const SHELL_INFO = { name: 'toolwright', version: '0' };

/** The server as `createMcpHandler` should see it: as it is, or in an McpServer that knows the tools' header fields. */
export function withParamHeaderCheck(server: Server, tools: McpServedTools): Server | McpServer {
  if (!tools.mirrorsHeaders()) return server;
  const shell = new McpServer(SHELL_INFO);
  Object.defineProperty(shell, 'server', { value: server });
  // What the handler asks for a tools/call's tool: the JSON Schema tools/list sends (with x-mcp-header).
  Object.defineProperty(shell, 'toolInputSchemaJson', {
    value: (name: string) => tools.get(name)?.entry.tool.inputSchema as Record<string, unknown> | undefined,
  });
  return shell;
}
