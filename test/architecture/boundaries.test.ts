/**
 * The layering of src/, checked on every import: static, dynamic, `require`, re-exports, and
 * type-only ones (`import type`, `import('…').T`), which the compiler erases but which still tie
 * one layer's types to another's.
 *
 * The core is ranked in CORE_RANKS, bottom up. A core file imports files of its own folder and of
 * folders of a lower rank; never a folder of a higher rank, and never another folder of its own
 * rank (folders of one rank are independent). So data flows one way: decorators record facts in
 * metadata, the contract layer builds one field model from them, schema and serialization turn a
 * class into JSON, the registry groups tools, the invoker calls them, and the façades and kits on
 * top resolve a tool through the registry. What each rank holds:
 *
 *   util                  small helpers: describeValue, limits, warnings
 *   errors                the error family (brand, codes, declaration and setup errors) and the
 *                         unknown-option check that throws one
 *   interop, naming       reads of class-validator/class-transformer/tsyringe internals; pure name
 *                         derivation (tool names, generated class names)
 *   metadata, content     facts on classes, the declaration records and the vocabulary they hold;
 *                         content parts
 *   extensions            what adapters add to the core: semantic hints, field keys, adapter keys,
 *                         adapter settings
 *   contract              the field model built from the declarations
 *   schema, serialization pure: a contract class in, JSON Schema or JSON values out
 *   decorators            check arguments, record facts
 *   registry              adapters, membership, grouping by (toolName, version)
 *   invocation            the invoker, its pipeline, Result, `configure`
 *   api                   public façades that resolve a ToolLike (inputSchema, render, describeTool,
 *                         defineTool)
 *   adapter-kit           what adapter authors use (settings, guard, serializeExposed)
 *   entry points          the core's published entry points, wherever they sit: the files
 *                         package.json `exports` names outside the adapters (src/index.ts for
 *                         `toolwright`, src/adapter-kit/index.ts for `toolwright/kit`); they may
 *                         import every core folder and each other
 *
 * Above the core (ABOVE_CORE): the adapters, `toolwright/testing` and the `toolwright` command.
 * Core never imports them; they import only public surfaces (the last tests below). A folder
 * that is in neither list fails the first test: every new folder gets its place in the table.
 *
 * The public surfaces above the core are the core's entry points (`toolwright`, src/index.ts; the
 * adapter kit, `toolwright/kit`, src/adapter-kit/index.ts) and each adapter's entry point; the one
 * unpublished module first-party code may also import is src/adapter-kit/internal.ts (helpers
 * toolwright does not commit to).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const ENTRY_POINTS = 'entry points';
const CORE_RANKS: readonly (readonly string[])[] = [
  ['util'],
  ['errors'],
  ['interop', 'naming'],
  ['metadata', 'content'],
  ['extensions'],
  ['contract'],
  ['schema', 'serialization'],
  ['decorators'],
  ['registry'],
  ['invocation'],
  ['api'],
  ['adapter-kit'],
  [ENTRY_POINTS],
];
const ABOVE_CORE: readonly string[] = ['adapters', 'testing', 'cli'];

const src = path.resolve(__dirname, '..', '..', 'src');
/** What first-party adapters, toolwright/testing and the command may import from outside their own folder. */
const PUBLIC_SURFACES = [path.join(src, 'index'), path.join(src, 'adapter-kit'), path.join(src, 'adapter-kit', 'index')];
const FIRST_PARTY_ONLY = path.join(src, 'adapter-kit', 'internal');
const allowedSurface = (target: string) => PUBLIC_SURFACES.includes(target) || target === FIRST_PARTY_ONLY;

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Every module specifier a source text names, read with the TypeScript parser (comments and strings never count). */
function moduleSpecifiers(text: string, fileName = 'module.ts'): string[] {
  const found: string[] = [];
  const literal = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) literal(node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const dynamic = callee.kind === ts.SyntaxKind.ImportKeyword;
      if (dynamic || (ts.isIdentifier(callee) && callee.text === 'require')) literal(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return found;
}

const scanned = new Map<string, string[]>();

function imports(file: string): string[] {
  let specs = scanned.get(file);
  if (!specs) scanned.set(file, (specs = moduleSpecifiers(fs.readFileSync(file, 'utf8'), file)));
  return specs;
}

/** The file a relative specifier names (`x.ts` or `x/index.ts`), or the bare path when it names something else. */
function resolveRelative(file: string, spec: string): string {
  const target = path.resolve(path.dirname(file), spec);
  for (const candidate of [`${target}.ts`, path.join(target, 'index.ts')]) if (fs.existsSync(candidate)) return candidate;
  return target;
}

/** The source files (relative to src/) that package.json `exports` publishes, from their CommonJS builds. */
function publishedFiles(): Set<string> {
  const manifest = JSON.parse(fs.readFileSync(path.join(src, '..', 'package.json'), 'utf8')) as { exports: unknown };
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    const match = typeof value === 'string' ? /^\.\/dist\/(?!esm\/)(.+)\.js$/.exec(value) : null;
    if (match) found.add(path.join(...match[1].split('/')) + '.ts');
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(walk);
  };
  walk(manifest.exports);
  return found;
}

