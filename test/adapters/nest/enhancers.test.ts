/**
 * Nest's guards, interceptors and exception filters around tool calls (toolwright/nest's
 * `nestEnhancers`), applied through Nest's own ExternalContextCreator, in a real Nest module
 * (@nestjs/testing): a guard refuses with an error the model reads, interceptors see the call,
 * a filter cannot change what the model sees, and an interceptor cannot answer for the tool.
 */
import 'reflect-metadata';
import {
  ArgumentsHost,
  CallHandler,
  CanActivate,
  Catch,
  ExceptionFilter,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
  UseFilters,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { ApplicationConfig, ExternalContextCreator, Reflector } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { map, Observable, of, tap } from 'rxjs';
import { describeTool, Expects, Invoker, Tool } from 'toolwright';
import { nestEnhancers, toolCallOf } from 'toolwright/nest';

const events: string[] = [];
const Roles = (...roles: string[]) => SetMetadata('roles', roles);

@Injectable()
class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}
  canActivate(context: ExecutionContext): boolean {
    const call = toolCallOf(context);
    const roles = this.reflector.getAllAndOverride<string[]>('roles', [context.getHandler(), context.getClass()]) ?? [];
    const user = context.switchToHttp().getRequest<{ user?: { roles: string[] } }>()?.user;
    events.push(`guard ${context.getType()} ${call?.tool.toolName()} ${JSON.stringify(call?.input)}`);
    return roles.every((role) => user?.roles.includes(role));
  }
}

@Injectable()
class Timing implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    events.push(`before ${toolCallOf(context)?.tool.toolName()}`);
    return next.handle().pipe(tap(() => events.push(`after ${toolCallOf(context)?.tool.toolName()}`)));
  }
}

@Catch()
class LeakyFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): unknown {
    events.push(`filter ${host.getType()} ${(exception as Error).message}`);
    return { leaked: (exception as Error).message };
  }
}

@Injectable()
class Replacing implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map(() => 'cached answer'));
  }
}

@Injectable()
class ShortCircuit implements NestInterceptor {
  intercept(): Observable<unknown> {
    return of('from cache');
  }
}

@Tool('mcp', { name: 'approve' })
@Expects({ loanId: String })
@UseGuards(RolesGuard)
@UseInterceptors(Timing)
@UseFilters(LeakyFilter)
@Injectable()
class Approve {
  @Roles('loans:write')
  call(input: { loanId: string }): string {
    events.push(`tool ${input.loanId}`);
    if (input.loanId === 'boom') throw new Error('database password is hunter2');
    return `approved ${input.loanId}`;
  }
}

@Injectable()
class Loans {
  @Tool('mcp', { name: 'loan_status' })
  @Expects({ loanId: String })
  @Roles('loans:read')
  @UseGuards(RolesGuard)
  status(input: { loanId: string }): string {
    return `pending ${input.loanId}`;
  }

  @Tool('mcp', { name: 'replaced' })
  @UseInterceptors(Replacing)
  replaced(): string {
    return 'the tool answer';
  }

  @Tool('mcp', { name: 'short_circuit' })
  @UseInterceptors(ShortCircuit)
  shortCircuit(): string {
    events.push('tool short_circuit');
    return 'the tool answer';
  }

  @Tool('mcp', { name: 'plain' })
  plain(): string {
    return 'plain';
  }
}

afterEach(() => jest.restoreAllMocks());

