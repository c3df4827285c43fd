import { contractRef } from '../contract/inline-shape';
import type { ContractSpec } from '../metadata/vocabulary';
import { KEYS } from '../metadata/keys';
import { declaredAt, defineOnce, siteName } from '../metadata/site';
import { pascal } from '../naming/pascal-case';
import { classOrMethodDecorator, ClassOrMethodDecorator } from './class-or-method';

/**
 * The tool's input contract: a DTO class, a thunk to one, or an inline shape
 * (`{ query: String, limit: { type: Integer, optional: true, default: 10 } }`). On a method tool it
 * may be left out when the method's first parameter is typed with a contract class.
 *
 * @param contract a DTO class, `() => Class` (for a circular import), or an inline shape.
 * @example
 * ```ts
 * @Tool()
 * @Expects(ApproveLoanInput) // a DTO class, its fields declared with @Field or class-validator
 * export class ApproveLoan { call(input: ApproveLoanInput) { … } }
 *
 * @Tool()
 * @Expects({ query: String, limit: { type: Integer, optional: true, default: 10 } })
 * export class SearchLoans { call(input: { query: string; limit: number }) { … } }
 * ```
 */
export function Expects(contract: ContractSpec): ClassOrMethodDecorator {
  return classOrMethodDecorator('Expects', (site) => {
    const where = `${siteName(site)}: @Expects`;
    defineOnce(KEYS.expects, 'Expects', contractRef(contract, where, true, `${pascal(site)}Input`, declaredAt(site)), site);
  });
}
