/**
 * The first look at a caller's arguments, before any step that recurses on them (coercion, ajv,
 * class-validator, instantiation): one iterative walk that bounds their depth and refuses text
 * that is not valid Unicode. Everything after it may recurse, because nothing it sees is deeper
 * than the limit.
 */
import type { FieldError } from '../errors/errors';
import { shorten } from '../util/limits';

const UNPAIRED = 'an unpaired UTF-16 surrogate, which is not valid Unicode text';

/**
 * Past this many objects and arrays, the walk remembers how deep it reached each one. JSON text
 * is a tree and never needs it; an in-process caller may share one object many times over (or
 * build a cycle), and only this bounds the walk then.
 */
const REMEMBER_AFTER = 1_000;

function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** One object or array still to look into. `path` is built only when a problem needs naming. */
interface Pending {
  readonly value: object;
  /** 1 for the arguments object itself, one more for each object or array inside. */
  readonly depth: number;
  readonly parent: Pending | undefined;
  readonly key: string | number | undefined;
}

/** `address.lines[2]` (caller keys shortened: the path goes into a message). */
function pathOf(at: Pending | undefined, key?: string | number): string {
  const segments: Array<string | number> = key === undefined ? [] : [key];
  for (; at?.key !== undefined; at = at.parent) segments.push(at.key);
  let path = '';
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i];
    path = typeof segment === 'number' ? `${path}[${segment}]` : path ? `${path}.${shorten(segment)}` : shorten(segment);
  }
  return path;
}

/**
 * The first problem with the shape of the arguments, or undefined: a value nested deeper than
 * `maxDepth` objects and arrays (counting the arguments object), or a key or string with an
 * unpaired UTF-16 surrogate (JSON carries one as "\ud800"; it is not Unicode, and no answer could
 * echo it). Iterative: the depth of the input never reaches the stack.
 */
export function inputShapeProblem(args: object, maxDepth: number): FieldError | undefined {
  const stack: Pending[] = [{ value: args, depth: 1, parent: undefined, key: undefined }];
  let walked = 0;
  let reached: Map<object, number> | undefined;
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    const container = at.value;
    const isArray = Array.isArray(container);
    const keys = isArray ? undefined : Object.keys(container);
    const length = isArray ? (container as unknown[]).length : keys!.length;
    for (let i = 0; i < length; i++) {
      let item: unknown;
      let key: string | number;
      if (isArray) {
        key = i;
        item = (container as unknown[])[i];
      } else {
        key = keys![i];
        if (!isWellFormed(key)) {
          const path = pathOf(at);
          return {
            field: path || 'base',
            message: `${path || 'the input'} has a key with ${UNPAIRED}`,
            keyword: 'unpairedSurrogate',
            params: {},
          };
        }
        item = (container as Record<string, unknown>)[key];
      }
      if (typeof item === 'string') {
        if (!isWellFormed(item)) {
          const path = pathOf(at, key);
          return { field: path, message: `${path} contains ${UNPAIRED}`, keyword: 'unpairedSurrogate', params: {} };
        }
      } else if (typeof item === 'object' && item !== null) {
        const depth = at.depth + 1;
        if (depth > maxDepth) {
          return {
            field: 'base',
            message: `the input is nested deeper than ${maxDepth} levels`,
            keyword: 'depth',
            params: { limit: maxDepth },
          };
        }
        if (++walked > REMEMBER_AFTER) {
          reached ??= new Map();
          const before = reached.get(item);
          if (before !== undefined && before >= depth) continue;
          reached.set(item, depth);
        }
        stack.push({ value: item, depth, parent: at, key });
      }
    }
  }
  return undefined;
}

/**
 * The compiled path's look at the same shape: true when `inputShapeProblem` would find nothing.
 * Recursive (the depth is bounded by `maxDepth` ≤ MAX_INPUT_DEPTH) and allocation-free; false on a
 * problem, or past REMEMBER_AFTER objects and arrays (shared or cyclic input), where the iterative
 * walk above decides and names the problem.
 */
export function inputShapeFine(args: object, maxDepth: number): boolean {
  let budget = REMEMBER_AFTER;
  const fine = (container: object, depth: number): boolean => {
    if (Array.isArray(container)) {
      for (let i = 0; i < container.length; i++) if (!itemFine(container[i], depth)) return false;
      return true;
    }
    const keys = Object.keys(container);
    for (let i = 0; i < keys.length; i++) {
      if (!isWellFormed(keys[i]) || !itemFine((container as Record<string, unknown>)[keys[i]], depth)) return false;
    }
    return true;
  };
  const itemFine = (item: unknown, depth: number): boolean => {
    if (typeof item === 'string') return isWellFormed(item);
    if (typeof item !== 'object' || item === null) return true;
    return depth < maxDepth && --budget > 0 && fine(item, depth + 1);
  };
  return fine(args, 1);
}
