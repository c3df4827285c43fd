/**
 * Renders exposed values into a JSON-safe value: exactly the declared output fields, checked
 * against the contract as it goes, refusing what has no honest JSON form. Compiled once per
 * contract node; one walk both renders and checks, so whatever it accepts survives
 * JSON.stringify/JSON.parse unchanged and validates against the output schema.
 */
import { contractOf } from '../contract/build-contract';
import { describeMismatch } from '../contract/conforms';
import type { Contract, TypeNode } from '../contract/field-model';
import { messages } from '../contract/messages';
import { FieldError, OutputContractError, UnserializableValueError } from '../errors/errors';
import { isInlineShapeClass } from '../contract/tool-contracts';
import { warn } from '../util/warnings';

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

class State {
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

  mismatch(message: string): undefined {
    this.mismatches.push({ field: this.path(), message });
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

type Renderer = (value: unknown, state: State) => unknown;

/** A typed array (not a DataView); ArrayBuffer.isView also works across realms. */
function isTypedArray(value: object): boolean {
  return ArrayBuffer.isView(value) && !(value instanceof DataView);
}

function wellFormed(text: string): boolean {
  return (
    (text as string & { isWellFormed?: () => boolean }).isWellFormed?.() ??
    !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)
  );
}

function renderString(text: string, state: State): string {
  if (!wellFormed(text)) state.refuse('is a string with a lone UTF-16 surrogate');
  return text;
}

function renderNumber(number: number, state: State): number {
  if (!Number.isFinite(number)) state.refuse(`is ${number}`);
  return number === 0 ? 0 : number; // -0 has no JSON form of its own: it reads back as 0
}

function renderBigInt(big: bigint, state: State): number {
  if (big > BigInt(Number.MAX_SAFE_INTEGER) || big < BigInt(Number.MIN_SAFE_INTEGER)) {
    state.refuse(`is the BigInt ${big}, beyond the safe integer range (declare the field as a string to send it as text)`);
  }
  return Number(big);
}

function renderDate(date: Date, state: State): string {
  if (Number.isNaN(date.getTime())) state.refuse('is an invalid Date');
  return date.toISOString();
}

function isOpaque(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto !== null && proto !== Object.prototype && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/** The rendering of a value with no declared shape (free-form objects, values in them). */
function renderGeneric(value: unknown, state: State): unknown {
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
      record[key] = renderGeneric(item, state);
      state.stack.pop();
    }
    out = record;
  }
  state.leave(object);
  return out;
}

function renderList(list: Iterable<unknown>, item: Renderer, state: State): unknown[] {
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
    record[property] = renderGeneric(item, state);
    state.stack.pop();
  }
  return record;
}

const cache = new WeakMap<TypeNode, Renderer>();

/** A node's renderer: checks the value against the node while rendering it. */
function nodeRenderer(node: TypeNode): Renderer {
  const cached = cache.get(node);
  if (cached) return cached;
  let renderer: Renderer = () => undefined;
  // Registered before it is built, so a recursive contract finds its own renderer.
  cache.set(node, (value, state) => renderer(value, state));
  renderer = buildRenderer(node);
  cache.set(node, renderer);
  return renderer;
}

