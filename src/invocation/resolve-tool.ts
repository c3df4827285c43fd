import 'reflect-metadata';
import { container as rootContainer, DependencyContainer, injectable } from 'tsyringe';
import { ToolResolutionError } from '../errors/errors';
import { failingDependency } from '../interop/tsyringe';
import { Tools, ToolLike } from '../registry/tool-registry';
import { ToolDefinition } from '../registry/tool-definition';

const madeInjectable = new WeakSet<Function>();

/**
 * tsyringe constructs a class with constructor parameters only when it knows their types. A tool
 * class always carries a decorator, so its `design:paramtypes` exist; record them once, so a tool
 * resolves with or without its own `@injectable()` (re-recording an injectable class is harmless).
 */
function ensureInjectable(target: Function): void {
  if (madeInjectable.has(target)) return;
  madeInjectable.add(target);
  // Inherited parameter types count: a subclass without its own constructor takes its parent's.
  const paramTypes: unknown[] | undefined = Reflect.getMetadata('design:paramtypes', target);
  if (paramTypes !== undefined && paramTypes.length > 0) {
    injectable()(target as new (...args: unknown[]) => unknown);
  }
}

/**
 * Resolves the instance a tool runs on: the tool class, or the service class of a method tool
 * (respecting how it is registered, e.g. as a singleton). Pass a child container to override
 * registrations for one call.
 */
export function resolveTool(tool: ToolLike, container: DependencyContainer = rootContainer): object {
  const definition: ToolDefinition = tool instanceof ToolDefinition ? tool : Tools.describe(tool);
  const target = definition.target;
  ensureInjectable(target);
  try {
    return container.resolve(target as new (...args: unknown[]) => object);
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    const dependency = failingDependency(message);
    const what =
      dependency === 'Object'
        ? 'a dependency typed as an interface or union (reflected as Object); inject it with @inject(token)'
        : dependency
          ? `dependency ${dependency}; register it in the container or mark it @injectable()`
          : 'its constructor failed';
    throw new ToolResolutionError(`${definition.toolName()} (${definition.id}) could not be resolved: ${what}.\n${message}`, dependency, {
      cause: error,
    });
  }
}
