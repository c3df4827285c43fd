import type { FailsOnRule } from '../metadata/definitions';
import { KEYS } from '../metadata/keys';
import { defineFact, getOwnFact, siteName, declaredAt } from '../metadata/site';
import { describeValue } from '../util/describe-value';
import { classOrMethodDecorator, ClassOrMethodDecorator } from './class-or-method';
import { DeclarationError } from '../errors/declaration-errors';

/**
 * Turns a foreign exception into a user-facing failure: no exception report, the original kept on
 * `result.exception`. Repeatable; the first matching rule wins, a subclass's rules before its parent's.
 *
 * @param errorClass the exception class (subclasses match too).
 * @param message what the caller reads; without it, the exception's own message.
 * @example
 * ```ts
 * @Tool()
 * @FailsOn(LoanNotFound, 'no such loan')
 * @FailsOn(RateLimited) // its own message
 * export class ApproveLoan { … }
 * ```
 */
export function FailsOn(errorClass: abstract new (...args: never[]) => unknown, message?: string): ClassOrMethodDecorator {
  if (typeof errorClass !== 'function' || !errorClass.prototype) {
    throw new DeclarationError(`@FailsOn needs an error class as its first argument; got ${describeValue(errorClass)}.`);
  }
  if (message !== undefined && (typeof message !== 'string' || message.trim() === '')) {
    throw new DeclarationError(`@FailsOn(${errorClass.name}): the message must be a non-empty string; got ${describeValue(message)}.`);
  }
  return classOrMethodDecorator('FailsOn', (site) => {
    const rules = getOwnFact<FailsOnRule[]>(KEYS.failsOn, site) ?? [];
    if (rules.some((rule) => rule.errorClass === errorClass)) {
      throw new DeclarationError(`${siteName(site)}: @FailsOn(${errorClass.name}) is already declared. Declare it once.`, declaredAt(site));
    }
    // Decorators apply bottom-up; prepend so rules read top-down.
    defineFact(KEYS.failsOn, Object.freeze([Object.freeze({ errorClass, message }), ...rules]), site);
  });
}
