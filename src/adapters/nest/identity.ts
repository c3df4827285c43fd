/**
 * Who is calling, as a Nest application says it: the user an endpoint guard (a bearer-token
 * guard, Passport's `AuthGuard`) set on the platform request. An MCP session, its streams and its
 * tasks belong to this identity (toolwright/mcp's `identity` option: see ../mcp/auth/caller.ts).
 */
import { SetupError } from '../../index';

const KEYS = ['id', 'userId', 'sub'] as const;

const named = (value: unknown): value is string | number => (typeof value === 'string' && value !== '') || Number.isFinite(value);

/**
 * `ToolwrightModule.forRoot`'s default `identity`: `request.user`'s `id`, `userId` or `sub` (the
 * first present, a string or a number, compared with its type: 101 is not "101"), or `request.user`
 * itself when it is a string or a number. No `request.user` is an anonymous caller. A user without
 * any of those throws (the request is answered 500), rather than sharing one identity among users.
 */
export function userIdentity(request: { user?: unknown } | undefined): string | undefined {
  const user = request?.user;
  if (user === undefined || user === null) return undefined;
  if (named(user)) return JSON.stringify(user);
  if (typeof user === 'object') {
    const key = KEYS.find((name) => (user as Record<string, unknown>)[name] !== undefined);
    const value = key && (user as Record<string, unknown>)[key];
    if (named(value)) return JSON.stringify(value);
  }
  throw new SetupError(
    `toolwright/nest: request.user has no id, userId or sub (a non-empty string or a number), so the MCP session cannot be bound to its caller. ` +
      'Pass ToolwrightModule.forRoot({ identity: (request) => … }) returning a string that names the user.',
  );
}
