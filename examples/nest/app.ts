/**
 * The loan desk as a Nest application, on Express or Fastify, its tools served over MCP by
 * toolwright/nest on the same server: `createLoanDesk(platform)` builds it
 * (its global `ValidationPipe` refuses unknown properties, as the tools' schemas do, and answers the
 * failing properties by name), `main.ts` starts it.
 */
import { BadRequestException, Module, ValidationError, ValidationPipe, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { ToolwrightModule } from 'toolwright/nest';
import { BearerAuthGuard, type AuthenticatedRequest } from './auth';
import { LoansModule } from './loans.module';

export type Platform = 'express' | 'fastify';

@Module({
  imports: [
    LoansModule,
    // The tools of LoansModule served over MCP at /mcp and as an HTTP API under /tools on the app's own server. The bearer guard runs
    // on each request first and sets request.user; the officer of approve_loan comes from it.
    ToolwrightModule.forRoot({
      mcp: { path: '/mcp', name: 'loan-desk', version: '1.0.0' },
      http: { prefix: '/tools' },
      guards: [BearerAuthGuard],
      ambientContext: (request: AuthenticatedRequest) => ({ officerId: request.user?.id }),
    }),
  ],
})
export class AppModule {}

/** The properties a class-validator refusal names (nested ones as `parent.child`). */
export function failingProperties(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((error) =>
    error.children && error.children.length > 0
      ? failingProperties(error.children, `${prefix}${error.property}.`)
      : [`${prefix}${error.property}`],
  );
}

/** The pipe the app validates bodies with: unknown properties refused, failing properties named. */
export function validationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    exceptionFactory: (errors) =>
      new BadRequestException({
        statusCode: 400,
        error: 'Bad Request',
        properties: failingProperties(errors),
        message: errors.flatMap((error) => Object.values(error.constraints ?? {})),
      }),
  });
}

/** The loan desk's Nest app on `platform`, not yet listening. */
export async function createLoanDesk(platform: Platform, module: Type = AppModule): Promise<INestApplication> {
  const adapter = platform === 'fastify' ? new FastifyAdapter() : new ExpressAdapter();
  const app = await NestFactory.create(module, adapter, { logger: ['error', 'warn'] });
  app.useGlobalPipes(validationPipe());
  return app;
}