const published = publishedFiles();

/** The table's unit of a path under src/: `entry points` for a published core entry point, otherwise its top folder. */
function unitOf(relative: string): string {
  const folder = relative.split(/[\\/]/)[0];
  return published.has(relative) && !ABOVE_CORE.includes(folder) ? ENTRY_POINTS : folder;
}

const rankOf = new Map(CORE_RANKS.flatMap((folders, rank) => folders.map((folder) => [folder, rank] as const)));

/**
 * Why an import from `fromUnit` to `toUnit` breaks the layering, or undefined when it does not. The
 * core ranks only: a target outside src/ (package.json) is not a layer, and above-core folders have
 * their own tests.
 */
function rankViolation(fromUnit: string, toUnit: string): string | undefined {
  const from = rankOf.get(fromUnit);
  if (from === undefined || fromUnit === toUnit) return undefined;
  if (ABOVE_CORE.includes(toUnit)) return `core imports ${toUnit}, which is above the core`;
  const to = rankOf.get(toUnit);
  if (to === undefined) return `${toUnit} is not in the rank table`;
  if (to > from) return `upward: ${fromUnit} (rank ${from}) → ${toUnit} (rank ${to})`;
  if (to === from) return `across one rank: ${fromUnit} and ${toUnit} are both rank ${from}`;
  return undefined;
}

/** The offending relative imports of one file (path relative to src/) with the given specifiers. */
function layeringOffenders(relativeFile: string, specs: readonly string[]): string[] {
  return [...new Set(specs)]
    .filter((spec) => spec.startsWith('.'))
    .flatMap((spec) => {
      const target = path.relative(src, resolveRelative(path.join(src, relativeFile), spec));
      if (target.startsWith('..')) return [];
      const why = rankViolation(unitOf(relativeFile), unitOf(target));
      return why ? [`${relativeFile} → ${spec}: ${why}`] : [];
    });
}

