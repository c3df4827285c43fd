/**
 * Every read of class-validator's internals, in one place. contract/sources/class-validator.ts
 * interprets what these return; nothing else reaches past class-validator's public API.
 *
 * Supported: class-validator 0.14.0 to 0.15.x (`SUPPORTED_VERSIONS`, checked against the installed
 * copy by test/interop/class-validator.test.ts). Re-check this file when that range changes.
 * - `validationMetadatas`: the storage's private Map of metadata by class (0.14.0 onwards). When it
 *   is not a Map, the public `getTargetValidationMetadatas` answers instead (same result, slower:
 *   it walks every class ever decorated).
 * - `@IsOptional()`: 0.14.2 and later name its metadata 'isOptional'; 0.14.0 and 0.14.1 register it
 *   exactly like `@ValidateIf`, told apart here by the source text of its condition. When that text
 *   cannot be read, an unnamed conditional counts as `@ValidateIf` (checked at runtime, no schema).
 */
import { getMetadataStorage, IsOptional } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

export type { ValidationMetadata };

/** The class-validator versions this module's reads are known to hold for (an npm range). */
export const SUPPORTED_VERSIONS = '>=0.14.0 <0.16.0';

interface StorageInternals {
  validationMetadatas?: unknown;
  getTargetValidationMetadatas(target: Function, schema: string, always: boolean, strictGroups: boolean): ValidationMetadata[];
  addValidationMetadata(metadata: ValidationMetadata): void;
}

const NONE: readonly ValidationMetadata[] = Object.freeze([]);

/** The validation metadata a class declares itself (not inherited), in registration order. Read only. */
export function ownValidationMetadatas(target: Function): readonly ValidationMetadata[] {
  const storage = getMetadataStorage() as unknown as StorageInternals;
  // class-validator keeps metadata in a Map keyed by class; reading it directly is O(1) per class,
  // where getTargetValidationMetadatas walks every class ever decorated. Fall back if that changes.
  if (storage.validationMetadatas instanceof Map) {
    const own = (storage.validationMetadatas.get(target) as ValidationMetadata[] | undefined) ?? NONE;
    for (let i = 0; i < own.length; i++) {
      if (own[i].target !== target) return own.filter((metadata) => metadata.target === target);
    }
    return own;
  }
  return storage.getTargetValidationMetadatas(target, '', true, false).filter((metadata) => metadata.target === target);
}

let isOptionalSource: string | null | undefined;

/**
 * The source text of the condition class-validator's own `@IsOptional()` registers, read once from
 * the loaded copy by applying the decorator with the storage's `addValidationMetadata` briefly
 * shadowed (nothing is stored). null when it cannot be read.
 */
function referenceIsOptionalSource(): string | null {
  const storage = getMetadataStorage() as unknown as StorageInternals;
  let captured: ValidationMetadata | undefined;
  const shadowed = Object.prototype.hasOwnProperty.call(storage, 'addValidationMetadata');
  const own = storage.addValidationMetadata;
  storage.addValidationMetadata = (metadata) => {
    captured = metadata;
  };
  try {
    IsOptional()(class IsOptionalProbe {}.prototype, 'probe');
  } catch {
    return null;
  } finally {
    if (shadowed) storage.addValidationMetadata = own;
    else delete (storage as Partial<StorageInternals>).addValidationMetadata;
  }
  const condition = captured?.constraints?.[0];
  return typeof condition === 'function' ? Function.prototype.toString.call(condition) : null;
}

/** Whether a conditional validation (`ValidationTypes.CONDITIONAL_VALIDATION`) is `@IsOptional()`. */
export function isOptionalMetadata(metadata: ValidationMetadata): boolean {
  if (metadata.name) return metadata.name === 'isOptional';
  const condition: unknown = metadata.constraints?.[0];
  if (typeof condition !== 'function' || metadata.constraints.length !== 1) return false;
  if (isOptionalSource === undefined) isOptionalSource = referenceIsOptionalSource();
  return isOptionalSource !== null && Function.prototype.toString.call(condition) === isOptionalSource;
}
