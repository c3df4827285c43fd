import { describeValue, isClass, isPlainObject } from '../util/describe-value';
import { checkFieldOptions } from './field-options';
import type { ContractRef } from '../metadata/definitions';
import type { ContractSpec, InlineShape } from '../metadata/vocabulary';
import { DeclarationError } from '../errors/declaration-errors';
import type { DeclarationSiteInput } from '../errors/declaration-errors';

function checkTypeSpec(value: unknown, where: string, site?: DeclarationSiteInput): void {
  if (Array.isArray(value)) {
    if (value.length !== 1)
      throw new DeclarationError(
        `${where}: an array type lists exactly one element type, e.g. [String]; got ${describeValue(value)}.`,
        site,
      );
    checkTypeSpec(value[0], where, site);
    return;
  }
  if (typeof value !== 'function') {
    throw new DeclarationError(
      `${where}: expected a type (String, Number, Integer, Boolean, Date, a class, [Type]) or field options; got ${describeValue(value)}.`,
      site,
    );
  }
}

/** Checks an inline shape's entries; `where` names the declaring tool and decorator. */
export function checkInlineShape(shape: Record<string, unknown>, where: string, allowAmbient: boolean, site?: DeclarationSiteInput): void {
  // `@Expects({})` declares "no input" explicitly (a tool that reads only its context); an empty
  // output contract is a mistake.
  if (Object.keys(shape).length === 0 && !allowAmbient) {
    throw new DeclarationError(
      `${where}: an inline contract needs at least one field. Leave @Exposes out for a tool that exposes nothing.`,
      site,
    );
  }
  for (const [name, entry] of Object.entries(shape)) {
    const at = `${where} field '${name}'`;
    if (isPlainObject(entry)) {
      const options = checkFieldOptions(entry, at, allowAmbient, site);
      if (options.type !== undefined && typeof options.type !== 'function') checkTypeSpec(options.type, at, site);
    } else {
      checkTypeSpec(entry, at, site);
    }
  }
}

/** Normalizes what `@Expects` / `@Exposes` / `defineTool` were given into a contract reference. */
export function contractRef(
  spec: ContractSpec | undefined,
  where: string,
  allowAmbient: boolean,
  shapeName: string,
  site?: DeclarationSiteInput,
): ContractRef {
  if (spec === undefined || spec === null) {
    throw new DeclarationError(`${where}: the contract is ${String(spec)}. If this is a circular import, pass a thunk: () => MyDto.`, site);
  }
  if (isClass(spec)) return { kind: 'class', target: spec };
  if (typeof spec === 'function') return { kind: 'thunk', thunk: spec as () => never };
  if (isPlainObject(spec)) {
    checkInlineShape(spec, where, allowAmbient, site);
    return { kind: 'shape', shape: spec as InlineShape, name: shapeName };
  }
  throw new DeclarationError(
    `${where}: expected a DTO class, a thunk () => Dto, or an inline shape object; got ${describeValue(spec)}.`,
    site,
  );
}
