#!/usr/bin/env node
/**
 * Builds the package: tsc emits CommonJS with declarations into dist/, then every entry point in
 * package.json "exports" gets a thin ES module wrapper that re-exports the CommonJS module by
 * name. One implementation serves both module systems, so `import` and `require` share one
 * registry and one reflect-metadata store (no dual-package hazard). The `toolwright` bin
 * (dist/cli/bin.js) is made executable.
 *
 *   node scripts/build.js                # into ./dist
 *   node scripts/build.js --into DIR     # into DIR/dist (DIR gets the ES module wrappers too; tests
 *                                        # build a private copy so they never race a rebuild of ./dist)
 *   node scripts/build.js --no-types     # JavaScript only, not type-checked again: no declarations (tests)
 */
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const intoFlag = process.argv.indexOf('--into');
const out = intoFlag >= 0 ? path.resolve(process.argv[intoFlag + 1]) : root;
const dist = path.join(out, 'dist');
fs.rmSync(dist, { recursive: true, force: true });
const noTypes = process.argv.includes('--no-types') ? ['--declaration', 'false', '--noCheck'] : [];
execFileSync(
  process.execPath,
  [require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json'), '--outDir', dist, ...noTypes],
  {
    stdio: 'inherit',
    cwd: root,
  },
);

const pkg = require(path.join(root, 'package.json'));
for (const [subpath, conditions] of Object.entries(pkg.exports)) {
  if (typeof conditions !== 'object' || !conditions.import) continue;
  const cjs = path.join(out, conditions.require.default);
  const esm = path.join(out, conditions.import.default);
  const esmTypes = path.join(out, conditions.import.types);
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

// `typesVersions` is how TypeScript's node10 resolution (the default under "module": "commonjs")
// finds a subpath's types, since it ignores "exports": each subpath must map to its require types.
const mapped = (pkg.typesVersions && pkg.typesVersions['*']) || {};
const subpaths = Object.entries(pkg.exports).filter(
  ([subpath, conditions]) => subpath !== '.' && typeof conditions === 'object' && conditions.require,
);
const wrong = subpaths
  .filter(([subpath, conditions]) => JSON.stringify(mapped[subpath.slice(2)]) !== JSON.stringify([conditions.require.types]))
  .map(([subpath, conditions]) => `"${subpath.slice(2)}": ["${conditions.require.types}"]`);
const stale = Object.keys(mapped).filter((key) => !subpaths.some(([subpath]) => subpath.slice(2) === key));
const missing = Object.values(mapped)
  .flat()
  .filter((file) => noTypes.length === 0 && !fs.existsSync(path.join(out, file))); // --no-types emits no declarations
if (wrong.length > 0 || stale.length > 0 || missing.length > 0) {
  throw new Error(
    'package.json "typesVersions" disagrees with "exports": ' +
      [
        wrong.length > 0 ? `expected ${wrong.join(', ')}` : '',
        stale.length > 0 ? `no export for ${stale.join(', ')}` : '',
        missing.length > 0 ? `missing after the build: ${missing.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('; ') +
      '.',
  );
}
for (const bin of Object.values(pkg.bin ?? {})) fs.chmodSync(path.join(out, bin), 0o755);
process.stderr.write(`built ${path.relative(process.cwd(), dist) || dist}/\n`);
