import { UnserializableValueError } from '../errors/errors';
import { renderingOf } from '../invocation/rendering';
import type { Result } from '../invocation/result';

/**
 * The exposed values of a successful Result, JSON-safe, with `rejectOpaque` as given. Reuses the
 * rendering the invoker made when it checked the output, so a call's values are walked once.
 */
export function serializeResult(result: Result, rejectOpaque: boolean): unknown {
  if (!result.ok) {
    const what = result.outcome === 'exception' ? 'an exception' : 'a failure';
    throw new TypeError(`serializeExposed takes a successful Result; this one is ${what} ("${result.error}"). Map result.error instead.`);
  }
  const rendering = renderingOf(result);
  if (rejectOpaque && rendering.opaquePath !== undefined) {
    const path = rendering.opaquePath;
    throw new UnserializableValueError(
      `${path} is a class instance with no toJSON() and no declared shape, and this tool refuses opaque values. ` +
        'Give the class a toJSON(), declare its shape, or allow opaque values for this tool.',
      path,
    );
  }
  return rendering.value;
}
