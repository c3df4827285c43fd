/**
 * The OpenAPI 3.1 document of an HTTP API, from the same field model as the routes: one operation
 * per tool version (and one more for GET on a readOnly tool), problem responses, security schemes.
 */
import { STATUS_CODES } from 'node:http';
import type { JsonSchema, ToolDefinition } from '../../index';
import { SchemaComponents } from './components';
import { failureStatuses } from './config';
import type { HttpApiOptions } from './options';
import { PROBLEM_CONTENT_TYPE, PROBLEM_SCHEMA } from './problem';
import { httpRoutes, HttpRoute } from './routes';

/** An OpenAPI 3.1 document; operations and schemas are plain JSON. */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description?: string };
  security?: Array<Record<string, string[]>>;
  /** Path → method (`post`, `get`) → operation. */
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes?: Record<string, JsonSchema> };
}

/** The statuses the adapter itself answers for a request it refuses before the tool runs. */
const REQUEST_PROBLEMS: Record<number, string> = {
  400: 'The body is not JSON.',
  408: 'The body did not arrive within the time limit (`requestTimeoutMs`); the connection is closed.',
  413: 'The body is larger than the server accepts.',
  415: 'The body is not `application/json`.',
};

function problemResponse(description: string, headers?: JsonSchema): JsonSchema {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } } },
  };
}

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before calling again.', schema: { type: 'integer', minimum: 1 } } };

function normalizePrefix(prefix: string | undefined): string {
  if (!prefix || prefix === '/') return '';
  return `/${prefix.replace(/^\/+|\/+$/g, '')}`;
}

/** summary: the title, or the description's first sentence; description: the description. */
function describe(definition: ToolDefinition): JsonSchema {
  const description = definition.description;
  const summary = definition.title ?? description?.split(/(?<=\.)\s|\n/)[0];
  return { ...(summary ? { summary } : {}), ...(description ? { description } : {}) };
}

function responses(route: HttpRoute, output: JsonSchema | undefined, options: HttpApiOptions): JsonSchema {
  const out: JsonSchema = {};
  if (output) out['200'] = { description: 'The exposed values.', content: { 'application/json': { schema: output } } };
  else out['204'] = { description: 'Done; the tool exposes nothing.' };
  if (options.auth) {
    out['401'] = problemResponse('No valid credentials.');
  }
  const failures = failureStatuses(route.failureStatus);
  out['422'] = problemResponse(
    failures.includes(422)
      ? 'The input breaks the contract (`errors` names each field), or the tool refused the call.'
      : 'The input breaks the contract: `errors` names each field.',
  );
  for (const status of failures) {
    if (status !== 422) out[String(status)] = problemResponse(`The tool refused the call (${STATUS_CODES[status] ?? status}).`);
  }
  out['429'] = problemResponse('Too many calls: a rate limit (`rateLimit` middleware) refused this one.', RETRY_AFTER);
  out['500'] = problemResponse('The tool failed; the detail is generic and nothing internal is shown.');
  out['503'] = problemResponse('The tool is busy: its concurrency limit (`concurrencyLimit` middleware) refused this call.', RETRY_AFTER);
  return out;
}

function queryParameters(input: JsonSchema): JsonSchema[] {
  const properties = (input.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((input.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return {
      name,
      in: 'query',
      required: required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
      ...(rest.type === 'array' ? { style: 'form', explode: true } : {}),
    };
  });
}

/**
 * The OpenAPI 3.1 document of the HTTP API these options serve: the same one
 * `{prefix}/openapi.json` answers.
 */
export function httpApiDocument(options: HttpApiOptions = {}, routes: readonly HttpRoute[] = httpRoutes(options)): OpenApiDocument {
  const prefix = normalizePrefix(options.prefix);
  const components = new SchemaComponents();
  for (const route of routes) components.addTool(route.definition);
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const { definition } = route;
    const input = components.link(definition.inputSchema(), definition.inputContract.target, 'input');
    const rawOutput = definition.outputSchema();
    const output =
      rawOutput && definition.outputContract ? components.link(rawOutput, definition.outputContract.target, 'output') : undefined;
    const operationId = `${route.segment}_v${definition.version}`;
    const common = {
      tags: [...route.tags],
      ...describe(definition),
      ...(route.deprecated ? { deprecated: true } : {}),
    };
    const required = ((definition.inputSchema().required ?? []) as unknown[]).length > 0;
    const item: Record<string, JsonSchema> = {
      post: {
        operationId,
        ...common,
        requestBody: { required, content: { 'application/json': { schema: input } } },
        responses: { ...responses(route, output, options), ...mapValues(REQUEST_PROBLEMS, problemResponse) },
      },
    };
    if (route.get) {
      item.get = {
        operationId: `${operationId}_get`,
        ...common,
        parameters: queryParameters(definition.inputSchema()),
        responses: responses(route, output, options),
      };
    }
    paths[`${prefix}${route.path}`] = item;
  }
  const info = options.info ?? {};
  const schemeName = options.auth?.schemeName ?? 'auth';
  return {
    openapi: '3.1.0',
    info: {
      title: info.title ?? 'Toolwright HTTP API',
      version: info.version ?? '1.0.0',
      ...(info.description ? { description: info.description } : {}),
    },
    ...(options.auth ? { security: [{ [schemeName]: [] }] } : {}),
    paths,
    components: {
      schemas: { Problem: PROBLEM_SCHEMA as unknown as JsonSchema, ...components.schemas() },
      ...(options.auth ? { securitySchemes: { [schemeName]: { ...options.auth.securityScheme } } } : {}),
    },
  };
}

function mapValues<T, U>(record: Record<string | number, T>, map: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}
