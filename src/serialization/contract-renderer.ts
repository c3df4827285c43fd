/**
 * Renders exposed values into a JSON-safe value: exactly the declared output fields, checked
 * against the contract as it goes, refusing what has no honest JSON form. Compiled once per
 * contract node; one walk (./json-safe.ts) both renders and checks, so whatever it accepts
 * survives JSON.stringify/JSON.parse unchanged and validates against the output schema.
 */
import { contractOf } from '../contract/build-contract';
import { mismatchDetail, mismatchOf } from '../contract/conforms';
import type { Contract, TypeNode } from '../contract/field-model';
import { messages } from '../contract/messages';
import { OutputContractError } from '../errors/errors';
import { isInlineShapeClass } from '../contract/tool-contracts';
import { setOwn } from '../util/own-property';
import { warn } from '../util/warnings';
import {
  isTypedArray,
  renderBigInt,
  renderDate,
  renderGeneric,
  renderList,
  renderMapKeys,
  Renderer,
  RenderOptions,
  Rendering,
  renderNumber,
  renderString,
  State,
  walk,
} from './json-safe';

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
      const problem = mismatchDetail(node, value, state.path());
      if (problem) return state.mismatch(problem.message, problem.keyword, problem.params);
    }
    return value;
  };
  const typeMismatch = (value: unknown, state: State) => state.mismatch(node.typeMessage(state.path(), value), 'type');
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
        if (typeof value === 'string') return mismatchOf(node, value) ? typeMismatch(value, state) : renderString(value, state);
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
        if (!field.optional) state.mismatch(messages.required(state.path(), undefined), 'required');
      } else if (item === null) {
        present++;
        if (field.nullable) setOwn(out, field.name, null);
        else state.mismatch(`${state.path()} is null, and the field is not nullable`, 'type');
      } else {
        present++;
        const rendered = field.render(item, state);
        if (rendered !== undefined) setOwn(out, field.name, rendered);
      }
      state.stack.pop();
    }
    if (!plain || moreKeysThan(source, present)) reportUndeclared(contract, declared, source, state);
    state.leave(value);
    return out;
  };
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
        'type',
        { type: 'object' },
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
