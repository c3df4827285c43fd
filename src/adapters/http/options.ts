import type { FastifyRequest } from 'fastify';
import type { DependencyContainer } from 'tsyringe';
import type { AmbientSource, InvokerOptions, ToolDefinition, ToolLike, ToolResolver } from '../../index';

/**
 * How `auth.verify` answers: `true` lets the call through; `false` refuses with 401; `{ status: 401,
 * detail }` refuses with 401 and that detail (who are you?); `{ status: 403 }` (not allowed) hides
 * the tool from the caller: the call answers the 404 of an unknown path. Anything else is a bug in
 * the hook, answered 500 (fail-closed).
 */
export type HttpAuthVerdict = boolean | { readonly status: 401 | 403; readonly detail?: string };

/** The `auth` option of the HTTP API: who may call (and see) each tool, decided before the body is read, and the OpenAPI security scheme. */
export interface HttpAuth {
  /**
   * Runs before every tool call, before the body is read, and for each tool when a caller asks for
   * the OpenAPI document or the docs page (only the tools it answers `true` for are listed). Read
   * the credentials from the request (and attach who the caller is to it, for `ambientContext`);
   * never trust the body for this. A 403 verdict hides the tool: it answers like an unknown path.
   */
  verify(request: FastifyRequest, tool: ToolDefinition): HttpAuthVerdict | Promise<HttpAuthVerdict>;
  /**
   * How OpenAPI describes the credentials (an OpenAPI Security Scheme Object), e.g.
   * `{ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }`. Every operation requires it.
   */
  securityScheme: { readonly type: 'http' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'mutualTLS'; readonly [key: string]: unknown };
  /** Its name under `components/securitySchemes` (default `auth`). */
  schemeName?: string;
  /** The `WWW-Authenticate` header of a 401 (default `Bearer` for an http bearer scheme, `Basic` for basic). */
  challenge?: string;
}

/** OpenAPI's `info`: what the docs page shows at the top. */
export interface HttpApiInfo {
  /** Default `Toolwright HTTP API`. */
  title?: string;
  /** The API's own version (default `1.0.0`); each tool version has its own path. */
  version?: string;
  description?: string;
}

/**
 * The options of `toolwrightHttp`, `serveHttpApi`, `httpApiApp` and `httpApiDocument`: the tools, the
 * prefix, trusted ambient values, the container, auth, the invoker, limits, the OpenAPI info and the docs page.
 */
export interface HttpApiOptions {
  /** The tools to serve, every version separately (default: every `http` member, all versions). */
  tools?: ReadonlyArray<ToolLike>;
  /** Where the routes live (`/api` → `POST /api/check_credit/v1`). Fastify's own `register` option. */
  prefix?: string;
  /**
   * The trusted ambient values of a call, from its request (for example the authenticated user).
   * Never from the body or the query string.
   */
  ambientContext?: (request: FastifyRequest, tool: ToolDefinition) => AmbientSource | undefined | Promise<AmbientSource | undefined>;
  /** The container tools resolve from (default: tsyringe's root container). */
  container?: DependencyContainer;
  /**
   * How the instance a tool runs on is made (default: tsyringe, from `container`). It gets the
   * Fastify request as `call.request`.
   */
  resolver?: ToolResolver;
  /**
   * Refuses a call with 401 (or, for a 403 verdict, the 404 of an unknown path) before the tool
   * runs; documented as a security scheme in OpenAPI. It also decides what each caller sees: the
   * OpenAPI document and the docs page list only the tool versions `verify` lets the caller call.
   */
  auth?: HttpAuth;
  /** Invoker options: `rejectUndeclaredInputs`, `userFacingInputErrors`, `onException`. */
  invoker?: Omit<InvokerOptions, 'container'>;
  /**
   * Give each call an AbortSignal that aborts when the client disconnects before the answer
   * (default false: an AbortController per request costs about a tenth of a small call's CPU time).
   */
  abortOnDisconnect?: boolean;
  /** Largest request body accepted, in bytes (default 1 MiB); larger answers 413. */
  bodyLimit?: number;
  /**
   * Time for the request headers, and then for the body, to arrive (default 30 s, as `serveHttp`'s);
   * a late body answers 408 and its connection is closed. The plugin bounds the body in any Fastify
   * app; `serveHttpApi` and `httpApiApp` also bound the headers and the whole request (twice this).
   */
  requestTimeoutMs?: number;
  /** OpenAPI `info`. */
  info?: HttpApiInfo;
  /** Serve the interactive docs page at `{prefix}/docs` (default true; needs `@fastify/swagger-ui`). */
  docs?: boolean;
  /**
   * The status a business failure answers from the error behind it, before the tool's
   * `failureStatus` setting (undefined, or anything but an HTTP error status, leaves it to the
   * setting): toolwright/nest answers an HttpException's own status.
   * @internal
   */
  errorStatus?: (error: unknown) => number | undefined;
}
