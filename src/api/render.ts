import { DeclarationError } from '../errors/declaration-errors';
import { KEYS } from '../metadata/keys';
import { getFact } from '../metadata/site';
import { ToolDefinition } from '../registry/tool-definition';
import { Tools } from '../registry/tool-registry';
import { renderToolValue } from '../invocation/rendering';
import { renderContract } from '../serialization/contract-renderer';
import type { RenderOptions } from '../serialization/json-safe';

/**
 * Renders a value into a JSON-safe value against a contract: a DTO class, or a tool (its
 * `@Exposes` contract; a tool that exposes nothing has its value rendered without a shape).
 * Exactly the declared fields; refuses what has no honest JSON form (UnserializableValueError,
 * with `path`) and what breaks the contract (OutputContractError).
 */
export function render(value: unknown, contract: Function | ToolDefinition, options: RenderOptions = {}): unknown {
  const isTool =
    contract instanceof ToolDefinition || (typeof contract === 'function' && getFact(KEYS.exposes, { target: contract }) !== undefined);
  if (isTool) return renderToolValue(Tools.resolve(contract), value, options).value;
  if (typeof contract !== 'function') throw new DeclarationError('render: the contract must be a DTO class or a tool.');
  return renderContract(contract, value, options).value;
}
