import 'reflect-metadata';
import { checkFieldOptions } from '../contract/field-options';
import type { FieldDeclaration } from '../metadata/definitions';
import type { FieldOptions } from '../metadata/vocabulary';
import { ownValidationMetadatas } from '../interop/class-validator';
import { KEYS } from '../metadata/keys';
import { rejectStandardDecorator } from '../metadata/site';
import { describeValue } from '../util/describe-value';
import { DeclarationError } from '../errors/declaration-errors';
import type { DeclarationSiteInput } from '../errors/declaration-errors';

/** What `@Field(...)` and `@AmbientContext(...)` return: a property decorator. */
export type FieldDecorator = (target: object, propertyKey: string | symbol) => void;

/**
 * Records a field declaration (`@Field`, `@AmbientContext`) in its class's own fields map: `update`
 * merges it with what the property already declares; the field keeps its place in source order.
 */
export function recordField(
  decorator: string,
  target: object,
  propertyKey: string | symbol,
  update: (existing: FieldDeclaration | undefined, where: string, site: DeclarationSiteInput) => Omit<FieldDeclaration, 'position'>,
): void {
  rejectStandardDecorator(decorator, propertyKey);
  if (typeof target === 'function') {
    throw new DeclarationError(
      `@${decorator} on static property ${target.name}.${String(propertyKey)}: contract fields are instance properties.`,
      { class: target, member: propertyKey },
    );
  }
  const ctor = (target as { constructor: Function }).constructor;
  if (typeof propertyKey === 'symbol') {
    throw new DeclarationError(`@${decorator} on ${ctor.name}[${propertyKey.toString()}]: a field needs a string name.`, {
      class: ctor,
      member: propertyKey,
    });
  }
  const where = `${ctor.name}.${propertyKey}`;
  const own: Map<string, FieldDeclaration> = Reflect.getOwnMetadata(KEYS.fields, ctor) ?? new Map();
  const next = new Map(own);
  const existing = own.get(propertyKey);
  // Decorators run in source order, property by property: the number of class-validator
  // constraints recorded so far places this field among properties only class-validator declares.
  const position = Math.min(existing?.position ?? Infinity, ownValidationMetadatas(ctor).length - 0.5);
  next.set(propertyKey, { ...update(existing, where, { class: ctor, member: propertyKey }), position });
  Reflect.defineMetadata(KEYS.fields, next, ctor);
}

/**
 * A contract field. Options are checked now; the type is resolved when the contract is first
 * derived, from `type`/`anyOf`, class-transformer `@Type`, class-validator and `design:type`.
 *
 * @param options `type`, `optional`, `default`, `enum`, `format`, `min`/`max`, `description`, … (all optional).
 * @example
 * ```ts
 * export class ApproveLoanInput {
 *   @Field({ format: 'uuid' }) loanId!: string;
 *   @Field({ type: Integer, min: 1 }) amount!: number;
 *   @Field({ enum: ['standard', 'express'], optional: true, default: 'standard' }) tier!: 'standard' | 'express';
 * }
 * ```
 */
export function Field(options: FieldOptions = {}): FieldDecorator {
  return (target, propertyKey) => {
    recordField('Field', target, propertyKey, (existing, where, site) => {
      if (existing?.options) throw new DeclarationError(`${where}: @Field is already declared. Declare it once.`, site);
      return { ...existing, options: checkFieldOptions(options, where, false, site) };
    });
  };
}

export function checkAmbientKey(key: unknown): string | undefined {
  if (key !== undefined && (typeof key !== 'string' || key.trim() === '')) {
    throw new DeclarationError(`@AmbientContext: 'key' must be a non-empty string; got ${describeValue(key)}.`);
  }
  return key as string | undefined;
}
