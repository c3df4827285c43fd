/**
 * The documentation site's "Entry points and their exports" page (docs/guide/entry-points.md) lists
 * every name each entry point exports, values and types apart, and nothing else: the lists are
 * compared with what each entry point exports at run time (values) and with what the TypeScript
 * compiler sees it export (types). The entry points come from package.json "exports", so a new one
 * without a list on that page fails here.
 */
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const repo = path.resolve(__dirname, '..', '..');
const PAGE = path.join('docs', 'guide', 'entry-points.md');
const page = fs.readFileSync(path.join(repo, PAGE), 'utf8');
const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as {
  exports: Record<string, { require?: { default: string } } | string>;
};

/** 'toolwright/kit' → src/adapter-kit/index.ts, through the package's own require target. */
const ENTRY_POINTS = Object.entries(pkg.exports)
  .filter(([subpath]) => subpath !== './package.json')
  .map(([subpath, target]) => ({
    name: subpath === '.' ? 'toolwright' : `toolwright/${subpath.slice(2)}`,
    source: path.join(repo, (target as { require: { default: string } }).require.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')),
  }));

interface Listed {
  values: string[];
  types: string[];
}

/**
 * The page's lists: a `## \`entry\`` heading per entry point, then `- Values: \`a\`, …` and
 * `- Types: \`A\`, …`. Any other `## ` heading ends the current entry point's list.
 */
function pageLists(): Map<string, Listed> {
  const lists = new Map<string, Listed>();
  let current: Listed | undefined;
  for (const line of page.split('\n')) {
    if (/^#{1,2} /.test(line)) current = undefined;
    const heading = /^## `([^`]+)`\s*$/.exec(line);
    if (heading) {
      if (lists.has(heading[1])) throw new Error(`${PAGE} lists ${heading[1]} twice`);
      lists.set(heading[1], (current = { values: [], types: [] }));
    }
    const list = /^- (Values|Types): (.*)$/.exec(line);
    if (list && current) {
      const names = [...list[2].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      current[list[1] === 'Values' ? 'values' : 'types'].push(...names);
    }
  }
  return lists;
}

/** Every name an entry point exports as the compiler sees it, split into values and types-only. */
function compiledExports(): Map<string, Listed> {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(repo, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
  const program = ts.createProgram(
    ENTRY_POINTS.map((entry) => entry.source),
    config.options,
  );
  const checker = program.getTypeChecker();
  const result = new Map<string, Listed>();
  for (const entry of ENTRY_POINTS) {
    const file = program.getSourceFile(entry.source)!;
    const symbols = checker.getExportsOfModule(checker.getSymbolAtLocation(file)!);
    const listed: Listed = { values: [], types: [] };
    for (const symbol of symbols) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      // `export type { SomeClass }` publishes a class as a type only: no value at run time.
      const typeOnly = (symbol.declarations ?? []).some((declaration) => ts.isTypeOnlyExportDeclaration(declaration));
      (target.flags & ts.SymbolFlags.Value && !typeOnly ? listed.values : listed.types).push(symbol.name);
    }
    result.set(entry.name, listed);
  }
  return result;
}

const sorted = (names: readonly string[]) => [...names].sort((a, b) => a.localeCompare(b));

/**
 * The names an entry point exports at run time. One whose peers are ES modules only (Nest 12, for
 * toolwright/nest) cannot be required by Jest's runtime on this Node line; Node itself can
 * (require(esm)), so it is loaded in a child process.
 */
function runtimeNames(source: string): string[] {
  try {
    return Object.keys(require(source) as object).filter((key) => key !== '__esModule');
  } catch (error) {
    if (!/Must use import to load ES Module/.test((error as Error).message)) throw error;
    const repo = path.resolve(__dirname, '..', '..');
    const script = `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(source)})).filter((key) => key !== '__esModule')))`;
    const out = execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', '-e', script], {
      cwd: repo,
      encoding: 'utf8',
    });
    return JSON.parse(out.trim().split('\n').pop()!) as string[];
  }
}

describe(`the entry points page (${PAGE})`, () => {
  const lists = pageLists();
  const compiled = compiledExports();

  it('has a list for every entry point in package.json "exports", and for no other', () => {
    expect(sorted([...lists.keys()])).toEqual(sorted(ENTRY_POINTS.map((entry) => entry.name)));
  });

  it.each(ENTRY_POINTS.map((entry) => entry.name))('%s: the listed values are exactly what it exports at run time', (name) => {
    const runtime = runtimeNames(ENTRY_POINTS.find((entry) => entry.name === name)!.source);
    expect(sorted(lists.get(name)?.values ?? [])).toEqual(sorted(runtime));
    expect(sorted(compiled.get(name)!.values)).toEqual(sorted(runtime));
  });

  it.each(ENTRY_POINTS.map((entry) => entry.name))('%s: the listed types are exactly its type-only exports', (name) => {
    expect(sorted(lists.get(name)?.types ?? [])).toEqual(sorted(compiled.get(name)!.types));
  });

  it('the kit and the root share no name: each name has one home', () => {
    const root = [...lists.get('toolwright')!.values, ...lists.get('toolwright')!.types];
    const kit = [...lists.get('toolwright/kit')!.values, ...lists.get('toolwright/kit')!.types];
    expect(root.filter((name) => kit.includes(name))).toEqual([]);
    expect(kit.length).toBeGreaterThanOrEqual(20);
  });
});
