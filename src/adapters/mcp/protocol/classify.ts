/**
 * Which revision a POST belongs to, as the SDK decides it: its `classifyInboundRequest` (what
 * `createMcpHandler` and `isLegacyRequest` run) on Node's headers and the body already parsed, made
 * once per request at `serveHttp`'s entry and handed on to whatever needs it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { classifyInboundRequest } from '@modelcontextprotocol/server';

export type InboundClassification = ReturnType<typeof classifyInboundRequest>;

/** The SDK's classification of a POST; a repeated header reads as the SDK's `Headers.get` reads it (joined by ", "). */
export function classifyPost(headers: IncomingHttpHeaders, body: unknown): InboundClassification {
  const header = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  return classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: header('mcp-protocol-version'),
    mcpMethodHeader: header('mcp-method'),
    mcpNameHeader: header('mcp-name'),
    body,
  });
}
