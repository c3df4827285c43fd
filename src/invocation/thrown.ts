/**
 * Every look at a value a tool threw. A tool can throw anything: a Proxy whose traps throw, a
 * revoked Proxy, an object whose `name` or `message` getter throws. Each inspection here is
 * guarded, so such a value is an ordinary exception outcome and never escapes the invoker.
 */
import { ToolFailure } from './failure';

/** `value instanceof errorClass`, false where the check itself throws (a trap, a hostile Symbol.hasInstance). */
export function isInstance(value: unknown, errorClass: Function): boolean {
  try {
    return value instanceof errorClass;
  } catch {
    return false;
  }
}

/** The reason and form of a deliberate `fail()`, or undefined for anything else (or anything unreadable). */
export function deliberateFailure(value: unknown): { reason: string | undefined; standalone: boolean } | undefined {
  try {
    if (!(value instanceof ToolFailure)) return undefined;
    const { reason, standalone } = value;
    return typeof reason === 'string' || reason === undefined ? { reason, standalone: standalone === true } : undefined;
  } catch {
    return undefined;
  }
}

/** Is this an error named AbortError (as fetch, timers/promises and most drivers reject with)? */
export function isAbortError(value: unknown): boolean {
  try {
    return typeof value === 'object' && value !== null && (value as { name?: unknown }).name === 'AbortError';
  } catch {
    return false;
  }
}
