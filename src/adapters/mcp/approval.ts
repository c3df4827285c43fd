/**
 * Approvals over MCP: a tool that needs a person's approval asks through an elicitation (a form
 * with one "approve" checkbox) when the client supports form elicitation. Otherwise the call is
 * refused, unless the server chose to rely on the client's own confirmation UI.
 */
import { SdkError, SdkErrorCode, type ClientCapabilities, type ElicitResult, type Server } from '@modelcontextprotocol/server';
import type { ApprovalDecision, Approver, ElicitSchema } from '../../index';

/** Longest input shown in the confirmation text; the rest is cut with "…". */
const MAX_SHOWN = 2_000;

/** The text a person reads before approving: the tool, and its input with sensitive fields redacted. */
function question(tool: string, input: Readonly<Record<string, unknown>>): string {
  let shown = JSON.stringify(input);
  if (shown.length > MAX_SHOWN) shown = `${shown.slice(0, MAX_SHOWN)}…`;
  return `Allow the tool ${tool} to run with ${shown}?`;
}

/** The form that asks a person to approve one call: the question, and one "approve" checkbox. */
export function approvalForm(name: string, input: Readonly<Record<string, unknown>>): { message: string; schema: ElicitSchema } {
  return {
    message: question(name, input),
    schema: {
      type: 'object',
      properties: { approve: { type: 'boolean', title: 'Approve', description: `Run ${name} now`, default: false } },
      required: ['approve'],
    },
  };
}

/** The person's answer to the approval form as a decision, with the reason the caller reads. */
export function decisionOf(answer: { action: string; content?: Readonly<Record<string, unknown>> }): ApprovalDecision {
  if (answer.action === 'accept' && answer.content?.approve === true) return true;
  const reason =
    answer.action === 'accept'
      ? 'the user did not tick approve'
      : answer.action === 'decline'
        ? 'the user declined'
        : 'the user dismissed the request';
  return { approved: false, reason };
}

/** Whether a client declared form elicitation (a bare `elicitation: {}` means form, as before modes). */
export function canElicitForm(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined;
  return elicitation !== undefined && (elicitation.form !== undefined || Object.keys(elicitation).length === 0);
}

/**
 * The approver of one tools/call request on a 2025-11-25 server, or undefined when this client
 * cannot be asked (the invoker then refuses the call, saying so). `trusted`: the server relies on
 * the client's own confirmation, so a client without elicitation is taken to have confirmed.
 */
export function mcpApprover(
  server: Server,
  request: { requestId: string | number; signal: AbortSignal },
  name: string,
  trusted: boolean,
  timeoutMs: number,
): Approver | undefined {
  if (!canElicitForm(server.getClientCapabilities())) return trusted ? () => true : undefined;
  return async (call) => {
    let answer: ElicitResult;
    const { message, schema } = approvalForm(name, call.redactedInput());
    try {
      answer = await server.elicitInput(
        { mode: 'form', message, requestedSchema: schema as never },
        // Routed with the tools/call request (its HTTP stream), and abandoned when the call is cancelled.
        { relatedRequestId: request.requestId, signal: request.signal, timeout: timeoutMs },
      );
    } catch (error) {
      // Nobody answered within the timeout: not approved (any other error is reported).
      if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)
        return { approved: false, reason: 'nobody answered in time' };
      throw error;
    }
    return decisionOf(answer);
  };
}
