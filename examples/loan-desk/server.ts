import type { McpRequestContext, McpServerOptions } from 'toolwright/mcp';
import { SCOPES } from './scopes';

/**
 * The officer a call is made on behalf of: the verified token's subject (`npm start -- --auth`),
 * else the fixed development identity (`LOAN_DESK_OFFICER`, default `officer-on-duty`) for stdio
 * and the unauthenticated loopback server. Never a header, never the model.
 */
export function officerFor(request: McpRequestContext): string {
  const subject = request.authInfo?.extra?.sub;
  if (typeof subject === 'string' && subject !== '') return subject;
  if (request.authInfo) return request.authInfo.clientId;
  return process.env.LOAN_DESK_OFFICER?.trim() || 'officer-on-duty';
}

/** The loan desk as an MCP server: every `mcp` tool, with the officer id as ambient context. */
export const loanDeskServer: McpServerOptions = {
  name: 'loan-desk',
  version: '1.0.0',
  instructions: 'Tools of a small lending desk. Check an applicant’s credit before approving a loan.',
  ambientContext: (request) => ({ officerId: officerFor(request) }),
  // The development identity (no token: stdio, or plain `npm start` on loopback) may read and write.
  unauthenticatedScopes: SCOPES,
};
