import { checkDescriptionOnce } from '../metadata/description-rule';
import { KEYS } from '../metadata/keys';
import { defineOnce } from '../metadata/site';
import { describeValue } from '../util/describe-value';
import { classOrMethodDecorator, ClassOrMethodDecorator } from './class-or-method';
import { DeclarationError } from '../errors/declaration-errors';

/**
 * The tool's description, as models and clients read it.
 *
 * @param text what the tool does, for a model to choose it.
 * @example
 * ```ts
 * @Tool()
 * @Description('Approve a pending loan application; fails when the loan is not pending.')
 * export class ApproveLoan { … }
 * ```
 */
export function Description(text: string): ClassOrMethodDecorator {
  if (typeof text !== 'string' || text.trim() === '') {
    throw new DeclarationError(`@Description needs a non-empty string; got ${describeValue(text)}.`);
  }
  return classOrMethodDecorator('Description', (site) => {
    checkDescriptionOnce(site, { description: text });
    defineOnce(KEYS.description, 'Description', text, site);
  });
}
