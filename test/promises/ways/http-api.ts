/**
 * The HTTP API (toolwright/http) as a way in: `POST {prefix}/{tool}/v1` with the caller's bearer
 * token; the `auth` hook hides the admin tools from every other caller with a 403 verdict (which
 * answers the 404 of an unknown path). It cannot ask a person: a tool that needs approval is refused.
 */
import type { FastifyRequest } from 'fastify';
import { serveHttpApi } from 'toolwright/http';
import { CALLERS, ledger, sees, TOOLS } from '../../fixtures/promises/members';
import type { Harness, Outcome } from '../harness';
import { Observer } from '../observer';

const callerOf = (request: FastifyRequest): string | undefined => {
  const token = request.headers.authorization?.replace(/^Bearer /, '');
  return token !== undefined && (CALLERS as readonly string[]).includes(token) ? token : undefined;
};

export async function httpApiWay(): Promise<Harness> {
  const observer = new Observer().start();
  const api = await serveHttpApi(
    {
      prefix: '/api',
      tools: TOOLS,
      invoker: observer.invoker(),
      ambientContext: (request) => ({ user: callerOf(request) }),
      auth: {
        securityScheme: { type: 'http', scheme: 'bearer' },
        verify: (request, tool) => {
          const caller = callerOf(request);
          if (caller === undefined) return false;
          return sees(tool.tags, caller) ? true : { status: 403, detail: 'not yours' };
        },
      },
    },
    { port: 0 },
  );
  const send = async (path: string, caller: string, body?: unknown): Promise<{ status: number; text: string }> => {
    const response = await fetch(`${api.url}/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${caller}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, text: await response.text() };
  };
  return {
    async call(name, args, { caller }): Promise<Outcome> {
      const { status, text } = await send(`${name}/v1`, caller, args);
      // The path is the only place the tool's name appears: compare answers without it.
      return { ok: status < 300, text: `${status} ${text.split(`/${name}/`).join('/<tool>/')}`, questions: [] };
    },
    async list(_kind, caller) {
      const document = JSON.parse((await send('openapi.json', caller)).text) as { paths: Record<string, unknown> };
      return Object.keys(document.paths).map((path) => path.split('/').at(-2)!);
    },
    runs: async () => ({ ...ledger, users: [...ledger.users] }),
    observed: async () => observer.text(),
    async close() {
      observer.stop();
      await api.close();
    },
  };
}
