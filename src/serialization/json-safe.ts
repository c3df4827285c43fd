/**
 * Generic JSON-safe rendering: the walk state (path, depth, cycle tracking, refusals), the renderers
 * of values with no declared shape, and the scalar renderers the contract renderers share. What it
 * returns survives JSON.stringify/JSON.parse unchanged; what has no honest JSON form is refused.
 */
import { FieldError, UnserializableValueError } from '../errors/errors';
import { setOwn } from '../util/own-property';
import { isoString } from '../util/iso-date';

/** The options of `render(value, contract, { ... })`. */
export interface RenderOptions {
  /** Also refuse a class instance with no `toJSON` and no declared shape (default false). */
  rejectOpaque?: boolean;
}

/** What a walk produced: the JSON-safe value, and where (if anywhere) an opaque value was rendered generically. */
export interface Rendering {
  readonly value: unknown;
  readonly opaquePath?: string;
}

/** Deeper than this, a walk is re-run with exact cycle tracking (a cycle only ever shows as depth). */
const CYCLE_SUSPICION_DEPTH = 200;

/** Deeper than this, a value is refused: rendering it (and any client parsing it) would exhaust the stack. */
export const MAX_RENDER_DEPTH = 1_000;

export class State {
  readonly stack: Array<string | number> = [];
  readonly mismatches: FieldError[] = [];
  opaquePath?: string;
  depth = 0;
  /** Objects on the current path, tracked only in the exact (second) walk. */
  ancestors?: Set<object>;
  /** Who returned the value (`approve_loan (ApproveLoan)`), for reports. */
  who?: () => string;

  constructor(readonly rejectOpaque: boolean) {}

  path(suffix = ''): string {
    let path = '';
    for (const key of this.stack) path = typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    return (path || 'value') + suffix;
  }

  refuse(what: string, suffix = ''): never {
    const path = this.path(suffix);
    throw new UnserializableValueError(`${path} ${what}, which has no JSON form.`, path);
  }

  /** The path of a too-deep value would be a thousand segments long: name its start only. */
  refuseDeep(): never {
    const start = new State(this.rejectOpaque);
    start.stack.push(...this.stack.slice(0, 3));
    const path = start.path();
    throw new UnserializableValueError(`${path}… is nested deeper than ${MAX_RENDER_DEPTH} levels, which no JSON answer should be.`, path);
  }

  mismatch(message: string, keyword: string, params: Readonly<Record<string, unknown>> = {}): undefined {
    this.mismatches.push({ field: this.path(), message, keyword, params });
    return undefined;
  }

  enter(value: object): void {
    if (++this.depth > CYCLE_SUSPICION_DEPTH && !this.ancestors) throw SUSPECTED_CYCLE;
    if (this.ancestors) {
      if (this.ancestors.has(value)) this.refuse('refers back to itself (a cycle)');
      if (this.depth > MAX_RENDER_DEPTH) this.refuseDeep();
      this.ancestors.add(value);
    }
  }

  leave(value: object): void {
    this.depth--;
    this.ancestors?.delete(value);
  }
}

const SUSPECTED_CYCLE = Symbol('suspected cycle');

export type Renderer = (value: unknown, state: State) => unknown;

/** A typed array (not a DataView); ArrayBuffer.isView also works across realms. */
export function isTypedArray(value: object): boolean {
  return ArrayBuffer.isView(value) && !(value instanceof DataView);
}

function wellFormed(text: string): boolean {
  return (
    (text as string & { isWellFormed?: () => boolean }).isWellFormed?.() ??
    !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)
  );
}

export function renderString(text: string, state: State): string {
  if (!wellFormed(text)) state.refuse('is a string with a lone UTF-16 surrogate');
  return text;
}

export function renderNumber(number: number, state: State): number {
  if (!Number.isFinite(number)) state.refuse(`is ${number}`);
  return number === 0 ? 0 : number; // -0 has no JSON form of its own: it reads back as 0
}

export function renderBigInt(big: bigint, state: State): number {
  if (big > BigInt(Number.MAX_SAFE_INTEGER) || big < BigInt(Number.MIN_SAFE_INTEGER)) {
    state.refuse(`is the BigInt ${big}, beyond the safe integer range (declare the field as a string to send it as text)`);
  }
  return Number(big);
}