/** Strongly connected components with more than one node, or a node importing itself (Tarjan). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const connect = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return found;
}

describe('module boundaries', () => {
  const all = files(src);
  const rel = (file: string) => path.relative(src, file);

  describe('the rank table of the core', () => {
    it('places every folder under src/ (a new folder must be added to the table)', () => {
      const listed = [...CORE_RANKS.flat(), ...ABOVE_CORE];
      expect(listed.length).toBe(new Set(listed).size); // no folder in two places
      const units = [...new Set(all.map((file) => unitOf(rel(file))))].sort();
      const missing = units.filter((unit) => !listed.includes(unit));
      expect(missing.map((unit) => `src/${unit} is not in the rank table: add it to CORE_RANKS (or ABOVE_CORE) in test/architecture/boundaries.test.ts`)).toEqual([]);
      expect(units.filter((unit) => rankOf.has(unit)).length).toBeGreaterThanOrEqual(14); // not vacuous
      expect(unitOf('index.ts')).toBe(ENTRY_POINTS); // read from package.json exports
      expect(unitOf(path.join('adapters', 'mcp', 'index.ts'))).toBe('adapters');
    });

    it('core files import only their own folder and lower ranks, type-only imports included', () => {
      const offenders = all
        .filter((file) => rankOf.has(unitOf(rel(file))))
        .flatMap((file) => layeringOffenders(rel(file), imports(file)));
      expect(offenders).toEqual([]);
    });

    it('refuses an upward import, a type-only one, one across a rank, and one into an adapter', () => {
      expect(layeringOffenders(path.join('metadata', 'x.ts'), moduleSpecifiers("import type { ToolDefinition } from '../registry/tool-definition';"))).toEqual([
        'metadata/x.ts → ../registry/tool-definition: upward: metadata (rank 3) → registry (rank 8)',
      ]);
      expect(layeringOffenders(path.join('schema', 'x.ts'), ['../serialization/render'])).toEqual([
        'schema/x.ts → ../serialization/render: across one rank: schema and serialization are both rank 6',
      ]);
      expect(layeringOffenders(path.join('adapter-kit', 'x.ts'), ['../index'])).toEqual([
        'adapter-kit/x.ts → ../index: upward: adapter-kit (rank 11) → entry points (rank 12)',
      ]);
      expect(layeringOffenders(path.join('invocation', 'x.ts'), ['../adapters/mcp'])).toEqual([
        'invocation/x.ts → ../adapters/mcp: core imports adapters, which is above the core',
      ]);
      expect(layeringOffenders(path.join('registry', 'x.ts'), ['./tool-definition', '../metadata/site', '../../package.json', 'tsyringe'])).toEqual([]);
    });
  });

  describe('the import scanner', () => {
    it('sees every form of import, and nothing in comments or strings', () => {
      const text = [
        "import { a } from './a';",
        "import type { B } from './b';",
        "import { type C } from './c';",
        "export type { D } from './d';",
        "export * from './e';",
        "import './f';",
        "const g = require('./g');",
        "const h = import('./h');",
        "type I = import('./i').I;",
        "let j: typeof import('./j');",
        "import k = require('./k');",
        'import {',
        '  l,',
        "} from './l';",
        "// import { nope } from './comment';",
        "/* export * from './block'; */",
        "const s = \"import { x } from './string'\";",
      ].join('\n');
      expect(moduleSpecifiers(text)).toEqual(['./a', './b', './c', './d', './e', './f', './g', './h', './i', './j', './k', './l']);
    });

    it('finds a known type-only import in src/', () => {
      expect(imports(path.join(src, 'registry', 'tool-definition.ts'))).toContain('../metadata/definitions');
      expect(fs.readFileSync(path.join(src, 'registry', 'tool-definition.ts'), 'utf8')).toMatch(/import type \{[^}]*\} from '\.\.\/metadata\/definitions'/);
    });
  });

  describe('file-level cycles', () => {
    it('no file in src/ reaches itself through its imports (type-only ones included)', () => {
      const graph = new Map(
        all.map((file) => [
          rel(file),
          imports(file)
            .filter((spec) => spec.startsWith('.'))
            .map((spec) => resolveRelative(file, spec))
            .filter((target) => target.endsWith('.ts') && target.startsWith(src + path.sep))
            .map(rel),
        ]),
      );
      expect(cycles(graph).map((component) => component.join(' ⇄ '))).toEqual([]);
    });

    it('the cycle finder finds a cycle and a self-import, and passes a tree', () => {
      const graph = new Map<string, string[]>([
        ['a', ['b']],
        ['b', ['c', 'd']],
        ['c', ['a']],
        ['d', []],
        ['e', ['e']],
      ]);
      expect(cycles(graph)).toEqual([['a', 'b', 'c'], ['e']]);
      expect(cycles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
    });
  });

  it('core never imports an adapter or the testing helpers', () => {
    const offenders = all
      .filter((file) => !rel(file).startsWith('adapters') && !rel(file).startsWith('testing') && !rel(file).startsWith('cli'))
      .flatMap((file) => imports(file).filter((spec) => spec.startsWith('.') && /adapters|testing/.test(path.resolve(path.dirname(file), spec))).map((spec) => `${rel(file)} → ${spec}`));
    expect(offenders).toEqual([]);
  });

  it('adapters and toolwright/testing import only public surfaces, their own files, Node and libraries', () => {
    const entryPoint = (target: string) => /^adapters[\\/][^\\/]+[\\/]index$/.test(path.relative(src, target));
    const offenders = all
      .filter((file) => rel(file).startsWith('adapters') || rel(file).startsWith('testing'))
      .flatMap((file) => {
        const home = rel(file).startsWith('testing') ? path.join(src, 'testing') : path.join(src, ...rel(file).split(path.sep).slice(0, 2));
        return imports(file)
          .filter((spec) => spec.startsWith('.'))
          .filter((spec) => {
            const target = path.resolve(path.dirname(file), spec);
            return !allowedSurface(target) && !entryPoint(target) && !target.startsWith(home + path.sep);
          })
          .map((spec) => `${rel(file)} → ${spec}`);
      });
    expect(offenders).toEqual([]);
  });

  it('the toolwright command imports only public surfaces (the core, the entry points), its own files, Node and libraries', () => {
    const entryPoint = (target: string) => /^adapters[\\/][^\\/]+$/.test(path.relative(src, target)) || /^adapters[\\/][^\\/]+[\\/]index$/.test(path.relative(src, target));
    const cli = all.filter((file) => rel(file).startsWith('cli'));
    const offenders = cli.flatMap((file) =>
      imports(file)
        .filter((spec) => spec.startsWith('.'))
        .filter((spec) => {
          const target = path.resolve(path.dirname(file), spec);
          return !allowedSurface(target) && !entryPoint(target) && !target.startsWith(path.join(src, 'cli') + path.sep);
        })
        .map((spec) => `${rel(file)} → ${spec}`),
    );
    expect(offenders).toEqual([]);
    expect(cli.length).toBeGreaterThanOrEqual(10);
  });

  it('the first-party-only module is published by no entry point and re-exported by no public surface', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(src, '..', 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    expect(JSON.stringify(pkg.exports)).not.toMatch(/adapter-kit\/internal/);
    const surfaces = ['index.ts', path.join('adapter-kit', 'index.ts'), ...all.filter((file) => /^adapters[\\/][^\\/]+[\\/]index\.ts$/.test(rel(file))).map(rel)];
    const leaks = surfaces.filter((file) => imports(path.join(src, file)).some((spec) => path.resolve(path.dirname(path.join(src, file)), spec) === FIRST_PARTY_ONLY));
    expect(leaks).toEqual([]);
  });

  describe('the rooms of adapters/mcp', () => {
    /**
     * toolwright/mcp by concern, bottom up, one way like the core's ranks: a room imports its own
     * files and rooms of a lower rank, never a higher one, never another of its own rank.
     *   auth, protocol, peers who calls (tokens, scopes, caller identity); what each revision adds on
     *                         the wire (input-required rounds, the sealed request state, approvals,
     *                         list caching, request classification); the check that the MCP SDK is
     *                         installed, which the entry point loads first (peers.ts)
     *   members               what is served: tools, resources, prompts, completions, their entries,
     *                         runs and answers, the tool context, the request context
     *   composition, tasks    who sees what (visibility, scopes) and mounts of other servers; tool
     *                         calls as tasks on a queue
     *   server                the server factory: the table of contents of what a server is
     *   hosting               HTTP (sessions, stateless, both revisions), stdio, event stores, limits
     *   index                 the entry point, toolwright/mcp
     */
    const MCP_ROOMS: readonly (readonly string[])[] = [['auth', 'protocol', 'peers'], ['members'], ['composition', 'tasks'], ['server'], ['hosting'], ['index']];
    const mcp = path.join(src, 'adapters', 'mcp');
    const roomRank = new Map(MCP_ROOMS.flatMap((rooms, rank) => rooms.map((room) => [room, rank] as const)));
    /** A file's room (relative to src/adapters/mcp): its folder, or `index` for the entry point; declaration files are not rooms. */
    const roomOf = (relative: string) => (relative.includes(path.sep) ? relative.split(path.sep)[0] : relative.replace(/\.ts$/, ''));
    const roomOffenders = (relative: string, specs: readonly string[]) =>
      specs
        .filter((spec) => spec.startsWith('.'))
        .flatMap((spec) => {
          const target = path.relative(mcp, resolveRelative(path.join(mcp, relative), spec));
          if (target.startsWith('..')) return [];
          const [from, to] = [roomOf(relative), roomOf(target)];
          if (from === to) return [];
          const [a, b] = [roomRank.get(from)!, roomRank.get(to)];
          if (b === undefined) return [`${relative} → ${spec}: ${to} is not a room`];
          if (b > a) return [`${relative} → ${spec}: upward: ${from} (rank ${a}) → ${to} (rank ${b})`];
          if (b === a) return [`${relative} → ${spec}: across one rank: ${from} and ${to} are both rank ${a}`];
          return [];
        });
    const mcpFiles = files(mcp)
      .map((file) => path.relative(mcp, file))
      .filter((file) => !file.endsWith('.d.ts'));

    it('every file is in a room of the table (a new room must be added to MCP_ROOMS)', () => {
      const unplaced = [...new Set(mcpFiles.map(roomOf))].filter((room) => !roomRank.has(room));
      expect(unplaced).toEqual([]);
      expect(new Set(mcpFiles.map(roomOf)).size).toBe(MCP_ROOMS.flat().length); // every room holds files
    });

    it('rooms import only their own files and lower rooms, type-only imports included', () => {
      expect(mcpFiles.flatMap((file) => roomOffenders(file, imports(path.join(mcp, file))))).toEqual([]);
    });

    it('refuses an upward import, one across a rank, and one out of no room', () => {
      expect(roomOffenders(path.join('members', 'x.ts'), ["import type { Composition } from '../composition/composition';"].flatMap((text) => moduleSpecifiers(text)))).toEqual([
        'members/x.ts → ../composition/composition: upward: members (rank 1) → composition (rank 2)',
      ]);
      expect(roomOffenders(path.join('tasks', 'x.ts'), ['../composition/mounts'])).toEqual([
        'tasks/x.ts → ../composition/mounts: across one rank: tasks and composition are both rank 2',
      ]);
      expect(roomOffenders(path.join('protocol', 'x.ts'), ['../server/factory'])).toEqual([
        'protocol/x.ts → ../server/factory: upward: protocol (rank 0) → server (rank 3)',
      ]);
      expect(roomOffenders(path.join('hosting', 'x.ts'), ['../server/factory', '../members/config', './limits', '../../../index'])).toEqual([]);
    });
  });

  it('finds the files it checks (the test is not vacuous)', () => {
    expect(all.filter((file) => rel(file).startsWith(path.join('adapters', 'mcp'))).length).toBeGreaterThanOrEqual(5);
  });
});
