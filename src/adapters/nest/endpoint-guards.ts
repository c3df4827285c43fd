/**
 * Guards on toolwright's endpoints (the MCP endpoint and the HTTP API), run on each request before
 * toolwright reads it, as Nest runs a controller's guards: the place for authentication. A guard
 * that sets `request.user` (a bearer-token guard, Passport's `AuthGuard('jwt')`) makes the user
 * available to `ambientContext(request)`, which toolwright reads with the call's input, before the
 * guards on the member's provider (./enhancers.ts) run.
 */
import type { ServerResponse } from 'node:http';
import { HttpException, Scope, type CanActivate, type Type } from '@nestjs/common';
import type { ModuleRef } from '@nestjs/core';
// Nest 11 and 12 both ship this file (12 also re-exports it from '@nestjs/core/internal').
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import { isObservable, lastValueFrom } from 'rxjs';
import { SetupError } from '../../index';
import { callContextId } from './call-scope';

/** A guard class (resolved through Nest's container, or made by it) or a guard instance. */
export type EndpointGuard = Type<CanActivate> | CanActivate;

/** The endpoint's handler in the execution context the guards get (`getHandler()`); `getClass()` is ToolwrightModule's host. */
function toolwrightEndpoint(): void {}

function send(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * Runs `guards` in order on a platform request; true when all let it through. Otherwise the
 * response is sent, as Nest's exception layer would: 403 `Forbidden resource` for a guard's false,
 * an HttpException's own status and body, 500 for anything else (logged, never shown).
 */
export function endpointGuards(
  moduleRef: ModuleRef,
  host: Function,
  guards: readonly EndpointGuard[],
): (request: object, response: ServerResponse) => Promise<boolean> {
  for (const guard of guards) {
    const isInstance = typeof guard === 'object' && guard !== null && typeof (guard as CanActivate).canActivate === 'function';
    if (!isInstance && typeof guard !== 'function') {
      throw new SetupError(`ToolwrightModule: guards must be guard classes or objects with canActivate(context); got ${String(guard)}.`);
    }
  }
  // Per guard, what gives its instance for a request: made once, or (for a guard whose dependency
  // tree is request-scoped or transient) resolved in the context of the request, as Nest makes a
  // request-scoped controller's guards; the member called later shares that context (./call-scope.ts).
  let resolvers: ((request: object) => Promise<CanActivate> | CanActivate)[] | undefined;
  const resolverOf = (guard: EndpointGuard): ((request: object) => Promise<CanActivate> | CanActivate) => {
    if (typeof guard !== 'function') return () => guard;
    let scope: Scope | undefined;
    try {
      scope = moduleRef.introspect(guard).scope;
    } catch {
      scope = undefined; // not a provider: Nest makes one, injecting its dependencies
    }
    if (scope === Scope.REQUEST || scope === Scope.TRANSIENT) {
      return (request) => moduleRef.resolve(guard, callContextId(moduleRef, request), { strict: false });
    }
    let made: Promise<CanActivate> | undefined;
    return () => (made ??= scope === undefined ? moduleRef.create(guard) : Promise.resolve(moduleRef.get(guard, { strict: false })));
  };
  return async (request, response) => {
    resolvers ??= guards.map(resolverOf);
    const context = new ExecutionContextHost([request, response, undefined], host as Type, toolwrightEndpoint);
    context.setType('http');
    try {
      for (const resolve of resolvers) {
        const guard = await resolve(request);
        let allowed = guard.canActivate(context);
        if (isObservable(allowed)) allowed = lastValueFrom(allowed);
        if (!(await allowed)) {
          send(response, 403, { statusCode: 403, message: 'Forbidden resource', error: 'Forbidden' });
          return false;
        }
      }
      return true;
    } catch (error) {
      if (error instanceof HttpException) {
        const body = error.getResponse();
        send(response, error.getStatus(), typeof body === 'string' ? { statusCode: error.getStatus(), message: body } : body);
      } else {
        console.error('toolwright/nest: an endpoint guard failed:', error);
        send(response, 500, { statusCode: 500, message: 'Internal server error' });
      }
      return false;
    }
  };
}