describe('toolwright/nest: Nest guards, interceptors and filters around tool calls', () => {
  let invoker: Invoker;
  let request: { user?: { roles: string[] } };

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ providers: [Approve, Loans, RolesGuard, Timing, Replacing, ShortCircuit] }).compile();
    await moduleRef.init();
    const middleware = nestEnhancers(moduleRef.get(ExternalContextCreator), moduleRef.get(ApplicationConfig), () => request);
    invoker = new Invoker({ middleware: [middleware] });
  });
  beforeEach(() => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    events.length = 0;
    request = { user: { roles: ['loans:read', 'loans:write'] } };
  });

  it('a permitted call passes the guard (which sees the tool and its validated input) and the interceptor wraps it', async () => {
    const result = await invoker.invoke(Approve, { loanId: 'L1' });
    expect(result.value).toBe('approved L1');
    expect(events).toEqual(['guard toolwright approve {"loanId":"L1"}', 'before approve', 'tool L1', 'after approve']);
  });

  it("a guard refusing is an error the model reads; the tool does not run; the filter sees it but its answer is dropped", async () => {
    request = { user: { roles: ['loans:read'] } };
    const result = await invoker.invoke(Approve, { loanId: 'L1' });
    expect(result.ok).toBe(false);
    expect(result.outcome).toBe('failure');
    expect(result.error).toBe('Forbidden resource');
    expect(JSON.stringify(result)).not.toContain('leaked');
    expect(events).toEqual(['guard toolwright approve {"loanId":"L1"}', 'filter toolwright Forbidden resource']);
  });

  it('a call without a user (no request) is refused by the same guard', async () => {
    request = {};
    expect((await invoker.invoke(Approve, { loanId: 'L1' })).error).toBe('Forbidden resource');
  });

  it("the method's own metadata reaches the guard through the handler (method members of a service)", async () => {
    request = { user: { roles: ['loans:write'] } };
    expect((await invoker.invoke(describeTool(Loans, 'status'), { loanId: 'L2' })).error).toBe('Forbidden resource');
    request = { user: { roles: ['loans:read'] } };
    expect((await invoker.invoke(describeTool(Loans, 'status'), { loanId: 'L2' })).value).toBe('pending L2');
  });

  it("a tool's exception reaches the filter, but the model sees toolwright's generic answer, never the filter's", async () => {
    const result = await invoker.invoke(Approve, { loanId: 'boom' });
    expect(result.outcome).toBe('exception');
    expect(result.error).not.toContain('hunter2');
    expect(JSON.stringify({ error: result.error, value: result.value })).not.toContain('leaked');
    expect(events).toContain('filter toolwright database password is hunter2');
  });

  it('invalid input is refused before any guard runs (toolwright validates first)', async () => {
    const result = await invoker.invoke(Approve, { loanId: 42 });
    expect(result.ok).toBe(false);
    expect(result.fieldErrors.map((error) => error.field)).toEqual(['loanId']);
    expect(events).toEqual([]);
  });

  it('an interceptor replacing the answer, or answering without calling the tool, fails the call: the model sees only the tool\'s answer', async () => {
    const replaced = await invoker.invoke(describeTool(Loans, 'replaced'), {});
    expect(replaced.outcome).toBe('exception');
    expect(replaced.value).toBeUndefined();
    const shortCircuit = await invoker.invoke(describeTool(Loans, 'shortCircuit'), {});
    expect(shortCircuit.outcome).toBe('exception');
    expect(shortCircuit.value).toBeUndefined();
    expect(events).not.toContain('tool short_circuit');
  });

  it('a member without enhancers runs as is', async () => {
    expect((await invoker.invoke(describeTool(Loans, 'plain'), {})).value).toBe('plain');
  });
});

describe("toolwright/nest: the application's global guards apply to members without their own", () => {
  @Injectable()
  class Plain {
    @Tool('mcp', { name: 'plain_lookup' })
    @Expects({ loanId: String })
    lookup(input: { loanId: string }): string {
      return `found ${input.loanId}`;
    }
  }

  class NoBlockedLoans implements CanActivate {
    canActivate(context: ExecutionContext): boolean {
      return (toolCallOf(context)?.input as { loanId?: string } | undefined)?.loanId !== 'blocked';
    }
  }

  it('app.useGlobalGuards refuses a call of a member that declares no guard', async () => {
    const moduleRef = await Test.createTestingModule({ providers: [Plain] }).compile();
    const app = moduleRef.createNestApplication();
    app.useGlobalGuards(new NoBlockedLoans());
    await app.init();
    const invoker = new Invoker({ middleware: [nestEnhancers(app.get(ExternalContextCreator), app.get(ApplicationConfig), () => undefined)] });
    expect((await invoker.invoke(describeTool(Plain, 'lookup'), { loanId: 'L1' })).value).toBe('found L1');
    expect((await invoker.invoke(describeTool(Plain, 'lookup'), { loanId: 'blocked' })).error).toBe('Forbidden resource');
    await app.close();
  });
});
