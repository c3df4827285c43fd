import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<object>();
/** The platform request behind each raw request handed to the HTTP API (Fastify's router does not keep the async context). */
const byRaw = new WeakMap<object, object>();

/**
 * The platform request (Express's or Fastify's) whose MCP or HTTP call is running now, if any; for
 * a call of the HTTP API, pass the transport's request (`call.request`, a Fastify request).
 */
export function currentPlatformRequest(transportRequest?: unknown): object | undefined {
  const raw = typeof transportRequest === 'object' && transportRequest !== null ? (transportRequest as { raw?: unknown }).raw : undefined;
  return current.getStore() ?? (typeof raw === 'object' && raw !== null ? byRaw.get(raw) : undefined);
}

/** Runs `fn` with `request` as the current platform request. */
export function withPlatformRequest<T>(request: object, fn: () => T): T {
  return current.run(request, fn);
}

/** Records `request` as the platform request behind `raw`, the request the HTTP API's router is handed. */
export function rememberPlatformRequest(raw: object, request: object): void {
  byRaw.set(raw, request);
}
