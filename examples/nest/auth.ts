/**
 * The loan desk's Nest authentication: a bearer-token guard that sets `request.user`, as Passport's
 * `AuthGuard` would. Tokens are a fixed development table (`LOAN_DESK_TOKENS`, JSON of token →
 * officer, or the two below); a real app verifies JWTs or uses Passport here.
 */
import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';

export interface Officer {
  id: string;
  name: string;
  /** What the officer may do: `loans:read`, `loans:write`. */
  roles: string[];
}

const DEFAULT_TOKENS: Record<string, Officer> = {
  'dev-token-ada': { id: 'officer-ada', name: 'Ada', roles: ['loans:read', 'loans:write'] },
  'dev-token-reader': { id: 'officer-bob', name: 'Bob', roles: ['loans:read'] },
};

export function tokens(): Record<string, Officer> {
  return process.env.LOAN_DESK_TOKENS ? (JSON.parse(process.env.LOAN_DESK_TOKENS) as Record<string, Officer>) : DEFAULT_TOKENS;
}

/** Something with headers and a `user` slot: Express's and Fastify's requests both are. */
export interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  user?: Officer;
}

/** Refuses a request without a known `Authorization: Bearer <token>`; sets `request.user` to its officer. */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  private readonly table = tokens();

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer (\S+)$/.exec(header) : null;
    const officer = match ? this.table[match[1]] : undefined;
    if (!officer) throw new UnauthorizedException('A bearer token of a loan officer is required.');
    request.user = officer;
    return true;
  }
}
