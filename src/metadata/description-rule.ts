import type { ToolDeclaration } from './definitions';
import { KEYS } from './keys';
import { DeclarationError } from '../errors/declaration-errors';
import { declaredAt, getOwnFact, hasOwnFact, Site, siteName } from './site';

/**
 * A site's description is declared once: in `@Tool({ description })` or with `@Description`, not
 * both. Runs for whichever of the two is applied second, with the one being recorded in `pending`.
 */
export function checkDescriptionOnce(
  site: Site,
  pending: { readonly toolDescription: string | undefined } | { readonly description: string },
): void {
  const toolDescription =
    'toolDescription' in pending ? pending.toolDescription : getOwnFact<ToolDeclaration>(KEYS.tool, site)?.description;
  const described = 'description' in pending || hasOwnFact(KEYS.description, site);
  if (toolDescription !== undefined && described) {
    throw new DeclarationError(
      `${siteName(site)}: the description is declared twice, in @Tool({ description }) and @Description. Keep one.`,
      declaredAt(site),
    );
  }
}
