/**
 * Approvals, declared once on the tool (`@Tool({ approval })`) and asked for by each transport in
 * its own way through one seam: the call's `approve(call)` callback.
 */
import { ToolApprovalError } from '../errors/errors';
import type { ToolDefinition } from '../registry/tool-definition';
import { describeValue } from '../util/describe-value';
import type { ToolCall } from './pipeline';
import { IN_PROCESS, TransportName } from './transport';

/** An approver's answer: true/false, or a decision with a reason the caller (and model) reads. */
export type ApprovalDecision = boolean | { readonly approved: boolean; readonly reason?: string };

/** Asks a person whether this call may run. Called only for calls that need approval. */
export type Approver = (call: ToolCall) => ApprovalDecision | Promise<ApprovalDecision>;

/** The approval rule of a tool: its own declaration, else `'required'` for destructive tools when that setting is on. */
export function approvalRule(tool: ToolDefinition, destructiveNeedsApproval: boolean): ToolDefinition['approval'] {
  const declared = tool.approval;
  if (declared !== undefined) return declared;
  return destructiveNeedsApproval && tool.hints.includes('destructive') ? 'required' : undefined;
}

/** Does this validated input need approval under `rule`? A throwing rule function throws here (the invoker reports it). */
export function needsApproval(rule: ToolDefinition['approval'], input: unknown): boolean {
  if (rule === undefined) return false;
  if (rule === 'required') return true;
  return rule(input) === true;
}

/** Reads an approver's answer: `{ approved, reason }`; anything but true / `{ approved: true }` is a denial. */
export function readDecision(decision: unknown): { approved: boolean; reason?: string } {
  if (decision === true) return { approved: true };
  if (typeof decision === 'object' && decision !== null) {
    const { approved, reason } = decision as { approved?: unknown; reason?: unknown };
    return { approved: approved === true, ...(typeof reason === 'string' && reason.trim() !== '' ? { reason } : {}) };
  }
  if (decision !== false) {
    throw new TypeError(`An approver answered ${describeValue(decision)}; answer true, false or { approved, reason? }.`);
  }
  return { approved: false };
}

export function deniedError(tool: ToolDefinition, reason: string | undefined): ToolApprovalError {
  return new ToolApprovalError(`The call to ${tool.toolName()} was not approved${reason ? `: ${reason}` : ''}. It did not run.`, 'denied');
}

export function changedError(tool: ToolDefinition): ToolApprovalError {
  return new ToolApprovalError(
    `The arguments of the call to ${tool.toolName()} changed after its approval was asked, so it did not run. Ask for approval again.`,
    'changed',
  );
}

/**
 * Why a call that needs approval could not ask, in words for whoever made it: the developer
 * calling invoke() is told the option to pass; an MCP client, that it cannot be asked; any other
 * caller (an HTTP client, a model) only that nobody could be asked, since nothing it sends changes that.
 */
const NO_WAY_TO_ASK: Readonly<Partial<Record<TransportName, string>>> = {
  [IN_PROCESS]: 'this call has no approver (pass invoke(…, { approve: (call) => … }))',
  mcp: 'this client cannot be asked (it does not support elicitation)',
};

export function unavailableError(tool: ToolDefinition, transport: TransportName): ToolApprovalError {
  const why = Object.prototype.hasOwnProperty.call(NO_WAY_TO_ASK, transport) ? NO_WAY_TO_ASK[transport] : 'nobody could be asked in this call';
  return new ToolApprovalError(`${tool.toolName()} needs a person's approval, and ${why}, so it did not run.`, 'unavailable');
}

/** Waits for an approver, or for the caller to cancel, whichever comes first. */
export function awaitDecision(decision: ApprovalDecision | Promise<ApprovalDecision>, signal: AbortSignal): Promise<unknown> {
  if (!(decision instanceof Promise)) return Promise.resolve(decision);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    decision.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
