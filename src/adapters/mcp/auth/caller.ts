/**
 * Who is calling: the one identity every way of authenticating a request feeds, and the only thing
 * a session, its event streams, a task and a request state are bound to. Toolwright's own `auth`
 * gives the verified token's identity (`ownerIdentity`); a host that authenticated the request
 * itself (a Nest endpoint guard, the application's middleware, a proxy it trusts) names the caller
 * with `identity(request)`; both together bind to both; neither is the anonymous caller (''), whose
 * sessions and tasks only anonymous requests reach.
 */
import type { IncomingMessage } from 'node:http';
import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import { describeValue } from '../../../adapter-kit';
import { ownerIdentity } from './auth';

/**
 * `serveHttp(…, { identity })`: who the caller is, when something other than toolwright's `auth`
 * authenticated the request. A non-empty string naming them (compared exactly), or undefined for an
 * anonymous caller.
 */
export type McpCallerIdentity = (request: IncomingMessage) => string | undefined | Promise<string | undefined>;

/** The anonymous caller: no token verified, no identity named. */
export const ANONYMOUS = '';

/** The identity of a request: its verified token's, the one its host named, both, or the anonymous one. */
export function callerIdentity(authInfo: AuthInfo | undefined, named: string | undefined): string {
  if (named === undefined) return authInfo ? ownerIdentity(authInfo) : ANONYMOUS;
  // Its own shape, so no name a host gives equals a token's identity (a JSON array).
  return JSON.stringify(authInfo ? { token: ownerIdentity(authInfo), named } : { named });
}

/**
 * Asks the host's `identity(request)`: the name, undefined for an anonymous caller, or an Error
 * saying what is wrong (it threw, or answered something other than a non-empty string).
 */
export async function namedIdentity(identity: McpCallerIdentity, request: IncomingMessage): Promise<string | undefined | Error> {
  let named: unknown;
  try {
    named = await identity(request);
  } catch (error) {
    return new Error(`identity(request) threw: ${(error as Error)?.message ?? String(error)}`);
  }
  if (named === undefined || (typeof named === 'string' && named !== '')) return named;
  return new Error(
    `identity(request) returned ${describeValue(named)}; return a non-empty string naming the caller, or undefined for an anonymous one.`,
  );
}

/** The identity of each web request handed to the SDK, read back from its handlers' context. */
const callers = new WeakMap<Request, string>();

/** Records `identity` as the caller of `request` (the web request the SDK's handlers see as `ctx.http.req`). */
export function recordCaller(request: Request, identity: string): void {
  callers.set(request, identity);
}

/** The caller of a request an SDK handler serves: recorded by the HTTP entry, else its verified token's (or anonymous). */
export function callerOf(ctx: ServerContext): string {
  const request = ctx.http?.req;
  const recorded = request ? callers.get(request) : undefined;
  if (recorded !== undefined) return recorded;
  return ctx.http?.authInfo ? ownerIdentity(ctx.http.authInfo) : ANONYMOUS;
}
