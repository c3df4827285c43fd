/**
 * Every name a public entry point exports has a doc comment (JSDoc/TSDoc) on its declaration: the
 * API reference is generated from them, and an editor shows them on hover. The entry points are
 * package.json's "exports" (all but ./package.json), each read from the src/ index that
 * jest.config.ts's moduleNameMapper maps it to; the names are what the TypeScript compiler says
 * each index exports. A name re-exported from another library may carry its comment on the
 * re-exporting `export` statement instead.
 *
 * UNDOCUMENTED lists the names still missing one: it only shrinks. A listed name that now has a
 * comment fails the test too, so whoever adds the comment removes the name.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const repo = path.resolve(__dirname, '..', '..');

/** `entry point: name`, for each exported name that has no doc comment yet. Remove a line when you add its comment. */
const UNDOCUMENTED: readonly string[] = [];

/** package.json's export subpaths as import specifiers: `toolwright`, `toolwright/mcp`, … */
function exportedEntryPoints(): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { name: string; exports: Record<string, unknown> };
  return Object.keys(manifest.exports)
    .filter((subpath) => subpath !== './package.json')
    .map((subpath) => (subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`));
}

/** jest.config.ts's moduleNameMapper: import specifier → source file. */
function sourcesOfEntryPoints(): Map<string, string> {
  const config = fs.readFileSync(path.join(repo, 'jest.config.ts'), 'utf8');
  const mapped = new Map<string, string>();
  for (const [, specifier, file] of config.matchAll(/'\^([\w/-]+)\$':\s*'<rootDir>\/([^']+)'/g)) mapped.set(specifier, path.join(repo, file));
  return mapped;
}

function hasDocComment(node: ts.Node): boolean {
  return ts.getJSDocCommentsAndTags(node).some((doc) => ts.isJSDoc(doc));
}

/** Each exported name of each entry point, and whether it is documented. */
function exportedNames(): Map<string, boolean> {
  const sources = sourcesOfEntryPoints();
  const entries = exportedEntryPoints().map((entry) => ({ entry, file: sources.get(entry) }));
  const unmapped = entries.filter(({ file }) => file === undefined).map(({ entry }) => entry);
  if (unmapped.length > 0) throw new Error(`jest.config.ts maps no source file for the entry points ${unmapped.join(', ')}: add them to moduleNameMapper`);
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(repo, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  const program = ts.createProgram(
    entries.map(({ file }) => file!),
    { ...parsed!.options, noEmit: true },
  );
  const checker = program.getTypeChecker();
  const names = new Map<string, boolean>();
  for (const { entry, file } of entries) {
    const source = program.getSourceFile(file!)!;
    const module = checker.getSymbolAtLocation(source)!;
    for (const exported of checker.getExportsOfModule(module)) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declarations = target.declarations ?? [];
      // A re-export may carry the comment: `/** … */ export { Server } from '…'`.
      const reexports = (exported.declarations ?? []).map((declaration) => (ts.isExportSpecifier(declaration) ? declaration.parent.parent : declaration));
      names.set(`${entry}: ${exported.name}`, [...declarations, ...reexports].some(hasDocComment));
    }
  }
  return names;
}

describe('doc comments on the public API', () => {
  const names = exportedNames();

  it('reads every entry point (the test is not vacuous)', () => {
    const entries = new Set([...names.keys()].map((name) => name.split(':')[0]));
    expect([...entries].sort()).toEqual(exportedEntryPoints().sort());
    expect(names.size).toBeGreaterThan(100);
  });

  it('every exported name has a doc comment (or is still listed in UNDOCUMENTED)', () => {
    const missing = [...names].filter(([name, documented]) => !documented && !UNDOCUMENTED.includes(name)).map(([name]) => name);
    expect(missing).toEqual([]);
  });

  it('UNDOCUMENTED only shrinks: no listed name is documented or gone', () => {
    const stale = UNDOCUMENTED.filter((name) => names.get(name) !== false);
    expect(stale).toEqual([]);
  });
});
