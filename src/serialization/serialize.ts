import { KEYS } from '../metadata/keys';
import { getFact } from '../metadata/site';
import { ToolDefinition } from '../registry/tool-definition';
import { Tools } from '../registry/tool-registry';
import type { Result } from '../invocation/result';
import { UnserializableValueError } from '../errors/errors';
import { renderContract } from './contract-renderer';
import { renderLoose, RenderOptions, Rendering } from './json-safe';

/**
 * Renders a value into a JSON-safe value against a contract: a DTO class, or a tool (its
 * `@Exposes` contract; a tool that exposes nothing has its value rendered without a shape).
 * Exactly the declared fields; refuses what has no honest JSON form (UnserializableValueError,
 * with `path`) and what breaks the contract (OutputContractError).
 */
export function render(value: unknown, contract: Function | ToolDefinition, options: RenderOptions = {}): unknown {
  return renderAgainst(value, contract, options).value;
}

function renderAgainst(value: unknown, contract: Function | ToolDefinition, options: RenderOptions): Rendering {
  const isTool =
    contract instanceof ToolDefinition || (typeof contract === 'function' && getFact(KEYS.exposes, { target: contract }) !== undefined);
  if (isTool) {
    const tool = Tools.resolve(contract);
    const output = tool.outputContract;
    return output ? renderContract(output.target, value, options, () => `${tool.toolName()} (${tool.id})`) : renderLoose(value, options);
  }
  if (typeof contract !== 'function') throw new TypeError('render: the contract must be a DTO class or a tool.');
  return renderContract(contract, value, options);
}

/**
 * The exposed values of a successful Result, JSON-safe, with `rejectOpaque` as given. Reuses the
 * rendering the invoker made when it checked the output, so a call's values are walked once.
 */
export function serializeResult(result: Result, rejectOpaque: boolean): unknown {
  if (!result.ok) {
    const what = result.outcome === 'exception' ? 'an exception' : 'a failure';
    throw new TypeError(`serializeExposed takes a successful Result; this one is ${what} ("${result.error}"). Map result.error instead.`);
  }
  const rendering = result.rendered ?? (result.rendered = renderAgainst(result.value, result.tool, {}));
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
