import type { AmbientOptions } from '../metadata/vocabulary';
import { describeValue, isPlainObject } from '../util/describe-value';
import { checkKnownKeys } from '../errors/known-keys';
import { checkAmbientKey, FieldDecorator, recordField } from './field';
import { DeclarationError } from '../errors/declaration-errors';

/**
 * An input field filled from trusted server context (the signed-in officer, the tenant), never
 * from the caller's arguments and never shown in a schema.
 *
 * @param options `key`: the ambient value's name, when it is not the property's.
 * @example
 * ```ts
 * export class ApproveLoanInput {
 *   @Field() loanId!: string;
 *   @AmbientContext() officerId!: string; // invoke(…, { ambientContext: { officerId } }), never the caller
 *   @AmbientContext({ key: 'tenant' }) tenantId!: string;
 * }
 * ```
 */
export function AmbientContext(options: AmbientOptions = {}): FieldDecorator {
  if (!isPlainObject(options)) {
    throw new DeclarationError(`@AmbientContext takes an options object such as { key: 'userId' }; got ${describeValue(options)}.`);
  }
  checkKnownKeys('@AmbientContext', options, ['key'], { instead: "The only option is 'key'." });
  const key = checkAmbientKey(options.key);
  return (target, propertyKey) => {
    recordField('AmbientContext', target, propertyKey, (existing, where, site) => {
      if (existing?.ambient) throw new DeclarationError(`${where}: @AmbientContext is already declared. Declare it once.`, site);
      return { ...existing, ambient: { key: key ?? String(propertyKey) } };
    });
  };
}
