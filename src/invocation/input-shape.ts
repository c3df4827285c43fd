/**
 * The first look at a caller's arguments, before any step that recurses on them (coercion, ajv,
 * class-validator, instantiation): one iterative walk that bounds their depth and refuses text
 * that is not valid Unicode. Everything after it may recurse, because nothing it sees is deeper
 * than the limit.
 */
import type { FieldError } from '../errors/errors';
import { shorten } from '../util/limits';

interface Frame {
  readonly value: object;
  /** 1 for the arguments object itself, one more for each object or array inside. */
  readonly depth: number;
  readonly parent?: Frame;
  readonly key?: string | number;
}

/** `address.lines[2]`, from the frames (caller keys shortened: the path goes into a message). */
function pathOf(frame: Frame, key?: string | number): string {
  const segments: Array<string | number> = key === undefined ? [] : [key];
  for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) segments.push(at.key);
  let path = '';
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i];
    path = typeof segment === 'number' ? `${path}[${segment}]` : path ? `${path}.${shorten(segment)}` : shorten(segment);
  }
  return path;
}

const UNPAIRED = 'an unpaired UTF-16 surrogate, which is not valid Unicode text';

function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/**
 * The first problem with the shape of the arguments, or undefined: a value nested deeper than
 * `maxDepth` objects and arrays (counting the arguments object), or a key or string with an
 * unpaired UTF-16 surrogate (JSON can carry one as "\ud800"; it has no Unicode form, and a tool
 * echoing it could not answer). Iterative: the depth of the input never reaches the stack.
 */
export function inputShapeProblem(args: object, maxDepth: number): FieldError | undefined {
  const stack: Frame[] = [{ value: args, depth: 1 }];
  // The deepest each object was reached at: an in-process caller may share objects or build
  // cycles, and a walk that revisits them is bounded only with this (JSON text cannot do either).
  let reached: Map<object, number> | undefined;
  let frame: Frame | undefined;
  const visit = (item: unknown, key: string | number): FieldError | undefined => {
    if (typeof item === 'string') {
      if (isWellFormed(item)) return undefined;
      const path = pathOf(frame!, key);
      return { field: path, message: `${path} contains ${UNPAIRED}` };
    }
    if (typeof item !== 'object' || item === null) return undefined;
    const depth = frame!.depth + 1;
    if (depth > maxDepth) return { field: 'base', message: `the input is nested deeper than ${maxDepth} levels` };
    reached ??= new Map();
    const before = reached.get(item);
    if (before !== undefined && before >= depth) return undefined;
    reached.set(item, depth);
    stack.push({ value: item, depth, parent: frame, key });
    return undefined;
  };
  while ((frame = stack.pop()) !== undefined) {
    const value = frame.value;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const problem = visit(value[i], i);
        if (problem) return problem;
      }
      continue;
    }
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (!isWellFormed(key)) {
        const path = pathOf(frame);
        return { field: path || 'base', message: `${path || 'the input'} has a key with ${UNPAIRED}` };
      }
      const problem = visit((value as Record<string, unknown>)[key], key);
      if (problem) return problem;
    }
  }
  return undefined;
}
