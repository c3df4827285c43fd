/**
 * Approvals over MCP: a tool that needs a person's approval asks through an elicitation (a form
 * showing the call's arguments, with one "approve" checkbox) when the client supports form
 * elicitation. Otherwise the call is refused, unless the server chose to rely on the client's own
 * confirmation UI.
 */
import { SdkError, SdkErrorCode, type ClientCapabilities, type ElicitResult, type Server } from '@modelcontextprotocol/server';
import type { ApprovalDecision, ApprovalQuestion, Approver, ElicitField, ElicitSchema } from '../../../index';

/**
 * The form that asks a person to approve one call: the question (every argument, shown by the core's
 * one question builder), and the form shows the arguments too: one single-choice field per argument
 * (`argument1`, `argument2`, … titled with its name; its only choice and default is the value as
 * shown), then the "approve" checkbox. MCP forms hold primitive fields only, and a single-choice field
 * with one choice is the nearest to read-only they offer. The fields are named by position, so no
 * argument (one called `approve` included) can stand in for the checkbox, and nothing but `approve` is
 * ever read back: an answer cannot change what runs.
 */
export function approvalForm(name: string, question: ApprovalQuestion): { message: string; schema: ElicitSchema } {
  const shown = question.arguments.map(({ name: title, shown: value }, index): [string, ElicitField] => [
    `argument${index + 1}`,
    { type: 'string', title, enum: [value], default: value },
  ]);
  return {
    message: question.text,
    schema: {
      type: 'object',
      properties: {
        ...Object.fromEntries(shown),
        approve: { type: 'boolean', title: 'Approve', description: `Run ${name} now with the arguments above`, default: false },
      },
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
    const { message, schema } = approvalForm(name, call.approvalQuestion(name));
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
