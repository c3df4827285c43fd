/**
 * The tool context of an MCP call: progress, logs, elicitation, sampling and roots go to the client over
 * the request's own stream (related to the tools/call request), as far as the client and the
 * protocol revision of the request let them. `callHandlers` is the one place where the context and
 * the approver are chosen per revision.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type LoggingLevel,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { Approver, CallContext, SampleResult } from '../../../index';
import { canElicitForm, mcpApprover } from '../protocol/approval';
import type { McpRequestContext } from './request-context';
import { CallRounds, roundHandlers } from '../protocol/rounds';

/** The protocol revision family a server instance serves: 2025-11-25 and before, or 2026-07-28. */
export type McpEra = 'legacy' | 'modern';

/** Log data as MCP carries it: the message alone, or `{ message, data }`. */
function logData(message: string, data: unknown): unknown {
  return data === undefined ? message : { message, data };
}

/** Why elicit/sample/roots cannot run: the client did not declare the capability. */
const CLIENT_CANNOT = {
  elicit:
    'the MCP client did not declare the elicitation capability (form mode) when it connected; use a client that can ask its user, or let the tool go on without asking (context.supports("elicit"))',
  sample:
    'the MCP client did not declare the sampling capability when it connected; use a client that offers its model, or let the tool go on without it (context.supports("sample"))',
  roots:
    'the MCP client did not declare the roots capability when it connected; use a client that offers its roots, or let the tool go on without them (context.supports("roots"))',
};

/**
 * Why elicit/sample/roots cannot run on a stateless server outside a tools/call (a prompt, a resource):
 * that request answers with one JSON body, with no stream to send the client a request on. A
 * tools/call answers over SSE and can ask (../hosting/stateless-asks.ts).
 */
const STATELESS = {
  elicit:
    'the server is stateless, and there only a tools/call answers over SSE, on which the server can send the client a request; this request answers with one JSON body, so it cannot ask the user mid-request; ask from a tool, serve with sessions, or let it go on without asking (context.supports("elicit"))',
  sample:
    'the server is stateless, and there only a tools/call answers over SSE, on which the server can send the client a request; this request answers with one JSON body, so it cannot ask the model mid-request; ask from a tool, serve with sessions, or let it go on without it (context.supports("sample"))',
  roots:
    'the server is stateless, and there only a tools/call answers over SSE, on which the server can send the client a request; this request answers with one JSON body, so it cannot ask for the roots mid-request; ask from a tool, serve with sessions, or let it go on without them (context.supports("roots"))',
};

/** Why elicit/sample/roots cannot run on a 2026-07-28 request: the request did not declare the capability. */
const MODERN_CANNOT = {
  elicit:
    'the MCP client did not declare the elicitation capability (form mode) in this request (MCP 2026-07-28 clients declare it per request); use a client that can ask its user, or let the tool go on without asking (context.supports("elicit"))',
  sample:
    'the MCP client did not declare the sampling capability in this request (MCP 2026-07-28 clients declare it per request); use a client that offers its model, or let the tool go on without it (context.supports("sample"))',
  roots:
    'the MCP client did not declare the roots capability in this request (MCP 2026-07-28 clients declare it per request); use a client that offers its roots, or let the tool go on without them (context.supports("roots"))',
};

/** What a tools/call runs with, per revision: its tool context and its approver. */
export interface CallHandlers {
  context: CallContext;
  /** Undefined: this client cannot be asked (the invoker refuses a call that needs approval, saying so). */
  approve: Approver | undefined;
}

/**
 * The tool context and the approver of one tools/call, chosen by the revision the server instance
 * serves. 2025-11-25 sends elicitation, sampling and roots requests on the call's stream (when the client
 * declared them at initialize); 2026-07-28 asks through the call's input-required rounds (../protocol/rounds.ts),
 * as far as the request's own client capabilities declare them. Progress and logs reach the client in both (logs follow `logging/setLevel` on 2025-11-25
 * and the request's `logLevel` on 2026-07-28: the SDK's `ctx.mcpReq.log` applies either).
 */
export function callHandlers(
  era: McpEra,
  server: Server,
  ctx: ServerContext,
  request: McpRequestContext,
  toolName: string,
  approval: { trusted: boolean; timeoutMs: number },
  rounds?: CallRounds,
): CallHandlers {
  const base: CallContext = {
    transport: 'mcp',
    requestId: request.requestId,
    ...(request.sessionId !== undefined ? { sessionId: request.sessionId } : {}),
    ...(request.authInfo !== undefined ? { auth: request.authInfo } : {}),
    progress: (done, total, message) => request.progress(done, total, message),
    log: async (level, message, data) => {
      if (request.signal.aborted) return;
      await ctx.mcpReq.log(level as LoggingLevel, logData(message, data), toolName);
    },
  };
  if (era === 'modern') {
    const declared = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
      ClientCapabilities | undefined;
    const { elicit, sample, roots, approve } = roundHandlers(rounds!, declared, toolName, approval.trusted);
    // Read only when the tool asks what the request cannot answer: the call then needed that capability.
    const unavailable = {
      get elicit() {
        rounds!.missing = 'elicitation';
        return MODERN_CANNOT.elicit;
      },
      get sample() {
        rounds!.missing = 'sampling';
        return MODERN_CANNOT.sample;
      },
      get roots() {
        rounds!.missing = 'roots';
        return MODERN_CANNOT.roots;
      },
    };
    const asks = { ...(elicit ? { elicit } : {}), ...(sample ? { sample } : {}), ...(roots ? { roots } : {}) };
    return { context: { ...base, ...asks, unavailable }, approve };
  }
  // The client's capabilities from its initialize; a stateless server never saw it: it assumes every ask
  // when the call answers over SSE (ToolsServer.assumeClientAsks), and has none otherwise.
  const capabilities = server.getClientCapabilities();
  const related = { relatedRequestId: request.requestId, signal: request.signal };
  const context: CallContext = {
    ...base,
    ...(canElicitForm(capabilities)
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
    ...(capabilities?.roots ? { roots: async () => (await server.listRoots(undefined, related)).roots } : {}),
    unavailable: capabilities === undefined ? STATELESS : CLIENT_CANNOT,
  };
  return { context, approve: mcpApprover(server, request, toolName, approval.trusted, approval.timeoutMs) };
}
