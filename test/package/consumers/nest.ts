/**
 * A Nest consumer of toolwright/nest, compiled from the packed tarball and run beside the Nest major
 * a project installed (12 in one project, 11 in another): a tool provider with a Nest-injected
 * dependency and a guard (`@UseGuards`) served by `ToolwrightModule` on the Express platform, an
 * endpoint guard setting `request.user`, the officer reaching `@AmbientContext` from it. Reached over
 * MCP (from Toolboxes, through toolwright/mcp-client, as a writer and as a reader) and refused
 * without a token. Prints one JSON document.
 */
import 'reflect-metadata';
import { CanActivate, ExecutionContext, Injectable, Module, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AmbientContext, Expects, Exposes, Field, Tool } from 'toolwright';
import { McpSecurityPolicy } from 'toolwright/mcp-client';
import { ToolwrightModule, toolCallOf } from 'toolwright/nest';
import { Toolbox } from 'toolwright/openai';

type Request = { headers: Record<string, string | undefined>; user?: { id: string; writer: boolean } };

@Injectable()
class Officers implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    const token = request.headers.authorization;
    request.user = token === 'Bearer w' ? { id: 'officer-w', writer: true } : token === 'Bearer r' ? { id: 'officer-r', writer: false } : undefined;
    return request.user !== undefined;
  }
}

@Injectable()
class WritersOnly implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return toolCallOf(context) !== undefined && context.switchToHttp().getRequest<Request>().user?.writer === true;
  }
}

@Injectable()
class Ledger {
  note(loanId: string, officer: string): string {
    return `${loanId} approved by ${officer}`;
  }
}

class ApproveInput {
  @Field() loanId!: string;
  @AmbientContext() officerId!: string;
}

@Tool('mcp', { name: 'approve' })
@Expects(ApproveInput)
@Exposes({ note: String })
@UseGuards(WritersOnly)
@Injectable()
class Approve {
  constructor(private readonly ledger: Ledger) {}
  call(input: ApproveInput) {
    return { note: this.ledger.note(input.loanId, input.officerId) };
  }
}

@Module({
  imports: [
    ToolwrightModule.forRoot({
      mcp: { path: '/mcp', name: 'nest-consumer', version: '1.0.0' },
      guards: [Officers],
      ambientContext: (request: Request) => ({ officerId: request.user?.id }),
    }),
  ],
  providers: [Ledger, Approve, Officers, WritersOnly],
})
class AppModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(AppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const nobody = (
    await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    })
  ).status;
  const security = new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['127.0.0.1'] });
  const callAs = async (token: string, loanId: string) => {
    const toolbox = new Toolbox([]);
    await toolbox.addMcpServer('desk', { url: `${url}/mcp`, headers: { authorization: token } }, { security });
    const record = await toolbox.invoke({ id: 'call_1', name: 'mcp__desk__approve', arguments: JSON.stringify({ loanId }) });
    await toolbox.close();
    return { status: record.status, output: record.output, data: record.data };
  };
  const writer = await callAs('Bearer w', 'l-1');
  const reader = await callAs('Bearer r', 'l-2');
  await app.close();
  console.log(JSON.stringify({ nobody, writer, reader }));
}

// A rejection ends the process with exit code 1 and the error on stderr.
void main();
