import type { FastifyRequest } from 'fastify';
import type { McpHttpAuth } from 'toolwright/mcp';
import { HttpApiOptions, HttpAuth } from 'toolwright/http';
import { LOANS_READ, LOANS_WRITE } from './scopes';

/** Who the verified token says the caller is, kept on the request for ambientContext. */
const callers = new WeakMap<FastifyRequest, string>();

/**
 * `--auth` for the HTTP API: the same development tokens as MCP (verified by the same function),
 * readOnly tools need `loans:read`, the others `loans:write`.
 */
export function loanDeskHttpAuth(mcpAuth: McpHttpAuth): HttpAuth {
  return {
    securityScheme: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    async verify(request, tool) {
      const match = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '');
      if (!match) return { status: 401, detail: 'Send a Bearer token (npm run -s loan-desk:token).' };
      let info;
      try {
        info = await mcpAuth.verifyAccessToken(match[1], request.raw);
      } catch (error) {
        return { status: 401, detail: `The token was refused: ${(error as Error).message}` };
      }
      if (!info) return { status: 401, detail: 'The token was refused.' };
      const needed = tool.hints.includes('readOnly') ? LOANS_READ : LOANS_WRITE;
      if (!info.scopes.includes(needed)) return { status: 403, detail: `This call needs the scope ${needed}.` };
      callers.set(request, typeof info.extra?.sub === 'string' ? info.extra.sub : info.clientId);
      return true;
    },
  };
}

/** The loan desk as an HTTP API at /api: the same tools, the officer from the token or the development identity. */
export function loanDeskHttpApi(auth?: HttpAuth): HttpApiOptions {
  return {
    prefix: '/api',
    info: { title: 'Loan desk', version: '1.0.0', description: 'Tools of a small lending desk, one endpoint per tool version.' },
    ambientContext: (request) => ({
      officerId: callers.get(request) ?? (process.env.LOAN_DESK_OFFICER?.trim() || 'officer-on-duty'),
    }),
    auth,
  };
}
