/**
 * The docs page at `{prefix}/docs`: Swagger UI (`@fastify/swagger-ui`, which serves its assets
 * from the package: no CDN) over the same OpenAPI document as `{prefix}/openapi.json`.
 */
import type { FastifyInstance } from 'fastify';
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

export async function registerDocs(fastify: FastifyInstance, document: OpenApiDocument): Promise<void> {
  const swagger = load<typeof import('@fastify/swagger')>('@fastify/swagger');
  const swaggerUi = load<typeof import('@fastify/swagger-ui')>('@fastify/swagger-ui');
  // An encapsulated child: the `swagger` decorator stays out of the application's own context.
  await fastify.register(async (docs) => {
    await docs.register(swagger.default, { mode: 'static', specification: { document: document as never } });
    await docs.register(swaggerUi.default, {
      routePrefix: '/docs',
      // The page's asset URLs are absolute: they need the prefix the API is mounted under.
      indexPrefix: fastify.prefix,
      uiConfig: { deepLinking: true, tryItOutEnabled: true, displayOperationId: true },
    });
  });
}
