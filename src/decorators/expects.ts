import { contractRef } from '../contract/inline-shape';
import type { ContractSpec } from '../contract/types';
import { KEYS } from '../metadata/keys';
import { declaredAt, defineOnce, siteName } from '../metadata/site';
import { classOrMethodDecorator, ClassOrMethodDecorator } from './class-or-method';

/**
 * The tool's input contract: a DTO class, a thunk to one, or an inline shape
 * (`{ query: String, limit: { type: Integer, optional: true, default: 10 } }`). On a method tool it
 * may be left out when the method's first parameter is typed with a contract class.
 */
export function Expects(contract: ContractSpec): ClassOrMethodDecorator {
  return classOrMethodDecorator('Expects', (site) => {
    const where = `${siteName(site)}: @Expects`;
    defineOnce(KEYS.expects, 'Expects', contractRef(contract, where, true, `${pascal(site)}Input`, declaredAt(site)), site);
  });
}

export function pascal(site: { target: Function; method?: string }): string {
  const base = site.method ? `${site.target.name}_${site.method}` : site.target.name;
  return base || 'Anonymous';
}
