import { KEYS } from '../metadata/keys';
import { defineOnce, getOwnFact, siteName, declaredAt } from '../metadata/site';
import { describeValue } from '../util/describe-value';
import { classOrMethodDecorator, ClassOrMethodDecorator } from './class-or-method';
import type { ToolDeclaration } from './tool';
import { DeclarationError } from '../errors/declaration-errors';

/** The tool's description, as models and clients read it. */
export function Description(text: string): ClassOrMethodDecorator {
  if (typeof text !== 'string' || text.trim() === '') {
    throw new DeclarationError(`@Description needs a non-empty string; got ${describeValue(text)}.`);
  }
  return classOrMethodDecorator('Description', (site) => {
    if (getOwnFact<ToolDeclaration>(KEYS.tool, site)?.description !== undefined) {
      throw new DeclarationError(
        `${siteName(site)}: the description is declared twice, in @Tool({ description }) and @Description. Keep one.`,
        declaredAt(site),
      );
    }
    defineOnce(KEYS.description, 'Description', text, site);
  });
}
