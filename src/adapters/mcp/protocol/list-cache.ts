/**
 * The cache fields of `tools/list` on MCP 2026-07-28 (`ttlMs`, `cacheScope`; the SDK stamps them
 * from `ServerOptions.cacheHints`). 2025-11-25 answers never carry them.
 */
import type { CacheHint } from '@modelcontextprotocol/server';
import { describeValue } from '../../../adapter-kit';
import { isPlainObject } from '../../../adapter-kit/internal';
import { DeclarationError } from '../../../index';

/** `createMcpServer({ listCache })`. */
export interface McpListCache {
  /**
   * How long a client may answer `tools/list` from its cache, in milliseconds (default 60,000; 0: ask
   * every time). Tools added or removed at run time reach listening clients at once
   * (`subscriptions/listen`); the ttl bounds how stale a client that does not listen can be.
   */
  ttlMs?: number;
  /**
   * `'private'`: only the caller's own cache may keep the list; `'public'`: shared caches may too.
   * Default: `'private'` when any tool declares scopes or the server has a `visible` rule (the list
   * then differs per caller; `'public'` is then refused), else `'public'`.
   */
  cacheScope?: 'public' | 'private';
}

/** A minute: cheap to keep, and short enough for a client that does not listen for changes. */
export const DEFAULT_LIST_TTL_MS = 60_000;

/** Checks `listCache` and returns the hint for a server built now (the scope follows the tools served then). */
export function checkListCache(listCache: unknown, ruled = false): { hint(members: { scoped(): boolean }): CacheHint } {
  const where = 'createMcpServer: listCache';
  if (listCache !== undefined && !isPlainObject(listCache)) {
    throw new DeclarationError(`${where} must be { ttlMs?, cacheScope? }, e.g. { ttlMs: 60000 }; got ${describeValue(listCache)}.`);
  }
  const { ttlMs = DEFAULT_LIST_TTL_MS, cacheScope, ...rest } = (listCache ?? {}) as McpListCache;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new DeclarationError(`${where} has unknown option(s) ${unknown.join(', ')}; known: ttlMs, cacheScope.`);
  if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs < 0) {
    throw new DeclarationError(`${where}.ttlMs must be a whole number of milliseconds of at least 0; got ${describeValue(ttlMs)}.`);
  }
  if (cacheScope !== undefined && cacheScope !== 'public' && cacheScope !== 'private') {
    throw new DeclarationError(`${where}.cacheScope must be 'public' or 'private'; got ${describeValue(cacheScope)}.`);
  }
  if (ruled && cacheScope === 'public') {
    throw new DeclarationError(
      `${where}.cacheScope is 'public', and the server has a visible rule: its lists differ per caller, so a shared cache must not keep them. Leave cacheScope out (it is then 'private').`,
    );
  }
  return { hint: (members) => ({ ttlMs, cacheScope: cacheScope ?? (ruled || members.scoped() ? 'private' : 'public') }) };
}
