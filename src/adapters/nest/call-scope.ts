/**
 * Nest's context of one call (a `ContextId`), as Nest's router makes one per request for a
 * request-scoped controller: the context of the call's platform request, registered as `REQUEST`,
 * shared by the member's instance (./resolver.ts) and its guards and interceptors (./enhancers.ts).
 */
import type { ApplicationConfig, ContextId, DiscoveryService, ModuleRef } from '@nestjs/core';
import { ContextIdFactory } from '@nestjs/core';
// Nest 11 and 12 both ship these files (12 also re-exports Injector from '@nestjs/core/internal').
import { Injector } from '@nestjs/core/injector/injector.js';
import { REQUEST_CONTEXT_ID } from '@nestjs/core/router/request/request-constants.js';

/** A provider as Nest's DiscoveryService lists it. */
export type ProviderWrapper = ReturnType<DiscoveryService['getProviders']>[number];

/** The context a member's request-scoped enhancers are made in for one call, and the member that asks for them. */
export interface CallScope {
  readonly contextId: ContextId;
  readonly inquirerId: string;
}

/**
 * The context of the call carried by `request`: the one Nest stamped on it (as its router does), or
 * a new one, stamped and with `request` registered as its `REQUEST`; without a request, a new one.
 */
export function callContextId(moduleRef: ModuleRef, request: object | undefined): ContextId {
  if (!request) return ContextIdFactory.create();
  const stamped = (request as Record<symbol, ContextId | undefined>)[REQUEST_CONTEXT_ID];
  if (stamped) return stamped;
  const contextId = ContextIdFactory.getByRequest(request);
  Object.defineProperty(request, REQUEST_CONTEXT_ID, { value: contextId, enumerable: false, writable: false, configurable: false });
  moduleRef.registerRequestByContextId(request, contextId);
  return contextId;
}

/**
 * For a member's provider whose enhancers cannot be made once (its dependency tree is not static:
 * a request-scoped guard or interceptor, or one injecting `REQUEST` or a request-scoped provider;
 * or the application has request-scoped global enhancers), what makes them for a call: the provider
 * and its enhancers are loaded in the call's context by Nest's injector, as Nest's router loads a
 * request-scoped controller's (transient enhancers are then made for the call too). Undefined for
 * the others, whose enhancers are made once.
 */
export function enhancerScopes(
  moduleRef: ModuleRef,
  config: ApplicationConfig,
  wrappers: ReadonlyMap<Function, ProviderWrapper>,
): (target: Function) => ((request: object | undefined) => Promise<CallScope>) | undefined {
  const injector = new Injector();
  return (target) => {
    const wrapper = wrappers.get(target);
    const module = wrapper?.host;
    if (!wrapper || !module) return undefined;
    // Nest adds request-scoped global enhancers to controllers only: loaded here with the member's own.
    const global = [...config.getGlobalRequestGuards(), ...config.getGlobalRequestInterceptors(), ...config.getGlobalRequestFilters()];
    if (wrapper.isDependencyTreeStatic() && global.length === 0) return undefined;
    return async (request) => {
      const contextId = callContextId(moduleRef, request);
      await injector.loadPerContext(wrapper.instance as object, module, module.providers, contextId, wrapper);
      if (global.length > 0) {
        await injector.loadEnhancersPerContext({ getEnhancersMetadata: () => global } as unknown as ProviderWrapper, contextId, wrapper);
      }
      return { contextId, inquirerId: wrapper.id };
    };
  };
}
