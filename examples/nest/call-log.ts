/**
 * An interceptor around the loan desk's tools: it records each call (tool, who, outcome, duration)
 * in `CallLog`, an ordinary provider (an audit trail a real app would persist).
 */
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable, tap } from 'rxjs';
import { toolCallOf } from 'toolwright/nest';
import type { AuthenticatedRequest } from './auth';

export interface CallRecord {
  tool: string;
  officer: string | undefined;
  outcome: string;
  ms: number;
}

/** The last 100 tool calls. */
@Injectable()
export class CallLog {
  readonly records: CallRecord[] = [];

  add(record: CallRecord): void {
    this.records.push(record);
    if (this.records.length > 100) this.records.shift();
  }
}

@Injectable()
export class CallLogInterceptor implements NestInterceptor {
  constructor(private readonly log: CallLog) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const call = toolCallOf(context);
    const officer = context.switchToHttp().getRequest<AuthenticatedRequest | undefined>()?.user?.id;
    const started = performance.now();
    return next.handle().pipe(
      tap({
        next: (result) =>
          this.log.add({
            tool: call?.tool.toolName() ?? '?',
            officer,
            outcome: (result as { outcome?: string }).outcome ?? 'success',
            ms: performance.now() - started,
          }),
        error: () => this.log.add({ tool: call?.tool.toolName() ?? '?', officer, outcome: 'thrown', ms: performance.now() - started }),
      }),
    );
  }
}
