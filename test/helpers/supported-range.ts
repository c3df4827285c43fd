/**
 * The version range a src/interop module declares (`SUPPORTED_VERSIONS = '>=A.B.C <X.Y.Z'`), read
 * from its text (tests import only public entry points), checked against the installed library.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Version = [number, number, number];

function parse(version: string): Version {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!match) throw new Error(`Not a version: ${version}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** The declared range of src/interop/<module>.ts and the installed version of <library>. */
export function supportedRange(module: string, library: string): { range: string; installed: string; inRange: boolean; message: string } {
  const file = join(__dirname, '..', '..', 'src', 'interop', `${module}.ts`);
  const declared = /SUPPORTED_VERSIONS = '>=(\d+\.\d+\.\d+) <(\d+\.\d+\.\d+)'/.exec(readFileSync(file, 'utf8'));
  if (!declared) throw new Error(`src/interop/${module}.ts declares no SUPPORTED_VERSIONS = '>=A.B.C <X.Y.Z'`);
  const installed = (require(`${library}/package.json`) as { version: string }).version;
  const version = parse(installed);
  const inRange = compare(version, parse(declared[1])) >= 0 && compare(version, parse(declared[2])) < 0;
  const range = `>=${declared[1]} <${declared[2]}`;
  const message =
    `${library} ${installed} is installed, outside the range src/interop/${module}.ts was checked against (${range}). ` +
    `Re-check every read in src/interop/${module}.ts against ${library} ${installed}, then widen SUPPORTED_VERSIONS there.`;
  return { range, installed, inRange, message };
}

/** Fails with a message saying which interop module to re-check when the installed library left its range. */
export function expectSupported(module: string, library: string): void {
  const { inRange, message } = supportedRange(module, library);
  if (!inRange) throw new Error(message);
}
