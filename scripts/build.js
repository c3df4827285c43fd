#!/usr/bin/env node
/**
 * Builds the package: tsc emits CommonJS with declarations into dist/, then every entry point in
 * package.json "exports" gets a thin ES module wrapper that re-exports the CommonJS module by
 * name. One implementation serves both module systems, so `import` and `require` share one
 * registry and one reflect-metadata store (no dual-package hazard).
 */
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');
fs.rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')], {
  stdio: 'inherit',
  cwd: root,
});

const pkg = require(path.join(root, 'package.json'));
for (const [subpath, conditions] of Object.entries(pkg.exports)) {
  if (typeof conditions !== 'object' || !conditions.import) continue;
  const cjs = path.join(root, conditions.require.default);
  const esm = path.join(root, conditions.import.default);
  const esmTypes = path.join(root, conditions.import.types);
  const names = Object.keys(require(cjs)).filter((name) => name !== '__esModule' && name !== 'default');
  const relative = (from, to) => {
    const rel = path.relative(path.dirname(from), to).split(path.sep).join('/');
    return rel.startsWith('.') ? rel : `./${rel}`;
  };
  fs.mkdirSync(path.dirname(esm), { recursive: true });
  fs.writeFileSync(
    esm,
    `// ES module entry for toolwright${subpath === '.' ? '' : subpath.slice(1)}: re-exports the CommonJS build by name.\n` +
      `import cjs from '${relative(esm, cjs)}';\n` +
      `export const { ${names.join(', ')} } = cjs;\n`,
  );
  fs.writeFileSync(esmTypes, `export * from '${relative(esmTypes, cjs)}';\n`);
}
process.stderr.write('built dist/\n');
