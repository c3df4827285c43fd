import { contractRef } from '../contract/inline-shape';
import type { ContractSpec } from '../metadata/vocabulary';
import { KEYS } from '../metadata/keys';
import { declaredAt, defineOnce, siteName } from '../metadata/site';
import { pascal } from '../naming/pascal-case';
import { classOrMethodDecorator, ClassOrMethodDecorator } from './class-or-method';

/**
 * The tool's output contract: exactly the fields a successful call exposes.
 *
 * @param contract a DTO class, `() => Class`, or an inline shape.
 * @example
 * ```ts
 * @Tool()
 * @Expects({ loanId: String })
 * @Exposes({ loanId: String, state: String }) // other properties of the return value are never sent
 * export class LoanStatus { call(input: { loanId: string }) { … } }
 * ```
 */
export function Exposes(contract: ContractSpec): ClassOrMethodDecorator {
  return classOrMethodDecorator('Exposes', (site) => {
    const where = `${siteName(site)}: @Exposes`;
    defineOnce(KEYS.exposes, 'Exposes', contractRef(contract, where, false, `${pascal(site)}Output`, declaredAt(site)), site);
  });
}
