/**
 * bench/nest's toolwright/nest contender: the same `check_credit` as ./toolwright-server.ts, a Nest
 * provider (its `CreditBureau` injected by Nest) in a Nest 12 app on the Fastify platform, served by
 * `ToolwrightModule` on the app's own server.
 */
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Description, Expects, Exposes, Tool } from 'toolwright';
import { ToolwrightModule } from 'toolwright/nest';
import { CheckCreditInput, CreditReport } from './dto';
import { band, CreditBureau } from './tool';
import type { Started } from './servers';

@Injectable()
class NestCreditBureau extends CreditBureau {}

@Tool('mcp', { name: 'check_credit' })
@Description('Credit score of an applicant')
@Expects(CheckCreditInput)
@Exposes(CreditReport)
@Injectable()
class CheckCreditProvider {
  constructor(private readonly bureau: NestCreditBureau) {}

  call(input: CheckCreditInput): CreditReport {
    const score = this.bureau.score(input.applicant);
    return { score, band: band(score) };
  }
}

export async function start(stateless: boolean): Promise<Started> {
  @Module({
    imports: [ToolwrightModule.forRoot({ mcp: { path: '/mcp', name: 'nest-bench', version: '1.0.0', stateless, maxSessions: 1_000_000 } })],
    providers: [NestCreditBureau, CheckCreditProvider],
  })
  class BenchModule {}
  const app = await NestFactory.create<NestFastifyApplication>(BenchModule, new FastifyAdapter(), { logger: false });
  await app.listen(0, '127.0.0.1');
  const url = new URL('/mcp', await app.getUrl()).href.replace('[::1]', '127.0.0.1');
  return { url, close: () => app.close() };
}
