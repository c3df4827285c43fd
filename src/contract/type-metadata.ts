/**
 * Tells "TypeScript recorded no type metadata for this class at all" apart from "reflection cannot
 * see this one property's type": the first is a setup mistake (emitDecoratorMetadata off, or
 * reflect-metadata loaded after the class was declared), with its own fix.
 */
import 'reflect-metadata';
import * as path from 'node:path';
import { KEYS } from '../metadata/keys';
import { declaredBeforeReflectMetadata } from '../interop/reflect-probe';
import { ownValidationMetadatas } from '../interop/class-validator';
import type { FieldDeclaration } from '../metadata/definitions';
import { findTsconfig, readTsconfigOptions } from '../util/tsconfig';

export const ENABLE_METADATA =
  'set "experimentalDecorators": true and "emitDecoratorMetadata": true in the compilerOptions of your tsconfig.json';
export const LOAD_REFLECT_METADATA = "import 'reflect-metadata' once, before any decorated class is loaded";

/** What compiles TypeScript with its decorator metadata, as the message for a compiler that drops it names them. */
export const METADATA_COMPILERS =
  'tsc (npx tsc, then node on the output), SWC with jsc.transform.decoratorMetadata: true, ts-node, or @swc-node/register; ' +
  'for Vite and Vitest, unplugin-swc';

/**
 * Why the code ran without type metadata when the setup asked for it, or undefined when nothing says
 * so: a runtime that compiles TypeScript itself without it (Bun, tsx), or a project whose nearest
 * tsconfig.json (from the working directory, else from the entry script) sets emitDecoratorMetadata,
 * which only a compiler that ignores it (esbuild, and the tools built on it) leaves unapplied. The
 * decorators themselves ran as legacy ones (a standard decorator is refused before this). Read only
 * on the error path.
 */
function metadataDroppedBy(): string | undefined {
  if ((process.versions as Record<string, string | undefined>).bun) return 'Bun';
  if (process.execArgv.some((arg) => /[\\/]tsx[\\/]/.test(arg))) return 'tsx';
  const entry = process.argv[1];
  const starts = [process.cwd(), ...(entry && !entry.includes('node_modules') ? [path.dirname(entry)] : [])];
  for (const start of starts) {
    const file = findTsconfig(start);
    if (!file) continue;
    try {
      return readTsconfigOptions(file).emitDecoratorMetadata === true ? `${file} sets "emitDecoratorMetadata": true` : undefined;
    } catch {
      return undefined; // a tsconfig.json that cannot be read says nothing either way
    }
  }
  return undefined;
}

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
  const dropped = metadataDroppedBy();
  if (dropped) {
    return (
      `${owner.name} has no TypeScript type metadata on any property${alone}, and ${dropped.includes(' sets ') ? dropped : `it runs under ${dropped}`}: ` +
      'it was compiled by a tool that drops decorator metadata (tsx, esbuild, Vite, Bun, Vitest without a plugin…: they compile ' +
      `each file without type information, so they cannot write design:type). Fix: compile with ${METADATA_COMPILERS} ` +
      '(see "Running your code" in the guide).'
    );
  }
  return (
    `${owner.name} has no TypeScript type metadata on any property: it was compiled without emitDecoratorMetadata${alone}. ` +
    `Fix: ${ENABLE_METADATA}.`
  );
}
