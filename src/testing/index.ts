/**
 * `toolwright/testing`: helpers for people testing their own tools. Imports only the public core.
 *
 * @module toolwright/testing
 */
import { ToolRegistry, RegistryOptions } from '../index';

/** The options of `isolatedRegistry({ ... })`: a registry's options and the adapters to register on it. */
export interface IsolatedRegistryOptions extends Omit<RegistryOptions, 'isolated'> {
  /** Adapter keys to register on the new registry (default `mcp` and `openai`). */
  adapters?: readonly string[];
}

/**
 * A registry that sees only classes decorated after it was created, with the given adapters
 * registered. Create one per test (in `beforeEach`) and classes declared inside one test never
 * change what another test enumerates.
 */
export function isolatedRegistry(options: IsolatedRegistryOptions = {}): ToolRegistry {
  const { adapters = ['mcp', 'openai'], ...rest } = options;
  const registry = new ToolRegistry({ ...rest, isolated: rest.tools === undefined });
  for (const key of adapters) registry.registerAdapter(key);
  return registry;
}
