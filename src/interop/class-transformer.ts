/**
 * Every read of class-transformer's internals, in one place. contract/type-rules.ts interprets what
 * these return; nothing else reaches past class-transformer's public API.
 *
 * Supported: class-transformer 0.5.x (`SUPPORTED_VERSIONS`, checked against the installed copy by
 * test/interop/class-transformer.test.ts). Re-check this file when that range changes.
 * - `class-transformer/cjs/storage`: the module holding `defaultMetadataStorage`, where `@Type`
 *   records what it declares; the package index does not export it.
 * - `_typeMetadatas`: the storage's private Map (class → property → metadata). When it is not a Map,
 *   `declaresOwnType` answers undefined and callers ask the storage's public `findTypeMetadata`
 *   for every property (same answers, slower).
 */
import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';

/** The class-transformer versions this module's reads are known to hold for (an npm range). */
export const SUPPORTED_VERSIONS = '>=0.5.0 <0.6.0';

// The CommonJS build's file: the one the package's main entry (where `@Type` comes from) writes to.
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerStorage };

/** What `@Type` recorded for a property of a class (declared on the class or an ancestor). */
export function typeMetadataOf(target: Function, property: string): { typeFunction?: () => unknown } | undefined {
  return defaultMetadataStorage.findTypeMetadata(target, property) as { typeFunction?: () => unknown } | undefined;
}

/**
 * Whether `target` itself (not an ancestor) declares `@Type` on a property: O(1), where
 * `typeMetadataOf` builds and caches an ancestors list per class. undefined when the private map
 * cannot be read.
 */
export function declaresOwnType(target: Function, property: string): boolean | undefined {
  const own = (defaultMetadataStorage as unknown as { _typeMetadatas?: unknown })._typeMetadatas;
  if (!(own instanceof Map)) return undefined;
  return (own.get(target) as Map<string, unknown> | undefined)?.has(property) === true;
}
