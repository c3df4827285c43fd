/**
 * The tool context of an MCP call: progress, logs, elicitation and sampling go to the client over
 * the request's own stream (related to the tools/call request), as far as the client declared it
 * can take them.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SetLevelRequestSchema, type CreateMessageRequestParams, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { CallContext, LOG_LEVELS, LogLevel, SampleResult } from '../../index';
import type { McpRequestContext } from './request-context';

/** What a session remembers for its tool calls: the level the client asked for with logging/setLevel. */
export interface SessionState {
  level?: LogLevel;
}

/** Answers logging/setLevel for this server's session (the server declares the logging capability). */
export function handleSetLevel(server: Server, state: SessionState): void {
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    state.level = request.params.level as LogLevel;
    return {};
  });
}

/** Log data as MCP carries it: the message alone, or `{ message, data }`. */
function logData(message: string, data: unknown): unknown {
  return data === undefined ? message : { message, data };
}

/** Why elicit/sample cannot run: the client did not declare the capability. */
const CLIENT_CANNOT = {
  elicit:
    'the MCP client did not declare the elicitation capability (form mode) when it connected; use a client that can ask its user, or let the tool go on without asking (context.supports("elicit"))',
  sample:
    'the MCP client did not declare the sampling capability when it connected; use a client that offers its model, or let the tool go on without it (context.supports("sample"))',
};

/**
 * Why elicit/sample cannot run on a server that never saw the client's initialize: a stateless
 * server (one per request) knows nothing of the client, and the client's answer would reach another.
 */
const STATELESS = {
  elicit:
    'the server is stateless (no session), so it cannot send the client a request and receive its answer; serve with sessions (serveHttp without stateless: true) to ask the user, or let the tool go on without asking (context.supports("elicit"))',
  sample:
    'the server is stateless (no session), so it cannot send the client a request and receive its answer; serve with sessions (serveHttp without stateless: true) to ask the model, or let the tool go on without it (context.supports("sample"))',
};

/** The context handlers and identity of one tools/call. */
export function mcpCallContext(server: Server, state: SessionState, request: McpRequestContext, toolName: string): CallContext {
  const related = { relatedRequestId: request.requestId, signal: request.signal };
  const capabilities = server.getClientCapabilities();
  return {
    transport: 'mcp',
    requestId: request.requestId,
    ...(request.sessionId !== undefined ? { sessionId: request.sessionId } : {}),
    ...(request.authInfo !== undefined ? { auth: request.authInfo } : {}),
    progress: (done, total, message) => request.progress(done, total, message),
    log: async (level, message, data) => {
      if (state.level !== undefined && LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(state.level)) return;
      if (request.signal.aborted) return;
      await server.notification(
        { method: 'notifications/message', params: { level: level as LoggingLevel, logger: toolName, data: logData(message, data) } },
        { relatedRequestId: request.requestId },
      );
    },
    ...(capabilities?.elicitation?.form
      ? {
          elicit: async (message, schema) => {
            const result = await server.elicitInput({ mode: 'form', message, requestedSchema: schema as never }, related);
            return result.action === 'accept'
              ? { action: 'accept', content: (result.content ?? {}) as Record<string, string | number | boolean | string[]> }
              : { action: result.action };
          },
        }
      : {}),
    ...(capabilities?.sampling
      ? {
          sample: async (sampleRequest) =>
            (await server.createMessage(sampleRequest as CreateMessageRequestParams, related)) as unknown as SampleResult,
        }
      : {}),
    unavailable: capabilities === undefined ? STATELESS : CLIENT_CANNOT,
  };
}
