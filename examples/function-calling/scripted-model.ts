/**
 * A stand-in for a language model: a tiny Chat Completions server on 127.0.0.1 that the real
 * `openai` client talks to. It plays a loan officer's assistant by reading the conversation it is
 * sent (the tool results included) and deciding the next step; no network, no API key.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

interface WireMessage {
  role: string;
  content?: string | null;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}

interface Observation {
  name: string;
  args: Record<string, unknown>;
  /** The parsed JSON of a success; undefined when the tool answered with an error text. */
  data?: any;
  text: string;
}

type Call = [name: string, args: Record<string, unknown>];

const MINIMUM_SCORE_TO_TRY = 500;

/** What the tools answered so far, in order. */
function observations(messages: WireMessage[]): Observation[] {
  const calls = new Map<string, { name: string; args: Record<string, unknown> }>();
  for (const message of messages) {
    for (const call of message.tool_calls ?? [])
      calls.set(call.id, { name: call.function.name, args: JSON.parse(call.function.arguments) });
  }
  return messages
    .filter((message) => message.role === 'tool')
    .map((message) => {
      const call = calls.get(message.tool_call_id!)!;
      const text = message.content ?? '';
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch {
        data = undefined; // an error the tool reported, as text
      }
      return { ...call, data, text };
    });
}

/** The next step: more tool calls, or the final answer. */
function decide(messages: WireMessage[]): Call[] | string {
  const seen = observations(messages);
  const last = (name: string) => [...seen].reverse().find((o) => o.name === name);

  const listed = last('list_loans');
  if (!listed) return [['list_loans', { status: 'pending' }]]; // a first, wrong guess at the parameter name
  if (listed.data === undefined) return [['list_loans', { state: 'pending' }]]; // corrected from the error it read

  const loans: Array<{ loanId: string; applicant: string; amount: number }> = listed.data.loans;
  const scores = new Map(
    seen.filter((o) => o.name === 'check_credit' && o.data).map((o) => [o.args.applicant as string, o.data.score as number]),
  );
  if (scores.size === 0) return loans.map((loan) => ['check_credit', { applicant: loan.applicant }]);

  const decided = seen.filter((o) => o.name === 'approve_loan' || o.name === 'cancel_loan');
  if (decided.length === 0) {
    const calls: Call[] = loans.map((loan) =>
      scores.get(loan.applicant)! >= MINIMUM_SCORE_TO_TRY
        ? ['approve_loan', { loanId: loan.loanId, amount: loan.amount, tier: 'express' }]
        : ['cancel_loan', { loanId: loan.loanId, reason: `credit score ${scores.get(loan.applicant)} is too low` }],
    );
    calls.push(['notify_applicants', { message: 'Your application was reviewed.' }]); // a tool that does not exist
    return calls;
  }

  // Follow up: confirm the approvals, and cancel the applications the desk refused to approve.
  const approved = decided.filter((o) => o.name === 'approve_loan' && o.data);
  const refused = decided.filter((o) => o.name === 'approve_loan' && !o.data);
  if (!seen.some((o) => o.name === 'loan_status')) {
    return [
      ...approved.map((o): Call => ['loan_status', { loanId: o.args.loanId }]),
      ...refused.map((o): Call => ['cancel_loan', { loanId: o.args.loanId, reason: o.text }]),
    ];
  }

  const applicant = (loanId: unknown) => loans.find((loan) => loan.loanId === loanId)?.applicant;
  const statuses = seen.filter((o) => o.name === 'loan_status' && o.data).map((o) => `${o.data.applicant} (by ${o.data.approvedBy})`);
  const cancelled = seen.filter((o) => o.name === 'cancel_loan' && o.data).map((o) => `${applicant(o.args.loanId)} (${o.args.reason})`);
  return (
    `Approved: ${statuses.join(', ') || 'none'}. Cancelled: ${cancelled.join(', ') || 'none'}. ` +
    'I could not notify the applicants: there is no tool for that.'
  );
}

export interface ScriptedModel {
  readonly baseURL: string;
  close(): Promise<void>;
}

/** Starts the scripted model on a free port of 127.0.0.1. */
export async function startScriptedModel(): Promise<ScriptedModel> {
  let nextId = 1;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: WireMessage[] };
      const next = decide(body.messages);
      const message =
        typeof next === 'string'
          ? { role: 'assistant', content: next }
          : {
              role: 'assistant',
              content: null,
              tool_calls: next.map(([name, args]) => ({
                id: `call_${nextId++}`,
                type: 'function',
                function: { name, arguments: JSON.stringify(args) },
              })),
            };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${nextId}`,
          object: 'chat.completion',
          created: 0,
          model: 'scripted-loan-assistant',
          choices: [{ index: 0, message, finish_reason: typeof next === 'string' ? 'stop' : 'tool_calls', logprobs: null }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections(); // the client keeps its connection alive
        server.close(() => resolve());
      }),
  };
}
