/**
 * What was already loaded when toolwright was first imported. This module has no imports and is
 * the first thing `src/index.ts` loads, before toolwright loads reflect-metadata itself, so that a
 * class without type metadata can be told apart: declared before any reflect-metadata existed
 * (the import came too late), or compiled without `emitDecoratorMetadata`.
 */
const reflect = Reflect as unknown as { getMetadata?: unknown };

/** Was reflect-metadata (or another Reflect.metadata polyfill) loaded before toolwright? */
export const reflectMetadataLoadedBefore = typeof reflect.getMetadata === 'function';

/**
 * The classes class-validator already knew before toolwright was loaded: none when it had no
 * storage yet (no class-validator decorator had run), `unknown` when its storage cannot be read.
 * Reads the global storage and its private `validationMetadatas` Map directly, without loading
 * class-validator; supported versions and fallback as in ./class-validator.ts.
 */
const storage = (globalThis as { classValidatorMetadataStorage?: { validationMetadatas?: unknown } }).classValidatorMetadataStorage;
const early: ReadonlySet<unknown> | 'unknown' =
  storage === undefined
    ? new Set()
    : storage.validationMetadatas instanceof Map
      ? new Set<unknown>(storage.validationMetadatas.keys())
      : 'unknown';

/**
 * Could this class have been declared before any Reflect.metadata existed? Only when toolwright
 * loaded reflect-metadata itself, and class-validator knew the class before that (or cannot say).
 * A class with toolwright's own decorators was necessarily declared after toolwright was loaded.
 */
export function declaredBeforeReflectMetadata(target: Function): boolean {
  if (reflectMetadataLoadedBefore) return false;
  return early === 'unknown' || early.has(target);
}
