/**
 * Tells "TypeScript recorded no type metadata for this class at all" apart from "reflection cannot
 * see this one property's type": the first is a setup mistake (emitDecoratorMetadata off, or
 * reflect-metadata loaded after the class was declared), with its own fix.
 */
import 'reflect-metadata';
import { KEYS } from '../metadata/keys';
import { declaredBeforeReflectMetadata } from '../interop/reflect-probe';
import { ownValidationMetadatas } from '../interop/class-validator';
import type { FieldDeclaration } from '../metadata/definitions';

export const ENABLE_METADATA =
  'set "experimentalDecorators": true and "emitDecoratorMetadata": true in the compilerOptions of your tsconfig.json';
export const LOAD_REFLECT_METADATA = "import 'reflect-metadata' once, before any decorated class is loaded";

/** The decorated properties of a class (its own), from toolwright's and class-validator's records. */
function decoratedProperties(owner: Function): Set<string> {
  const names = new Set<string>();
  const fields = Reflect.getOwnMetadata(KEYS.fields, owner) as Map<string, FieldDeclaration> | undefined;
  fields?.forEach((_, name) => names.add(name));
  for (const metadata of ownValidationMetadatas(owner)) if (metadata.propertyName) names.add(metadata.propertyName);
  return names;
}

/**
 * When no decorated property of `owner` has a `design:type`, the message that says why and what to
 * do; otherwise undefined (the one property's type is invisible for a reason of its own).
 */
export function missingTypeMetadata(owner: Function): string | undefined {
  const properties = decoratedProperties(owner);
  for (const name of properties) {
    if (Reflect.getOwnMetadata('design:type', owner.prototype, name) !== undefined) return undefined;
  }
  const alone = properties.size <= 1 ? ' (or, for this one property, its type is a class declared after it is used)' : '';
  if (declaredBeforeReflectMetadata(owner)) {
    return (
      `${owner.name} has no TypeScript type metadata on any property: reflect-metadata was not loaded when it was declared ` +
      `(toolwright loaded it later)${alone}. Fix: ${LOAD_REFLECT_METADATA}, at the top of your entry point; ` +
      `and ${ENABLE_METADATA}.`
    );
  }
  return (
    `${owner.name} has no TypeScript type metadata on any property: it was compiled without emitDecoratorMetadata${alone}. ` +
    `Fix: ${ENABLE_METADATA}.`
  );
}
