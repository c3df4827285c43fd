/**
 * The docs page at `{prefix}/docs`: Swagger UI (`@fastify/swagger-ui`, which serves its assets
 * from the package: no CDN) over the same OpenAPI document as `{prefix}/openapi.json`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CallerDocuments } from './auth';
import type { OpenApiDocument } from './openapi';
import { SetupError } from '../../index';

function load<T>(name: string): T {
  try {
    return require(name) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    throw new SetupError(
      `toolwright/http: the docs page needs ${name}. Install it (npm install @fastify/swagger @fastify/swagger-ui), ` +
        'or pass docs: false to serve the API without it.',
      undefined,
      { cause: error },
    );
  }
}

/**
 * The page's document (`/docs/json`, `/docs/yaml`) is the requesting caller's, as `openapi.json`
 * is: worked out in a hook (verify may be async), handed to swagger-ui's synchronous transform.
 */
export async function registerDocs(fastify: FastifyInstance, documents: CallerDocuments): Promise<void> {
  const swagger = load<typeof import('@fastify/swagger')>('@fastify/swagger');
  const swaggerUi = load<typeof import('@fastify/swagger-ui')>('@fastify/swagger-ui');
  // An encapsulated child: the `swagger` decorator stays out of the application's own context.
  const perRequest = new WeakMap<FastifyRequest, OpenApiDocument>();
  await fastify.register(async (docs) => {
    await docs.register(swagger.default, { mode: 'static', specification: { document: documents.full as never } });
    await docs.register(swaggerUi.default, {
      routePrefix: '/docs',
      uiHooks: {
        preHandler: async (request) => {
          // Only the document routes need it; any other request the transform sees gets no operations.
          if (/\/(json|yaml)$/.test(request.routeOptions.url ?? '')) perRequest.set(request, await documents.of(request));
        },
      },
      // Fail-closed: a request the hook did not see gets no operations.
      transformSpecification: (_full, request) => perRequest.get(request) ?? documents.none,
      transformSpecificationClone: false,
      // The page's asset URLs are absolute: they need the prefix the API is mounted under.
      indexPrefix: fastify.prefix,
      uiConfig: { deepLinking: true, tryItOutEnabled: true, displayOperationId: true },
    });
  });
}
