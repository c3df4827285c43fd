/**
 * The `auth` hook, and what a caller sees. `auth.verify(request, tool)` decides whether a caller may
 * call a tool version; the same answer decides whether the caller sees it: the OpenAPI document and
 * the docs page list only what the requesting caller may call, and a route it may not call (a 403
 * verdict) answers exactly like an unknown path, as MCP hides a tool a caller lacks the scopes for.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ToolDefinition } from '../../index';
import { DEFAULT_ERROR, describeValue, guardToolResponse } from '../../adapter-kit';
import { httpApiDocument, OpenApiDocument } from './openapi';
import type { HttpApiOptions, HttpAuth } from './options';
import { notFound, pathOf, problem, sendProblem } from './problem';
import type { HttpRoute } from './routes';

function challengeOf(auth: HttpAuth): string | undefined {
  if (auth.challenge !== undefined) return auth.challenge;
  const { type, scheme } = auth.securityScheme;
  if (type !== 'http' || typeof scheme !== 'string') return undefined;
  return scheme.toLowerCase() === 'bearer' ? 'Bearer' : scheme.toLowerCase() === 'basic' ? 'Basic' : undefined;
}

/**
 * Reports a failure of the server's own code (an ambientContext or auth function) once, through
 * `configure({ onException })`, as the adapter kit's guard does. In development the guard re-throws:
 * the caller answers 500 either way.
 */
export function reportServerFault(tool: ToolDefinition, message: string, cause?: unknown): void {
  const fault = new Error(`toolwright/http: ${message}`, cause === undefined ? undefined : { cause });
  try {
    guardToolResponse(
      tool,
      () => {
        throw fault;
      },
      () => undefined,
    );
  } catch {
    // Reported; the request still gets its generic 500.
  }
}

/**
 * An onRequest hook refusing before the body is read: 401 (with the challenge) for a caller without
 * valid credentials; a caller the hook refuses with 403 gets the 404 of an unknown path, so a route
 * it may not call confirms nothing; anything unexpected is a 500 (fail-closed).
 */
export function authHook(auth: HttpAuth, tool: ToolDefinition, prefix: string) {
  const challenge = challengeOf(auth);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    let verdict: unknown;
    try {
      verdict = await auth.verify(request, tool);
    } catch (error) {
      reportServerFault(tool, `auth.verify threw for ${tool.id}: ${(error as Error)?.message ?? String(error)}`, error);
      return sendProblem(reply, problem(500, DEFAULT_ERROR, pathOf(request)));
    }
    if (verdict === true) return undefined;
    const refusal = verdict === false ? { status: 401 } : (verdict as { status?: unknown; detail?: unknown } | null);
    if (refusal?.status === 403) return sendProblem(reply, notFound(request, prefix));
    if (refusal?.status === 401) {
      const detail = typeof refusal.detail === 'string' && refusal.detail !== '' ? refusal.detail : 'This call needs valid credentials.';
      return sendProblem(reply, problem(401, detail, pathOf(request)), challenge ? { 'www-authenticate': challenge } : {});
    }
    reportServerFault(
      tool,
      `auth.verify must return true, false or { status: 401 | 403, detail? }; got ${describeValue(verdict)} for ${tool.id}. Refused.`,
    );
    return sendProblem(reply, problem(500, DEFAULT_ERROR, pathOf(request)));
  };
}

/** At most this many per-caller documents are kept (one per distinct set of callable routes). */
const CACHED_DOCUMENTS = 64;

/**
 * The OpenAPI document each caller sees: every route without `auth`; with it, the routes whose
 * `auth.verify(request, tool)` answers true for the request of the document (a throw or any other
 * answer hides the route). Documents are built once per distinct set of routes and cached.
 */
export class CallerDocuments {
  private readonly cache = new Map<string, OpenApiDocument>();
  readonly full: OpenApiDocument;

  constructor(
    private readonly options: HttpApiOptions,
    private readonly routes: readonly HttpRoute[],
  ) {
    this.full = httpApiDocument(options, routes);
  }

  /** The document of no operations: what a request no hook has judged is sent. */
  get none(): OpenApiDocument {
    return (this.empty ??= httpApiDocument(this.options, []));
  }
  private empty: OpenApiDocument | undefined;

  async of(request: FastifyRequest): Promise<OpenApiDocument> {
    const { auth } = this.options;
    if (!auth) return this.full;
    const callable = await Promise.all(
      this.routes.map(async ({ definition }) => {
        try {
          return (await auth.verify(request, definition)) === true;
        } catch {
          return false;
        }
      }),
    );
    const key = callable.map((yes) => (yes ? '1' : '0')).join('');
    let document = this.cache.get(key);
    if (!document) {
      if (this.cache.size >= CACHED_DOCUMENTS) this.cache.delete(this.cache.keys().next().value!);
      document = key.includes('0')
        ? httpApiDocument(
            this.options,
            this.routes.filter((_, index) => callable[index]),
          )
        : this.full;
      this.cache.set(key, document);
    }
    return document;
  }
}
