import 'reflect-metadata';
import { container as rootContainer, DependencyContainer, injectable } from 'tsyringe';
import { ToolResolutionError } from '../errors/errors';
import { DeclarationError } from '../errors/declaration-errors';
import { failingDependency } from '../interop/tsyringe';
import { Tools, ToolLike } from '../registry/tool-registry';
import { ToolDefinition } from '../registry/tool-definition';
import { describeValue } from '../util/describe-value';
import type { ResolveCall, ToolResolver } from './resolver';

export type { DependencyContainer } from 'tsyringe';

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

function isContainer(value: unknown): value is DependencyContainer {
  return typeof value === 'object' && value !== null && typeof (value as { resolve?: unknown }).resolve === 'function';
}

/**
 * The default resolver: tsyringe. A call's own `container` (a child container, as the MCP server
 * makes per call) wins; else `container`; else tsyringe's root container.
 */
export function tsyringeResolver(container?: DependencyContainer): ToolResolver {
  if (container !== undefined && !isContainer(container)) {
    throw new DeclarationError(`tsyringeResolver: 'container' must be a tsyringe DependencyContainer; got ${describeValue(container)}.`);
  }
  return {
    resolve(_target: Function, call: ResolveCall): object {
      return resolveTool(call.definition, isContainer(call.container) ? call.container : (container ?? rootContainer));
    },
  };
}

/** The resolver of invokers given neither `resolver` nor `container`: tsyringe's root container. */
export const defaultResolver: ToolResolver = Object.freeze(tsyringeResolver());

/** Checks a `resolver` option: an object with a `resolve(target, call)` method. */
export function checkResolver(where: string, resolver: unknown): void {
  if (
    resolver !== undefined &&
    (typeof resolver !== 'object' || resolver === null || typeof (resolver as { resolve?: unknown }).resolve !== 'function')
  ) {
    throw new DeclarationError(
      `${where}: 'resolver' must be an object with a resolve(target, call) method (a ToolResolver); got ${describeValue(resolver)}.`,
    );
  }
}

/** A resolver's failure, as the call reports it: a ToolResolutionError naming the member. */
export function resolutionFailure(definition: ToolDefinition, error: unknown): unknown {
  if (error instanceof ToolResolutionError) return error;
  const message = (error as Error)?.message ?? String(error);
  return new ToolResolutionError(
    `${definition.toolName()} (${definition.id}) could not be resolved by the resolver: ${message}`,
    undefined,
    {
      cause: error,
    },
  );
}
