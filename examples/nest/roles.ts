/**
 * Authorization, the Nest way: `@Roles(...)` on a handler or class, checked by `RolesGuard` against
 * `request.user` (set by ./auth.ts's `BearerAuthGuard`). The same guard protects the REST controller
 * and the tools (`@UseGuards(RolesGuard)` on a tool provider); on a tool call it also sees which tool
 * (`toolCallOf(context)`).
 */
import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AuthenticatedRequest } from './auth';

const ROLES = 'loan-desk:roles';

/** The roles a handler (or every handler of a class) needs. */
export const Roles = (...roles: string[]) => SetMetadata(ROLES, roles);

@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const roles = this.reflector.getAllAndOverride<string[] | undefined>(ROLES, [context.getHandler(), context.getClass()]) ?? [];
    const user = context.switchToHttp().getRequest<AuthenticatedRequest | undefined>()?.user;
    return roles.every((role) => user?.roles.includes(role) === true);
  }
}
