import { DeclarationError } from '../errors/declaration-errors';
import { describeValue } from '../util/describe-value';
import { checkResolver } from './resolve-tool';
import { checkCallContext } from './tool-context';

/**
 * Checks the per-call options an adapter takes from its user and passes to the invoker
 * (`ambientContext`, `container`, `signal`, `context`, `approve`; each may be absent), so that a
 * mistake is a TypeError naming `where` and the option when it is made, never a tool error a model
 * reads later. Other keys are left alone: check them with `checkKnownKeys`.
 */
export function checkCallOptions(where: string, options: Readonly<Record<string, unknown>>): void {
  const { ambientContext, container, signal, context, approve, resolver } = options;
  checkResolver(where, resolver);
  checkCallContext(context, where);
  if (approve !== undefined && typeof approve !== 'function') {
    throw new DeclarationError(
      `${where}: 'approve' must be a function (call) => boolean | { approved, reason }; got ${describeValue(approve)}.`,
    );
  }
  if (ambientContext !== undefined && (typeof ambientContext !== 'object' || ambientContext === null || Array.isArray(ambientContext))) {
    throw new DeclarationError(
      `${where}: 'ambientContext' must be a Map or an object keyed by ambient key; got ${describeValue(ambientContext)}.`,
    );
  }
  if (
    container !== undefined &&
    (typeof container !== 'object' || container === null || typeof (container as { resolve?: unknown }).resolve !== 'function')
  ) {
    throw new DeclarationError(`${where}: 'container' must be a tsyringe DependencyContainer; got ${describeValue(container)}.`);
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new DeclarationError(`${where}: 'signal' must be an AbortSignal; got ${describeValue(signal)}.`);
  }
}
