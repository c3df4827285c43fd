import type { McpRequestContext, McpServerOptions } from 'toolwright/mcp';

/** The officer a call is made on behalf of: from the request, never from the model. */
export function officerFor(request: McpRequestContext): string {
  const header = request.headers?.['x-officer-id'];
  if (typeof header === 'string' && header.trim() !== '') return header.trim();
  if (request.authInfo?.clientId) return request.authInfo.clientId;
  return process.env.LOAN_DESK_OFFICER ?? 'officer-on-duty';
}

/** The loan desk as an MCP server: every `mcp` tool, with the officer id as ambient context. */
export const loanDeskServer: McpServerOptions = {
  name: 'loan-desk',
  version: '1.0.0',
  instructions: 'Tools of a small lending desk. Check an applicant’s credit before approving a loan.',
  ambientContext: (request) => ({ officerId: officerFor(request) }),
};
