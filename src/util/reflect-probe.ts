/**
 * What was already loaded when toolwright was first imported. This module has no imports and is
 * the first thing `src/index.ts` loads, before toolwright loads reflect-metadata itself, so that a
 * class without type metadata can be told apart: declared before any reflect-metadata existed
 * (the import came too late), or compiled without `emitDecoratorMetadata`.
 */
const reflect = Reflect as unknown as { getMetadata?: unknown };

/** Was reflect-metadata (or another Reflect.metadata polyfill) loaded before toolwright? */
export const reflectMetadataLoadedBefore = typeof reflect.getMetadata === 'function';

/** The classes class-validator already knew before toolwright was loaded (when it can tell). */
const storage = (globalThis as { classValidatorMetadataStorage?: { validationMetadatas?: unknown } }).classValidatorMetadataStorage;
const early = storage?.validationMetadatas instanceof Map ? new Set<unknown>(storage.validationMetadatas.keys()) : undefined;

/**
 * Could this class have been declared before any Reflect.metadata existed? True when toolwright
 * loaded reflect-metadata itself and the class was known to class-validator before that, or when
 * that cannot be told.
 */
export function declaredBeforeReflectMetadata(target: Function): boolean {
  if (reflectMetadataLoadedBefore) return false;
  return early === undefined || early.has(target);
}
