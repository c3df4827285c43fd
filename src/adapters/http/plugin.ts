/**
 * The Fastify plugin: every tool version at `POST {prefix}/{tool_name}/v{n}` (and GET for readOnly
 * tools), RFC 9457 problems for every error, `{prefix}/openapi.json` and the docs page.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { AmbientSource, Invoker, Result } from '../../index';
import { checkCallOptions, DEFAULT_ERROR, describeValue, guardToolResponse, MAPPING_FAILURE } from '../../adapter-kit';
import { setOwn } from '../../adapter-kit/internal';
import { authHook, CallerDocuments, reportServerFault } from './auth';
import { failureStatusOf, HTTP_ADAPTER, HttpConfig } from './config';
import { registerDocs } from './docs';
import type { HttpApiOptions } from './options';
import { limitRefusal, notFound, pathOf, problem, sendProblem } from './problem';
import { serializeSuccess, successSchemaOf } from './response-schema';
import { httpRoutes, HttpRoute } from './routes';
import { bodyDeadline, checkRequestTimeout } from './timeouts';
import { DeclarationError } from '../../index';

const DEFAULT_BODY_LIMIT = 1024 * 1024;
const OTHER_METHODS = ['PUT', 'DELETE', 'PATCH'] as const;
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const NO_AMBIENT: AmbientSource = Object.freeze({});

/** The query string as the tool's input: a single value for a list field becomes a list of one. */
function queryInput(query: unknown, listFields: ReadonlySet<string>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    setOwn(input, key, listFields.has(key) && !Array.isArray(value) ? [value] : value);
  }
  return input;
}

function checkBodyLimit(value: unknown): number {
  if (value === undefined) return DEFAULT_BODY_LIMIT;
  if (!Number.isSafeInteger(value) || (value as number) < 1) {
    throw new DeclarationError(
      `toolwright/http: bodyLimit must be a positive number of bytes (e.g. 1048576); got ${describeValue(value)}.`,
    );
  }
  return value as number;
}

/** What the request's error means for the caller: the request's own problems name the fix; the rest is generic. */
function errorHandler(bodyLimit: number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const instance = pathOf(request);
    const status = error.statusCode ?? 500;
    if (status === 408) {
      // The body stream was cut at its deadline (timeouts.ts); the connection closes once answered.
      return sendProblem(reply, problem(408, error.message, instance), { connection: 'close' });
    }
    if (status === 413) return sendProblem(reply, problem(413, `The request body is larger than ${bodyLimit} bytes.`, instance));
    if (status === 415) {
      const type = request.headers['content-type'];
      return sendProblem(
        reply,
        problem(415, `Unsupported media type${type ? ` '${type}'` : ''}: send the input as application/json.`, instance),
      );
    }
    if (status === 400 && error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      return sendProblem(reply, problem(400, "The request body is not valid JSON: send the tool's input as a JSON object.", instance));
    }
    if (status >= 400 && status < 500 && error.code?.startsWith('FST_'))
      return sendProblem(reply, problem(status, error.message, instance));
    request.log.error({ err: error }, 'toolwright/http: request failed');
    return sendProblem(reply, problem(500, DEFAULT_ERROR, instance));
  };
}

/** A route as the handler answers it: `compiled` when Fastify serializes its successes from its response schema. */
interface CompiledRoute extends HttpRoute {
  readonly compiled: boolean;
  readonly errorStatus: HttpApiOptions['errorStatus'];
}

/** The status of a business failure: the error's own (`errorStatus`, an HTTP error status only), else the tool's setting. */
function failureStatus(route: CompiledRoute, error: unknown): number {
  const own = route.errorStatus?.(error);
  return Number.isInteger(own) && own! >= 400 && own! <= 599 ? own! : failureStatusOf(route.failureStatus, error);
}

/** The serialized body of a successful Result: a JSON string, `null` for no value (204), undefined when it cannot be serialized. */
function successBody(route: CompiledRoute, result: Result, reply: FastifyReply): string | null | undefined {
  return guardToolResponse(
    route.definition,
    () => {
      const rendered = HttpConfig.serializeExposed(result);
      return rendered === undefined ? null : serializeSuccess(reply, route.compiled, rendered);
    },
    () => undefined,
  );
}

/** Maps a Result to the response: 200 (or 204), 422 with field errors, the tool's failure status, 500. */
function respond(route: CompiledRoute, result: Result, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (result.ok) {
    reply.code(200);
    const body = successBody(route, result, reply);
    if (body === undefined) return sendProblem(reply, problem(500, MAPPING_FAILURE, pathOf(request)));
    if (body === null) return reply.code(204).send();
    return reply.header('content-type', JSON_CONTENT_TYPE).send(body);
  }
  const instance = pathOf(request);
  if (result.outcome === 'exception') return sendProblem(reply, problem(500, result.message, instance));
  if (Invoker.inputInvalid(result)) return sendProblem(reply, problem(422, result.message, instance, result.fieldErrors));
  const limited = limitRefusal(result);
  if (limited) return sendProblem(reply, problem(limited.status, result.message, instance), { 'retry-after': String(limited.retryAfter) });
  return sendProblem(reply, problem(failureStatus(route, result.exception), result.message, instance));
}

