/**
 * Every read of tsyringe's internals, in one place: tsyringe throws plain `Error`s, so the
 * dependency it failed on is read from its message text.
 *
 * Supported: tsyringe 4.8 to 4.x (`SUPPORTED_VERSIONS`, checked against the installed copy by
 * test/interop/tsyringe.test.ts). Re-check the message forms below when that range changes. When no
 * form matches, no dependency is named: the error says the constructor failed and quotes tsyringe.
 */

/** The tsyringe versions whose messages this module reads (an npm range). */
export const SUPPORTED_VERSIONS = '>=4.8.0 <5.0.0';

/** The dependency tsyringe failed on: the innermost one its message names. */
export function failingDependency(message: string): string | undefined {
  const names = [
    ...message.matchAll(/TypeInfo not known for "([^"]+)"/g),
    ...message.matchAll(/unregistered dependency token: "([^"]+)"/g),
  ].map((match) => match[1]);
  if (names.length > 0) return names[names.length - 1];
  const positions = [...message.matchAll(/Cannot inject the dependency (?:"([^"]+)" )?at position #(\d+) of "([^"]+)"/g)];
  const last = positions[positions.length - 1];
  return last ? (last[1] ?? `parameter #${last[2]} of ${last[3]}`) : undefined;
}
