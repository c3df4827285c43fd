import { raisesInDevelopment, reportException } from '../invocation/toolwright-config';
import { Tools, ToolLike } from '../registry/tool-registry';

/** What a client reads when an adapter's response mapping fails: the same words on every transport. */
export const MAPPING_FAILURE = 'The tool could not produce a valid response';

/**
 * Runs an adapter's response mapping (serialization, building the transport's response). On an
 * exception it reports once through `onException`, re-throws when NODE_ENV is `development` so a
 * real bug surfaces, and otherwise returns `onError(error)`: the adapter's own transport error.
 * Wrap the mapping only, never the tool call (the invoker already reports the call's exceptions).
 */
export function guardToolResponse<T, E = T>(tool: ToolLike, map: () => T, onError: (error: unknown) => E): T | E {
  const definition = Tools.resolve(tool);
  const handle = (error: unknown): E => {
    reportException(error, { tool: definition });
    if (raisesInDevelopment()) throw error;
    return onError(error);
  };
  let mapped: T;
  try {
    mapped = map();
  } catch (error) {
    return handle(error);
  }
  if (mapped && typeof (mapped as { then?: unknown }).then === 'function') {
    return (mapped as unknown as Promise<T>).then(undefined, handle) as unknown as T | E;
  }
  return mapped;
}
