import { adapterSettingsFor, RESERVED_BAG_KEYS } from './adapter-settings';
import { joinWords } from '../util/describe-value';
import { DeclarationError } from '../errors/declaration-errors';
import type { DeclarationSiteInput } from '../errors/declaration-errors';

/**
 * Checks a per-tool adapter bag (`@Tool({ adapters: { mcp: { presentAs } } })`) against the
 * adapter's declared settings. Runs at decoration when the adapter's config is already declared,
 * and again at enumeration (for adapters declared later). Undeclared namespaces are kept as they are.
 */
export function checkToolBag(namespace: string, bag: Readonly<Record<string, unknown>>, where: string, site?: DeclarationSiteInput): void {
  const settings = adapterSettingsFor(namespace);
  if (!settings) return;
  for (const [key, value] of Object.entries(bag)) {
    if (RESERVED_BAG_KEYS.includes(key)) continue;
    if (!settings.has(key)) {
      const overridable = settings.names().filter((name) => settings.isOverridable(name));
      throw new DeclarationError(
        `${where}: '${key}' is not a setting of adapter '${namespace}'. ` +
          `Per-tool settings: ${joinWords(overridable.map((n) => `'${n}'`)) || 'none'}.`,
        site,
      );
    }
    if (!settings.isOverridable(key)) {
      throw new DeclarationError(`${where}: '${namespace}.${key}' cannot be set per tool; it is an adapter-wide setting.`, site);
    }
    try {
      settings.check(key, value, 'set');
    } catch (error) {
      throw new DeclarationError(`${where}: ${(error as Error).message}`, site);
    }
  }
}
