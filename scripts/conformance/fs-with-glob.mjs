// node:fs plus the Node 22 `globSync`, taken from the 'glob' package (see node20-fs-hook.mjs).
import fs from 'node:fs';
import { globSync as globPackageSync } from 'glob';

export * from 'node:fs';
export default fs;

/** Node 22's fs.globSync(pattern, { cwd, exclude }) over the glob package (string results). */
export function globSync(pattern, options = {}) {
  const { cwd, exclude } = options;
  return globPackageSync(pattern, {
    cwd,
    ...(typeof exclude === 'function' ? { ignore: { ignored: (p) => exclude(p.relative()) } } : exclude ? { ignore: exclude } : {}),
  });
}
