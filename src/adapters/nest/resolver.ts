import type { ModuleRef } from '@nestjs/core';
import { ToolResolutionError, type ResolveCall, type ToolResolver } from '../../index';
import { currentPlatformRequest } from './request-scope';
import { callContextId } from './call-scope';

/** A discovered provider: the instance Nest made when its scope is static, else resolved per call. */
export interface NestProvider {
  readonly static: boolean;
  readonly instance: object | undefined;
}

/**
 * Resolves members through Nest's container: a singleton provider is the instance Nest made; a
 * request-scoped or transient one is resolved per call (`ModuleRef.resolve`) in the context of the
 * call's platform request, registered as `REQUEST` (the context its guards and interceptors are made
 * in too, ./call-scope.ts).
 */
export class NestResolver implements ToolResolver {
  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly providers: ReadonlyMap<Function, NestProvider>,
  ) {}

  resolve(target: Function, call: ResolveCall): object | Promise<object> {
    const provider = this.providers.get(target);
    if (!provider) {
      throw new ToolResolutionError(
        `${call.definition.toolName()} (${call.definition.id}) could not be resolved: ${target.name} is not a provider of the Nest application; add it to a module's providers.`,
        target.name,
      );
    }
    if (provider.static && provider.instance !== undefined) return provider.instance;
    const request =
      currentPlatformRequest(call.request) ??
      (call.transport === 'http' && typeof call.request === 'object' ? (call.request as object) : undefined);
    return this.moduleRef.resolve(target as never, callContextId(this.moduleRef, request), { strict: false }) as Promise<object>;
  }
}