function buildRenderer(node: TypeNode): Renderer {
  const needsLeafCheck = node.enum !== undefined || node.constraints.length > 0 || (node.kind === 'string' && node.format !== undefined);
  const leaf = (value: unknown, state: State): unknown => {
    if (needsLeafCheck) {
      const problem = describeMismatch(node, value, state.path());
      if (problem) return state.mismatch(problem);
    }
    return value;
  };
  const typeMismatch = (value: unknown, state: State) => state.mismatch(node.typeMessage(state.path(), value));
  const withJson =
    (render: Renderer): Renderer =>
    (value, state) => {
      if (
        typeof value === 'object' &&
        value !== null &&
        !(value instanceof Date) &&
        typeof (value as { toJSON?: unknown }).toJSON === 'function'
      ) {
        return render((value as { toJSON: () => unknown }).toJSON(), state);
      }
      return render(value, state);
    };
  switch (node.kind) {
    case 'string':
      return withJson((value, state) => {
        if (typeof value === 'string') return leaf(renderString(value, state), state);
        if (typeof value === 'bigint') return leaf(value.toString(), state); // a BigInt declared as a string
        return typeMismatch(value, state);
      });
    case 'number':
    case 'integer': {
      const integer = node.kind === 'integer';
      return withJson((value, state) => {
        let number: number;
        if (typeof value === 'number') number = renderNumber(value, state);
        else if (typeof value === 'bigint') number = renderBigInt(value, state);
        else return typeMismatch(value, state);
        if (integer && !Number.isInteger(number)) return typeMismatch(value, state);
        return leaf(number, state);
      });
    }
    case 'boolean':
      return withJson((value, state) => (typeof value === 'boolean' ? leaf(value, state) : typeMismatch(value, state)));
    case 'date':
      return (value, state) => {
        if (value instanceof Date) return renderDate(value, state);
        // A string stands for a date only when it is an ISO-8601 date-time, as the schema says.
        if (typeof value === 'string') return describeMismatch(node, value) ? typeMismatch(value, state) : renderString(value, state);
        return typeMismatch(value, state);
      };
    case 'enum':
      return withJson((value, state) => {
        const rendered =
          typeof value === 'bigint' ? renderBigInt(value, state) : typeof value === 'string' ? renderString(value, state) : value;
        return leaf(rendered, state);
      });
    case 'record':
      return (value, state) => {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return typeMismatch(value, state);
        const rendered = renderGeneric(value, state);
        // A Set, a typed array or a toJSON() may render as something other than an object.
        if (typeof rendered !== 'object' || rendered === null || Array.isArray(rendered)) return typeMismatch(value, state);
        return leaf(rendered, state);
      };
    case 'array': {
      const item = nodeRenderer(node.items!);
      return withJson((value, state) => {
        if (!(Array.isArray(value) || value instanceof Set || (typeof value === 'object' && value !== null && isTypedArray(value))))
          return typeMismatch(value, state);
        state.enter(value as object);
        const out = renderList(value as Iterable<unknown>, item, state);
        state.leave(value as object);
        return leaf(out, state);
      });
    }
    case 'object': {
      const target = node.target!;
      let render: ((value: object, state: State) => unknown) | undefined;
      return withJson((value, state) => {
        if (value instanceof Map) value = Object.fromEntries(renderMapKeys(value, state));
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return typeMismatch(value, state);
        render ??= contractRenderer(contractOf(target));
        return render(value, state);
      });
    }
    case 'union': {
      const members = node.members!.map(nodeRenderer);
      return (value, state) => {
        for (const member of members) {
          const before = state.mismatches.length;
          const out = member(value, state);
          if (state.mismatches.length === before) return out;
          state.mismatches.length = before;
        }
        return typeMismatch(value, state);
      };
    }
  }
}

