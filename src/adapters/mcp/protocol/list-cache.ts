/**
 * The cache fields of MCP 2026-07-28 answers (`ttlMs`, `cacheScope`): of the lists (`tools/list`
 * and the others; the SDK stamps them from `ServerOptions.cacheHints`), and of `resources/read`
 * (a resource's own `cache`, else the server's `readCache`). 2025-11-25 answers never carry them.
 */
import type { CacheHint } from '@modelcontextprotocol/server';
import { cacheHintProblem, type CacheHintFields } from '../../../adapter-kit/internal';
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

/** `createMcpServer({ readCache })`: the cache fields of `resources/read` answers of resources without their own `cache`. */
export interface McpReadCache {
  /** How long a client may answer a read from its cache, in milliseconds (default 0: read every time). */
  ttlMs?: number;
  /**
   * `'private'` (default): only the caller's own cache may keep what it read; `'public'`: shared
   * caches may too. Refused on a server with a `visible` rule; a resource with scopes reads as
   * `'private'` whatever this says.
   */
  cacheScope?: 'public' | 'private';
}

/** A minute: cheap to keep, and short enough for a client that does not listen for changes. */
export const DEFAULT_LIST_TTL_MS = 60_000;

/** One of the server's cache options checked: a DeclarationError naming what is wrong otherwise. */
function checkCacheOption(option: 'listCache' | 'readCache', value: unknown, ruled: boolean): CacheHintFields {
  const where = `createMcpServer: ${option}`;
  const problem = value === undefined ? undefined : cacheHintProblem(where, value, '{ ttlMs: 60000 }');
  if (problem !== undefined) throw new DeclarationError(problem);
  const hint = (value ?? {}) as CacheHintFields;
  if (ruled && hint.cacheScope === 'public') {
    throw new DeclarationError(
      `${where}.cacheScope is 'public', and the server has a visible rule: its answers differ per caller, so a shared cache must not keep them. Leave cacheScope out (it is then 'private').`,
    );
  }
  return hint;
}

/** Checks `listCache` and returns the hint for a server built now (the scope follows the tools served then). */
export function checkListCache(listCache: unknown, ruled = false): { hint(members: { scoped(): boolean }): CacheHint } {
  const { ttlMs = DEFAULT_LIST_TTL_MS, cacheScope } = checkCacheOption('listCache', listCache, ruled);
  return { hint: (members) => ({ ttlMs, cacheScope: cacheScope ?? (ruled || members.scoped() ? 'private' : 'public') }) };
}

/**
 * Checks `readCache` and returns the hint of one read: the resource's own `cache` (its scope
 * `'private'` unless it says `'public'`), else the server's, else `{ ttlMs: 0, cacheScope: 'private' }`; never `'public'`
 * for a resource with scopes (`scoped`) or on a server with a visible rule (what it reads may differ
 * per caller).
 */
export function checkReadCache(readCache: unknown, ruled = false): { hint(own: CacheHintFields | undefined, scoped: boolean): CacheHint } {
  const server = checkCacheOption('readCache', readCache, ruled);
  return {
    hint: (own, scoped) => {
      // A resource's own rule is whole: its scope is private unless it says public, whatever the server's.
      const scope = own ? own.cacheScope : server.cacheScope;
      return { ttlMs: own?.ttlMs ?? server.ttlMs ?? 0, cacheScope: scope === 'public' && !scoped && !ruled ? 'public' : 'private' };
    },
  };
}
