/**
 * The optional peer dependencies an entry point or an option needs, checked before they are loaded:
 * a missing one is a SetupError naming what needs it, every package it needs, and the one
 * `npm install` line that adds the missing ones, instead of Node's bare "Cannot find module".
 */
import { joinWords } from '../util/describe-value';
import { SetupError } from './declaration-errors';

/** The packages of `packages` that Node cannot find from toolwright's own location (where its `require` looks). */
export function missingPeers(packages: readonly string[]): string[] {
  return packages.filter((name) => {
    try {
      require.resolve(name);
      return false;
    } catch (error) {
      // Found but not loadable this way (an ES-module-only package, a version without this export): installed.
      return (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND';
    }
  });
}

/**
 * Throws a SetupError when any of `packages` is not installed: `user` (an entry point such as
 * `toolwright/queue`, or an option such as "ToolwrightModule's `http` option") needs them. `hint`
 * follows the install line (another way out, such as an option that needs fewer packages).
 */
export function requirePeers(user: string, packages: readonly string[], hint?: string): void {
  const missing = missingPeers(packages);
  if (missing.length === 0) return;
  const needs = packages.length === 1 ? packages[0] : joinWords(packages);
  throw new SetupError(
    `${user} needs ${needs}, and ${joinWords(missing)} ${missing.length === 1 ? 'is' : 'are'} not installed. ` +
      `Install ${missing.length === 1 ? 'it' : 'them'} in the application: npm install ${missing.join(' ')}` +
      (hint ? ` (${hint})` : '') +
      '.',
  );
}
