/**
 * RFC 9457 problem details: every error this adapter answers is `application/problem+json` with
 * `type`, `title`, `status` and `detail`; invalid input adds `errors`, one entry per field.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FieldError, Result, ToolBusyError, ToolRateLimitError } from '../../index';

/** The media type of every error answer: an RFC 9457 problem document. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** One field's problem in a 422 answer: the field's path, the rule it broke and its parameters, the message. */
export interface ProblemFieldError {
  readonly field: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message: string;
}

/** An error answer of the HTTP API, an RFC 9457 problem document (`application/problem+json`). */
export interface Problem {
  /** `about:blank`: the status says it all (RFC 9457 §4.2.1). */
  readonly type: string;
  /** The status's reason phrase (`Unprocessable Content`). */
  readonly title: string;
  readonly status: number;
  /** What went wrong, for a person: the tool's user-facing message, or what to fix in the request. */
  readonly detail: string;
  /** The request path. */
  readonly instance?: string;
  /** Invalid input only: each field's problem. */
  readonly errors?: readonly ProblemFieldError[];
}

/** The request's path, without its query string: a problem's `instance`. */
export function pathOf(request: FastifyRequest): string {
  const query = request.url.indexOf('?');
  return query < 0 ? request.url : request.url.slice(0, query);
}

/** The 404 of a path the API does not serve, or serves but not to this caller: the same answer for both. */
export function notFound(request: FastifyRequest, prefix: string): Problem {
  return problem(
    404,
    `No such endpoint: ${request.method} ${pathOf(request)}. The API is described at ${prefix}/openapi.json.`,
    pathOf(request),
  );
}

/** How long a busy tool asks callers to wait (`Retry-After`, seconds): `concurrencyLimit` frees slots as calls end. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * A refusal by the call pipeline's own limits, which is no business failure of the tool: 429 with
 * `Retry-After` for `rateLimit` (a `ToolRateLimitError`, its wait rounded up to seconds), 503 with
 * `Retry-After` for `concurrencyLimit` (a `ToolBusyError`). Undefined for anything else.
 */
export function limitRefusal(result: Result): { status: 429 | 503; retryAfter: number } | undefined {
  if (result.ok || result.outcome !== 'failure') return undefined;
  if (result.exception instanceof ToolRateLimitError) {
    return { status: 429, retryAfter: Math.max(1, Math.ceil(result.exception.retryAfterMs / 1000)) };
  }
  if (result.exception instanceof ToolBusyError) return { status: 503, retryAfter: BUSY_RETRY_AFTER_SECONDS };
  return undefined;
}

/** RFC 9110's reason phrases where Node's still carry the older ones. */
const TITLES: Record<number, string> = { 413: 'Content Too Large', 422: 'Unprocessable Content' };

export function problem(status: number, detail: string, instance?: string, errors?: readonly FieldError[]): Problem {
  return {
    type: 'about:blank',
    title: TITLES[status] ?? STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    ...(instance !== undefined ? { instance } : {}),
    ...(errors !== undefined ? { errors: errors.map(fieldError) } : {}),
  };
}

function fieldError({ field, keyword, params, message }: FieldError): ProblemFieldError {
  return { field, keyword, params, message };
}

/** Sends a problem: its status, `application/problem+json`, and any extra headers (Allow, WWW-Authenticate). */
export function sendProblem(reply: FastifyReply, body: Problem, headers: Record<string, string> = {}): FastifyReply {
  return reply.code(body.status).headers(headers).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
}

/** The problem document's JSON Schema, for OpenAPI's `components/schemas/Problem`. */
export const PROBLEM_SCHEMA = {
  type: 'object',
  description: 'An RFC 9457 problem details document.',
  properties: {
    type: { type: 'string', description: 'A URI identifying the problem type; `about:blank` when the status says it all.' },
    title: { type: 'string', description: "The status's reason phrase." },
    status: { type: 'integer', description: 'The HTTP status.' },
    detail: { type: 'string', description: 'What went wrong, for a person.' },
    instance: { type: 'string', description: 'The request path.' },
    errors: {
      type: 'array',
      description: 'Invalid input only: one entry per field that broke the contract.',
      items: {
        type: 'object',
        properties: {
          field: { type: 'string', description: 'The path of the field (`amount`, `address.city`, `tags[2]`), or `base`.' },
          keyword: {
            type: 'string',
            description:
              "The rule the value broke, in JSON Schema's words (`required`, `type`, `minimum`, `format`, `enum`, …), or `unknown` (an undeclared key), `depth`, `unpairedSurrogate`, `truncated`.",
          },
          params: {
            type: 'object',
            description:
              "The rule's parameters: `{ limit }`, `{ allowed }`, `{ format }`, `{ pattern }`, `{ type }`, `{ count }`; `{}` when none.",
          },
          message: { type: 'string', description: 'The problem, for a person.' },
        },
        required: ['field', 'keyword', 'params', 'message'],
      },
    },
  },
  required: ['type', 'title', 'status', 'detail'],
} as const;
