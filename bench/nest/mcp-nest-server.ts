/**
 * bench/nest's MCP-Nest contender: `check_credit` on an `@McpController` (zod input and output
 * schemas, `CreditBureau` injected by Nest) in a Nest 12 app on the Fastify platform, served by
 * MCP-Nest 2.x's `McpStrategy` with its `StreamableHttpTransport` on the app's own server.
 */
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Payload } from '@nestjs/microservices';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { McpController, McpStrategy, StreamableHttpTransport, Tool } from '@rekog/mcp-nest';
import { z } from 'zod';
import { band, CreditBureau } from './tool';
import type { Started } from './servers';

@Injectable()
class NestCreditBureau extends CreditBureau {}

@McpController()
class CreditController {
  constructor(private readonly bureau: NestCreditBureau) {}

  @Tool({
    name: 'check_credit',
    description: 'Credit score of an applicant',
    parameters: z.object({ applicant: z.string().max(200).describe('Full name of the applicant') }),
    outputSchema: z.object({
      score: z.number().int().describe('Score between 300 and 850'),
      band: z.enum(['poor', 'fair', 'good', 'excellent']),
    }),
  })
  checkCredit(@Payload() { applicant }: { applicant: string }) {
    const score = this.bureau.score(applicant);
    return { score, band: band(score) };
  }
}

export async function start(stateless: boolean): Promise<Started> {
  const mcp = new McpStrategy({
    name: 'nest-bench',
    version: '1.0.0',
    transports: [new StreamableHttpTransport({ statefulMode: !stateless })],
    logging: false,
  });
  @Module({ controllers: [CreditController], providers: [NestCreditBureau] })
  class BenchModule {}
  const app = await NestFactory.create<NestFastifyApplication>(BenchModule, new FastifyAdapter(), { logger: false });
  mcp.setHttpAdapter(app.getHttpAdapter());
  app.connectMicroservice({ strategy: mcp });
  await app.startAllMicroservices();
  await app.listen(0, '127.0.0.1');
  const url = new URL('/mcp', await app.getUrl()).href.replace('[::1]', '127.0.0.1');
  return { url, close: () => app.close() };
}
