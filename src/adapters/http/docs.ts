/**
 * The docs page at `{prefix}/docs`: Swagger UI (`@fastify/swagger-ui`, which serves its assets
 * from the package: no CDN) over the same OpenAPI document as `{prefix}/openapi.json`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CallerDocuments } from './auth';
import type { OpenApiDocument } from './openapi';
import { requirePeers } from '../../adapter-kit/internal';

/** What the docs page loads (`docs: false` serves the API without them). */
export const DOCS_PACKAGES = ['@fastify/swagger', '@fastify/swagger-ui'];

/**
 * The page's document (`/docs/json`, `/docs/yaml`) is the requesting caller's, as `openapi.json`
 * is: worked out in a hook (verify may be async), handed to swagger-ui's synchronous transform.
 */
export async function registerDocs(fastify: FastifyInstance, documents: CallerDocuments): Promise<void> {
  requirePeers("toolwright/http's docs page", DOCS_PACKAGES, 'or pass docs: false to serve the API without the page');
  const swagger = require('@fastify/swagger') as typeof import('@fastify/swagger');
  const swaggerUi = require('@fastify/swagger-ui') as typeof import('@fastify/swagger-ui');
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