function renderMapKeys(map: Map<unknown, unknown>, state: State): Array<[string, unknown]> {
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

const contractRenderers = new WeakMap<Contract, (value: object, state: State) => unknown>();

/** Renders exactly the declared fields of a contract from an object (built once per contract). */
function contractRenderer(contract: Contract): (value: object, state: State) => unknown {
  let renderer = contractRenderers.get(contract);
  if (!renderer) contractRenderers.set(contract, (renderer = buildContractRenderer(contract)));
  return renderer;
}

/** At most this many undeclared keys are reported per contract and tool (a value keyed by ids must not flood). */
export const UNDECLARED_KEY_REPORTS = 50;

const reportedKeys = new WeakMap<Contract, Map<string, Set<string>>>();

/**
 * Reports the keys of `source` that the contract does not declare (they stay out of the response),
 * each once per tool and contract. Only runs when a value has more keys than declared fields.
 */
function reportUndeclared(contract: Contract, declared: ReadonlySet<string>, source: Record<string, unknown>, state: State): void {
  let undeclared: string[] | undefined;
  for (const key of Object.keys(source)) if (!declared.has(key) && source[key] !== undefined) (undeclared ??= []).push(key);
  if (undeclared === undefined) return;
  let byTool = reportedKeys.get(contract);
  if (!byTool) reportedKeys.set(contract, (byTool = new Map()));
  const subject = state.who?.() ?? `render(value, ${contract.name})`;
  let reported = byTool.get(subject);
  if (!reported) byTool.set(subject, (reported = new Set()));
  if (reported.size > UNDECLARED_KEY_REPORTS) return;
  const at = state.stack.length > 0 ? ` at ${state.path()}` : '';
  const inline = isInlineShapeClass(contract.target);
  for (const key of undeclared) {
    if (reported.has(key)) continue;
    reported.add(key);
    const tool = state.who ? subject.split(' ')[0] : undefined; // a tool name has no spaces
    if (reported.size > UNDECLARED_KEY_REPORTS) {
      warn({
        code: 'TOOLWRIGHT_UNDECLARED_OUTPUT_KEY',
        tool,
        message: `toolwright: ${subject} returned more than ${UNDECLARED_KEY_REPORTS} keys that ${contract.name} does not declare; further ones are not reported.`,
      });
      return;
    }
    const fix = inline
      ? `add '${key}' to the tool's @Exposes shape`
      : `declare it with @Field() on ${contract.name}.${key} (a property without a decorator is invisible at run time)`;
    warn({
      code: 'TOOLWRIGHT_UNDECLARED_OUTPUT_KEY',
      tool,
      key,
      message:
        `toolwright: ${subject} returned key '${key}'${at}, which its contract ${contract.name} does not declare, so it is left out ` +
        `of the response. To expose it, ${fix}; otherwise stop returning it.`,
    });
  }
}

/** Does a plain object have more than `count` keys? Counts without allocating, stops early. */
function moreKeysThan(source: object, count: number): boolean {
  let keys = 0;
  for (const _key in source) if (++keys > count) return true;
  return false;
}

function buildContractRenderer(contract: Contract): (value: object, state: State) => unknown {
  const fields = contract.fields.map((field) => ({
    name: field.name,
    render: nodeRenderer(field.type),
    optional: field.optional,
    nullable: field.nullable,
  }));
  const declared = new Set(contract.fields.map((field) => field.name));
  return (value, state) => {
    state.enter(value);
    const out: Record<string, unknown> = {};
    const source = value as Record<string, unknown>;
    // A plain object has only own properties: more keys than declared fields present means some
    // key is undeclared. Any other object (a class instance, with getters) is checked key by key.
    const plain = Object.getPrototypeOf(source) === Object.prototype;
    let present = 0;
    for (const field of fields) {
      const item = source[field.name];
      state.stack.push(field.name);
      if (item === undefined) {
        if (!field.optional) state.mismatch(messages.required(state.path(), undefined));
      } else if (item === null) {
        present++;
        if (field.nullable) out[field.name] = null;
        else state.mismatch(`${state.path()} is null, and the field is not nullable`);
      } else {
        present++;
        const rendered = field.render(item, state);
        if (rendered !== undefined) out[field.name] = rendered;
      }
      state.stack.pop();
    }
    if (!plain || moreKeysThan(source, present)) reportUndeclared(contract, declared, source, state);
    state.leave(value);
    return out;
  };
}

/**
 * Runs a walk; a walk that grew suspiciously deep is re-run with exact cycle tracking, which
 * either names the cycle or renders legitimately deep data.
 */
function walk(options: RenderOptions, body: (state: State) => unknown): Rendering {
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

/**
 * Renders a value against a contract class (its output direction): exactly its declared fields,
 * JSON-safe. Throws UnserializableValueError for a value with no honest JSON form and
 * OutputContractError when the value breaks the contract.
 */
export function renderContract(target: Function, value: unknown, options: RenderOptions = {}, who?: () => string): Rendering {
  const contract = contractOf(target);
  return walk(options, (state) => {
    state.who = who;
    let out: unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      state.mismatch(
        `the value must be an object with the fields of ${contract.name}; got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`,
      );
    } else {
      const source = typeof (value as { toJSON?: unknown }).toJSON === 'function' ? (value as { toJSON: () => unknown }).toJSON() : value;
      out = contractRenderer(contract)(source as object, state);
    }
    if (state.mismatches.length > 0) {
      const list = state.mismatches
        .slice(0, 10)
        .map((m) => m.message)
        .join('; ');
      throw new OutputContractError(
        `${who?.() ?? contract.name} returned a value that breaks its @Exposes contract (${contract.name}): ${list}.`,
        state.mismatches,
      );
    }
    return out;
  });
}
