import 'reflect-metadata';
import { checkFieldOptions } from '../contract/field-options';
import type { FieldDeclaration, FieldOptions } from '../contract/types';
import { ownValidationMetadatas } from '../interop/class-validator';
import { KEYS } from '../metadata/keys';
import { rejectStandardDecorator } from '../metadata/site';
import { describeValue } from '../util/describe-value';

export type FieldDecorator = (target: object, propertyKey: string | symbol) => void;

/**
 * Records a field declaration (`@Field`, `@AmbientContext`) in its class's own fields map: `update`
 * merges it with what the property already declares; the field keeps its place in source order.
 */
export function recordField(
  decorator: string,
  target: object,
  propertyKey: string | symbol,
  update: (existing: FieldDeclaration | undefined, where: string) => Omit<FieldDeclaration, 'position'>,
): void {
  rejectStandardDecorator(decorator, propertyKey);
  if (typeof target === 'function') {
    throw new TypeError(`@${decorator} on static property ${target.name}.${String(propertyKey)}: contract fields are instance properties.`);
  }
  const ctor = (target as { constructor: Function }).constructor;
  if (typeof propertyKey === 'symbol') {
    throw new TypeError(`@${decorator} on ${ctor.name}[${propertyKey.toString()}]: a field needs a string name.`);
  }
  const where = `${ctor.name}.${propertyKey}`;
  const own: Map<string, FieldDeclaration> = Reflect.getOwnMetadata(KEYS.fields, ctor) ?? new Map();
  const next = new Map(own);
  const existing = own.get(propertyKey);
  // Decorators run in source order, property by property: the number of class-validator
  // constraints recorded so far places this field among properties only class-validator declares.
  const position = Math.min(existing?.position ?? Infinity, ownValidationMetadatas(ctor).length - 0.5);
  next.set(propertyKey, { ...update(existing, where), position });
  Reflect.defineMetadata(KEYS.fields, next, ctor);
}

/**
 * A contract field. Options are checked now; the type is resolved when the contract is first
 * derived, from `type`/`anyOf`, class-transformer `@Type`, class-validator and `design:type`.
 */
export function Field(options: FieldOptions = {}): FieldDecorator {
  return (target, propertyKey) => {
    recordField('Field', target, propertyKey, (existing, where) => {
      if (existing?.options) throw new TypeError(`${where}: @Field is already declared. Declare it once.`);
      return { ...existing, options: checkFieldOptions(options, where) };
    });
  };
}

export function checkAmbientKey(key: unknown): string | undefined {
  if (key !== undefined && (typeof key !== 'string' || key.trim() === '')) {
    throw new TypeError(`@AmbientContext: 'key' must be a non-empty string; got ${describeValue(key)}.`);
  }
  return key as string | undefined;
}