export function renderDate(date: Date, state: State): string {
  if (Number.isNaN(date.getTime())) state.refuse('is an invalid Date');
  return isoString(date);
}

function isOpaque(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto !== null && proto !== Object.prototype && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/** The rendering of a value with no declared shape (free-form objects, values in them). */
export function renderGeneric(value: unknown, state: State): unknown {
  switch (typeof value) {
    case 'string':
      return renderString(value, state);
    case 'number':
      return renderNumber(value, state);
    case 'boolean':
      return value;
    case 'bigint':
      return renderBigInt(value, state);
    case 'undefined':
      return state.refuse('is undefined');
    case 'function':
      return state.refuse('is a function');
    case 'symbol':
      return state.refuse('is a symbol');
  }
  if (value === null) return null;
  const object = value as object;
  if (object instanceof Date) return renderDate(object, state);
  if (typeof (object as { toJSON?: unknown }).toJSON === 'function') {
    return renderGeneric((object as { toJSON: () => unknown }).toJSON(), state);
  }
  state.enter(object);
  let out: unknown;
  if (Array.isArray(object) || object instanceof Set || isTypedArray(object)) {
    out = renderList(object as Iterable<unknown>, renderGeneric, state);
  } else if (object instanceof Map) {
    out = renderMap(object, state);
  } else {
    if (isOpaque(object)) {
      if (state.rejectOpaque) {
        state.refuse(`is a ${object.constructor?.name ?? 'class'} instance with no toJSON() and no declared shape (rejectOpaque is on)`);
      }
      state.opaquePath ??= state.path();
    }
    const record: Record<string, unknown> = {};
    for (const key of Object.keys(object)) {
      const item = (object as Record<string, unknown>)[key];
      if (item === undefined) continue; // an absent property, as JSON has it
      if (!wellFormed(key)) state.refuse('has a key with a lone UTF-16 surrogate');
      state.stack.push(key);
      setOwn(record, key, renderGeneric(item, state));
      state.stack.pop();
    }
    out = record;
  }
  state.leave(object);
  return out;
}

export function renderList(list: Iterable<unknown>, item: Renderer, state: State): unknown[] {
  const out: unknown[] = [];
  let index = 0;
  for (const element of list) {
    state.stack.push(index++);
    out.push(item(element, state));
    state.stack.pop();
  }
  return out;
}

function renderMap(map: Map<unknown, unknown>, state: State): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [key, item] of map) {
    if (typeof key !== 'string' && typeof key !== 'number') state.refuse(`has a ${typeof key} key`, ' (map key)');
    const property = String(key);
    if (!wellFormed(property)) state.refuse('has a key with a lone UTF-16 surrogate', ' (map key)');
    if (Object.prototype.hasOwnProperty.call(record, property)) {
      state.refuse(`has two keys that render as the one property '${property}'`, ' (map key)');
    }
    if (item === undefined) continue;
    state.stack.push(property);
    setOwn(record, property, renderGeneric(item, state));
    state.stack.pop();
  }
  return record;
}

export function renderMapKeys(map: Map<unknown, unknown>, state: State): Array<[string, unknown]> {
  const seen = new Set<string>();
  const entries: Array<[string, unknown]> = [];
  for (const [key, item] of map) {
    const property = String(key);
    if (seen.has(property)) state.refuse(`has two keys that render as the one property '${property}'`, ' (map key)');
    seen.add(property);
    entries.push([property, item]);
  }
  return entries;
}

/**
 * Runs a walk; a walk that grew suspiciously deep is re-run with exact cycle tracking, which
 * either names the cycle or renders legitimately deep data.
 */
export function walk(options: RenderOptions, body: (state: State) => unknown): Rendering {
  const run = (exact: boolean): Rendering => {
    const state = new State(options.rejectOpaque === true);
    if (exact) state.ancestors = new Set();
    const value = body(state);
    return { value, opaquePath: state.opaquePath };
  };
  try {
    return run(false);
  } catch (error) {
    if (error !== SUSPECTED_CYCLE) throw error;
    return run(true);
  }
}

/** Renders a value that has no declared shape (a tool without @Exposes). */
export function renderLoose(value: unknown, options: RenderOptions = {}): Rendering {
  return walk(options, (state) => (value === undefined ? undefined : renderGeneric(value, state)));
}
