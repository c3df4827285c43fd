/**
 * Cache hints (`{ ttlMs, cacheScope }`, MCP 2026-07-28's cacheable results): the one check shared by
 * a resource's `cache` option and the MCP server's `listCache` and `readCache`.
 */
import { describeValue, isPlainObject } from './describe-value';

/** How long a client may keep an answer, and whether shared caches may keep it too. */
export interface CacheHintFields {
  /** Milliseconds a client may answer from its cache (0: ask every time). */
  ttlMs?: number;
  /** `'private'`: only the caller's own cache may keep it; `'public'`: shared caches may too. */
  cacheScope?: 'public' | 'private';
}

/**
 * What is wrong with a cache hint, in a sentence starting with `where` (`example` shows a right
 * one); undefined when it is right. `ttlMs` may be left out unless `ttlRequired`.
 */
export function cacheHintProblem(where: string, value: unknown, example: string, ttlRequired = false): string | undefined {
  if (!isPlainObject(value))
    return `${where} must be { ttlMs${ttlRequired ? '' : '?'}, cacheScope? }, e.g. ${example}; got ${describeValue(value)}.`;
  const unknown = Object.keys(value).filter((key) => key !== 'ttlMs' && key !== 'cacheScope');
  if (unknown.length > 0) return `${where} has unknown option(s) ${unknown.join(', ')}; known: ttlMs, cacheScope.`;
  const { ttlMs, cacheScope } = value;
  if ((ttlMs !== undefined || ttlRequired) && (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs < 0)) {
    return `${where}.ttlMs must be a whole number of milliseconds of at least 0; got ${describeValue(ttlMs)}.`;
  }
  if (cacheScope !== undefined && cacheScope !== 'public' && cacheScope !== 'private') {
    return `${where}.cacheScope must be 'public' or 'private'; got ${describeValue(cacheScope)}.`;
  }
  return undefined;
}
