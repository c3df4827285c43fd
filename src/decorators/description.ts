import { checkDescriptionOnce } from '../metadata/description-rule';
import { KEYS } from '../metadata/keys';
import { defineOnce } from '../metadata/site';
import { describeValue } from '../util/describe-value';
import { classOrMethodDecorator, ClassOrMethodDecorator } from './class-or-method';
import { DeclarationError } from '../errors/declaration-errors';

/** The tool's description, as models and clients read it. */
export function Description(text: string): ClassOrMethodDecorator {
  if (typeof text !== 'string' || text.trim() === '') {
    throw new DeclarationError(`@Description needs a non-empty string; got ${describeValue(text)}.`);
  }
  return classOrMethodDecorator('Description', (site) => {
    checkDescriptionOnce(site, { description: text });
    defineOnce(KEYS.description, 'Description', text, site);
  });
}
