import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<object>();

/** The platform request (Express's or Fastify's) whose MCP or HTTP call is running now, if any. */
export function currentPlatformRequest(): object | undefined {
  return current.getStore();
}

/** Runs `fn` with `request` as the current platform request. */
export function withPlatformRequest<T>(request: object, fn: () => T): T {
  return current.run(request, fn);
}
