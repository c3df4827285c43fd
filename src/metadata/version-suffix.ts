import type { ToolDeclaration } from './definitions';
import { DeclarationError } from '../errors/declaration-errors';
import { declaredAt, Site, siteName } from './site';
import { DEFAULT_NAME_SUFFIXES, deriveToolName, versionSegment } from '../naming/tool-name';

/**
 * The suffix rule: a derived name ending in a version segment (`ApproveLoanV2`) must agree with
 * the tool's own `@ToolVersion`. Returns the mistake, or undefined when there is none.
 */
export function versionSuffixMismatch(
  site: Site,
  declaredVersion: number,
  suffixes: readonly string[] = DEFAULT_NAME_SUFFIXES,
): string | undefined {
  const source = site.method ?? site.target.name;
  const derived = deriveToolName(source, suffixes);
  if (derived.suffixVersion === undefined || derived.suffixVersion === declaredVersion) return undefined;
  const segment = versionSegment(source) || `V${derived.suffixVersion}`;
  const renamed = source.replace(/([vV])\d+$/, `$1${declaredVersion}`);
  const what = site.method ? 'method name' : 'class name';
  return (
    `${siteName(site)}: ${what} ends in ${segment} but declares @ToolVersion(${declaredVersion}). ` +
    `Rename it to ${renamed} or drop the suffix.`
  );
}

/**
 * The suffix rule at decoration: runs for whichever of `@Tool` and `@ToolVersion` is applied
 * second, once both are known. A tool with an explicit name derives none, so it has no suffix to
 * check. The registry checks again at enumeration, with its own name suffixes.
 */
export function checkVersionSuffix(site: Site, declaration: Pick<ToolDeclaration, 'name'> | undefined, version: number | undefined): void {
  if (declaration === undefined || declaration.name !== undefined || version === undefined) return;
  const mismatch = versionSuffixMismatch(site, version);
  if (mismatch) throw new DeclarationError(mismatch, declaredAt(site));
}
