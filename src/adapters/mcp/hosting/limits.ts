import { describeValue } from '../../../adapter-kit';
import { DeclarationError } from '../../../index';

/** The defaults of every limit `serveHttp` and `serveStdio` apply (docs/guide/mcp-limits.md). */
export const DEFAULT_LIMITS = {
  /** A session with no request for 15 minutes is closed. */
  sessionIdleTimeoutMs: 15 * 60 * 1000,
  maxSessions: 10_000,
  /** Requests of stateless calls to their clients (elicitation, sampling, roots) waiting for answers. */
  maxPendingAsks: 10_000,
  /** 4 MiB, as the SDK's own HTTP entry points. */
  maxBodyBytes: 4 * 1024 * 1024,
  /** Headers, and then the body, each get this long to arrive. */
  requestTimeoutMs: 30_000,
  /** 10 MiB, the SDK stdio transport's own buffer bound. */
  maxMessageBytes: 10 * 1024 * 1024,
} as const;

/**
 * One JSON-RPC code for "too large", on every transport: -32600 Invalid Request (JSON-RPC has no
 * dedicated code), with a message naming the limit and the option that sets it.
 */
export const TOO_LARGE = -32600;

/** `value`, or `fallback` when it is undefined; a TypeError naming `where` and `option` otherwise. */
export function positiveInteger(where: string, option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new DeclarationError(
      `${where}: '${option}' must be a positive whole number; got ${describeValue(value)}. Leave it out for the default (${fallback}).`,
    );
  }
  return value;
}

/** A list of non-empty strings, or undefined; a TypeError naming `where` and `option` otherwise. */
export function stringList(where: string, option: string, value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item.trim() === '')) {
    throw new DeclarationError(`${where}: '${option}' must be a list of non-empty strings; got ${describeValue(value)}.`);
  }
  return value;
}
