/**
 * The loan desk as a Nest application, on Express or Fastify: `createLoanDesk(platform)` builds it
 * (its global `ValidationPipe` refuses unknown properties, as the tools' schemas do, and answers the
 * failing properties by name), `main.ts` starts it.
 */
import { BadRequestException, Module, ValidationError, ValidationPipe, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { LoansModule } from './loans.module';

export type Platform = 'express' | 'fastify';

@Module({ imports: [LoansModule] })
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