/**
 * The Fastify plugin: `app.register(toolwrightHttp, { prefix: '/api' })`. Routes carry no body
 * schema: the invoker validates the input once, from the same field model OpenAPI shows.
 */
export async function toolwrightHttp(fastify: FastifyInstance, options: HttpApiOptions = {}): Promise<void> {
  const routes = httpRoutes(options);
  const bodyLimit = checkBodyLimit(options.bodyLimit);
  const requestTimeoutMs = checkRequestTimeout(options.requestTimeoutMs);
  if (options.ambientContext !== undefined && typeof options.ambientContext !== 'function') {
    throw new DeclarationError(
      `toolwright/http: ambientContext must be a function (request, tool) => values; got ${describeValue(options.ambientContext)}.`,
    );
  }
  if (options.auth !== undefined && (typeof options.auth?.verify !== 'function' || typeof options.auth.securityScheme !== 'object')) {
    throw new DeclarationError(
      "toolwright/http: auth needs verify(request, tool) and securityScheme (e.g. { type: 'http', scheme: 'bearer' }).",
    );
  }
  const documents = new CallerDocuments({ ...options, prefix: fastify.prefix }, routes);
  checkCallOptions('toolwright/http', { resolver: options.resolver });
  const invoker = new Invoker(options.resolver ? { ...options.invoker, resolver: options.resolver } : options.invoker);
  const { ambientContext, container, auth, abortOnDisconnect = false } = options;
  // A resolver is handed the Fastify request; without one the calls share a plain options object.
  const withRequest = options.resolver !== undefined;
  const transport = HTTP_ADAPTER;

  // JSON only; an empty body is no input at all.
  fastify.removeAllContentTypeParsers();
  const json = fastify.getDefaultJsonParser('error', 'error');
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    json(request, body as string, done);
  });
  fastify.setErrorHandler(errorHandler(bodyLimit));
  fastify.setNotFoundHandler((request, reply) => sendProblem(reply, notFound(request, fastify.prefix)));

  // In auth mode each caller is sent the document of what it may call.
  fastify.get('/openapi.json', async (request, reply) => reply.type('application/json; charset=utf-8').send(await documents.of(request)));
  const preParsing = bodyDeadline(requestTimeoutMs);

  for (const served of routes) {
    const { definition } = served;
    const successSchema = successSchemaOf(definition);
    const route: CompiledRoute = { ...served, compiled: successSchema !== undefined, errorStatus: options.errorStatus };
    const listFields = new Set(
      definition.inputContract.inputFields.filter((field) => field.type.kind === 'array').map((field) => field.name),
    );
    // Built once per route: the call options of a request without ambient values or a signal.
    const plainCall = { ambientContext: NO_AMBIENT, container, transport };
    const ambientOf = async (request: FastifyRequest): Promise<AmbientSource | undefined> => {
      try {
        return (await ambientContext!(request, definition)) ?? NO_AMBIENT;
      } catch (error) {
        reportServerFault(
          definition,
          `the ambientContext function threw for ${definition.id}: ${(error as Error)?.message ?? String(error)}`,
          error,
        );
        return undefined;
      }
    };
    const handler: RouteHandlerMethod = async (request, reply) => {
      const input = request.method === 'POST' ? request.body : queryInput(request.query, listFields);
      if (!ambientContext && !abortOnDisconnect) {
        const call = withRequest ? { ...plainCall, request } : plainCall;
        return respond(route, await invoker.invoke(definition, input, call), request, reply);
      }
      let ambient: AmbientSource = NO_AMBIENT;
      if (ambientContext) {
        const values = await ambientOf(request);
        if (values === undefined) return sendProblem(reply, problem(500, definition.messages.error ?? DEFAULT_ERROR, pathOf(request)));
        ambient = values;
      }
      if (!abortOnDisconnect)
        return respond(
          route,
          await invoker.invoke(definition, input, { ambientContext: ambient, container, request, transport }),
          request,
          reply,
        );
      const controller = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) controller.abort(new Error('The client closed the connection.'));
      };
      reply.raw.once('close', onClose);
      const result = await invoker.invoke(definition, input, {
        ambientContext: ambient,
        container,
        request,
        transport,
        signal: controller.signal,
      });
      reply.raw.off('close', onClose);
      return respond(route, result, request, reply);
    };
    // A route the caller may not call answers like an unknown one, whatever the method.
    const onRequest = auth ? authHook(auth, definition, fastify.prefix) : undefined;
    const allow = route.get ? 'GET, HEAD, POST' : 'POST';
    fastify.route({
      method: route.get ? ['GET', 'POST'] : 'POST',
      url: route.path,
      bodyLimit,
      handler,
      preParsing,
      ...(successSchema ? { schema: { response: { 200: successSchema } } } : {}),
      ...(onRequest ? { onRequest } : {}),
    });
    fastify.route({
      method: route.get ? [...OTHER_METHODS] : ['GET', 'HEAD', ...OTHER_METHODS],
      url: route.path,
      preParsing,
      ...(onRequest ? { onRequest } : {}),
      handler: (request, reply) =>
        sendProblem(reply, problem(405, `${request.method} is not allowed here; use ${allow.replace(', HEAD', '')}.`, pathOf(request)), {
          allow,
        }),
    });
  }

  if (options.docs !== false) await registerDocs(fastify, documents);
}
