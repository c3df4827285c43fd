/**
 * The toolwright error family is a brand, not a base class: an adapter's own error can keep the
 * superclass its ecosystem needs (`class RetryLater extends TimeoutError`) and still be caught with
 * `instanceof ToolwrightError` or `isToolwrightError(e)`. The brand lives on the prototype, so a
 * subclass of a marked class is marked too, and a public error family cannot grow an unmarked member.
 */
import { describeValue } from '../util/describe-value';

const BRAND: unique symbol = Symbol.for('toolwright.error');

type ErrorClass = abstract new (...args: never[]) => Error;

/** True for every error toolwright (or a marked adapter error class) throws on purpose. */
export function isToolwrightError(value: unknown): value is Error {
  if (typeof value !== 'object' || value === null) return false;
  try {
    return (value as { [BRAND]?: unknown })[BRAND] === true;
  } catch {
    return false; // a Proxy whose get trap throws, a revoked Proxy: not one of ours
  }
}

/**
 * The toolwright error family. `instanceof ToolwrightError` is true for every error toolwright (or an
 * error class marked with `ToolwrightError.mark`) throws on purpose, whatever its superclass; `code`
 * names the kind for programmatic handling.
 */
export class ToolwrightError extends Error {
  /** A short stable identifier for programmatic handling, e.g. `TOOL_RESOLUTION`. */
  readonly code: string = 'TOOLWRIGHT_ERROR';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }

  /**
   * Marks an error class as a member of the toolwright family without changing its superclass.
   * Usable as a call (`ToolwrightError.mark(RetryLater)`) or as a class decorator.
   */
  static mark<C extends ErrorClass>(errorClass: C): C {
    if (typeof errorClass !== 'function' || !(errorClass.prototype instanceof Error)) {
      throw new TypeError(`ToolwrightError.mark expects an Error subclass; got ${describeValue(errorClass)}.`);
    }
    Object.defineProperty(errorClass.prototype, BRAND, { value: true, enumerable: false });
    return errorClass;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // `instanceof ToolwrightError` means "in the family"; subclasses keep ordinary instanceof.
    if (this === ToolwrightError) return isToolwrightError(value);
    try {
      return Function.prototype[Symbol.hasInstance].call(this, value);
    } catch {
      return false; // a Proxy whose getPrototypeOf trap throws, a revoked Proxy
    }
  }
}
Object.defineProperty(ToolwrightError.prototype, BRAND, { value: true, enumerable: false });
