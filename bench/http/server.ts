/**
 * One contender's server, alone in its process: `toolwright` (the plugin), `fastify` (a hand-written
 * route with the same JSON Schemas: Fastify's ajv validation and fast-json-stringify serialization) or
 * `class-validator` (a route validating with class-transformer + class-validator, as a NestJS
 * ValidationPipe does). Prints its URL, serves until stdin closes; `GET /__cpu` answers its CPU time.
 */
import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { fastify } from 'fastify';
import { inputSchema, outputSchema } from 'toolwright';
import { toolwrightHttp } from 'toolwright/http';
import { quote, QuoteInput, QuoteTool } from './tool';

async function main(): Promise<void> {
  const kind = process.argv[2];
  const app = fastify({ logger: false });
  if (kind === 'toolwright') {
    await app.register(toolwrightHttp, { tools: [QuoteTool], docs: false });
  } else if (kind === 'fastify') {
    app.post('/quote/v1', {
      schema: { body: inputSchema(QuoteTool), response: { 200: outputSchema(QuoteTool)! } },
      handler: async (request) => quote(request.body as QuoteInput),
    });
  } else if (kind === 'class-validator') {
    app.post('/quote/v1', async (request, reply) => {
      const input = plainToInstance(QuoteInput, request.body as object);
      const errors = await validate(input, { whitelist: true, forbidNonWhitelisted: true });
      if (errors.length > 0) return reply.code(400).send({ message: errors.flatMap((e) => Object.values(e.constraints ?? {})) });
      return quote(input);
    });
  } else {
    throw new Error(`unknown contender ${kind}: toolwright, fastify or class-validator`);
  }
  // The bench reads the server's own CPU time around each load: robust where wall-clock throughput is
  // not (the machine is shared, and autocannon competes with the server for the same cores).
  app.get('/__cpu', async () => process.cpuUsage());
  await app.listen({ host: '127.0.0.1', port: 0 });
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}/quote/v1` })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void app.close().then(() => process.exit(0)));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
