/**
 * The checker of TypeScript blocks in Markdown, for README.md (test/readme/readme.test.ts) and every
 * page of the documentation site (test/docs/docs-blocks.test.ts).
 *
 * Every ```ts block is type-checked as a user would compile it: each block its own file in a
 * project of ES modules (`"type": "module"`, so top-level await works) under `module`/
 * `moduleResolution` `nodenext` (a relative import needs its `.js`, as Node requires, and a
 * side-effect import must resolve), `strict`, with legacy decorators and decorator metadata,
 * importing toolwright through its public entry points (mapped to src/, as tsconfig.json maps
 * them). Each Markdown document is its own reader's project (its own folder): a block whose first
 * line is `// name.ts` is that file of the project, which the document's other blocks import as
 * `./name.js`. A block that cannot be completed is preceded by `<!-- fragment: reason -->` and
 * skipped; every skipped block must give its reason. One program checks every block of the
 * documents it is given.
 *
 * A block with an `import` is a file a reader copies: it is compiled exactly as written, so it
 * imports or declares every name it uses. Only a block without any import (a snippet continuing the
 * examples around it) may leave out the imports of the names it uses from `toolwright`,
 * class-validator and tsyringe and use the stand-ins for the application declared in APPLICATION
 * below: the checker adds those imports, as a reader continuing the first example would have them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const repo = path.resolve(__dirname, '..', '..');

/**
 * The ```lang block after `<!-- marker -->` in `file` (relative to the repository): a block a test
 * reads from a page, so that the page shows what the test runs. Throws naming the file and marker.
 */
export function markedBlock(file: string, marker: string, lang: string): string {
  const page = fs.readFileSync(path.join(repo, file), 'utf8');
  const at = page.indexOf(`<!-- ${marker} -->`);
  const block = at < 0 ? null : new RegExp('```' + lang + '\\n([\\s\\S]*?)\\n```').exec(page.slice(at));
  if (!block) throw new TypeError(`${file} has no \`\`\`${lang} block after <!-- ${marker} -->`);
  return block[1];
}

/** A Markdown document to check: its text, the name its problems are reported under, its project folder. */
export interface MarkdownDocument {
  /** How problems name the document, e.g. `README.md` or `docs/guide/mcp.md`. */
  readonly name: string;
  readonly markdown: string;
  /** The folder the document's blocks live in (virtually): one reader's project. */
  readonly project: string;
}

/**
 * Every Markdown page written for the documentation site (docs/**\/*.md), each its own reader's
 * project under test/docs/pages: not VitePress' own folder (.vitepress), nor docs/api, which TypeDoc
 * generates from the source's doc comments (npm run docs:api) and git ignores.
 */
export function docsPages(): MarkdownDocument[] {
  const docs = path.join(repo, 'docs');
  // Not walked at all, so that a build regenerating docs/api meanwhile (test/docs/site-build.test.ts) cannot race the walk.
  const written = fs.readdirSync(docs).filter((entry) => entry !== '.vitepress' && entry !== 'api');
  return written
    .flatMap((entry) => (fs.statSync(path.join(docs, entry)).isDirectory() ? (fs.readdirSync(path.join(docs, entry), { recursive: true, encoding: 'utf8' }) as string[]).map((file) => path.join(entry, file)) : [entry]))
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => ({
      name: path.join('docs', file),
      markdown: fs.readFileSync(path.join(docs, file), 'utf8'),
      project: path.join(repo, 'test', 'docs', 'pages', file.replace(/\.md$/, '')),
    }));
}

export interface Block {
  readonly document: MarkdownDocument;
  /** The document's line of the first line of code (1-based). */
  readonly line: number;
  readonly code: string;
  /** Set when the block is marked `<!-- fragment: reason -->`. */
  readonly fragment?: string;
  readonly file: string;
}

/** `name:line`, how a block is named in a test's output. */
export function where(block: Block, offset = 0): string {
  return `${block.document.name}:${block.line + offset}`;
}

export function extractBlocks(document: MarkdownDocument): Block[] {
  const lines = document.markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(?:ts|typescript)\s*$/.test(lines[i])) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    let previous = i - 1;
    while (previous >= 0 && lines[previous].trim() === '') previous--;
    const marker = previous >= 0 ? /^<!--\s*fragment:(.*)-->\s*$/.exec(lines[previous].trim()) : null;
    const named = /^\/\/ ([\w-]+\.ts)\s*$/.exec(lines[start] ?? '');
    blocks.push({
      document,
      line: start + 1,
      code: lines.slice(start, end).join('\n') + '\n',
      fragment: marker ? marker[1].trim() : undefined,
      file: path.join(document.project, named ? named[1] : `block-line-${start + 1}.ts`),
    });
    i = end;
  }
  return blocks;
}

/** The application the snippets live in: what they use without declaring. Types only. */
const APPLICATION = `
export declare class Loan { id: string; state: 'pending' | 'approved' | 'cancelled'; }
export declare class LoanStatusInput { loanId: string; }
export declare class LoanStatus { loanId: string; state: string; }
export declare class LoanRepository {
  find(id: string): Promise<Loan | undefined>;
  status(id: string): Promise<LoanStatus>;
  approve(loan: Loan, amount: number, officerId: string): Promise<string>;
}
// Tools the examples declare in other blocks (as in examples/loan-desk).
export declare class ApproveLoanInput { loanId: string; amount: number; tier: 'standard' | 'express'; officerId: string; }
export declare class ApproveLoanV2 { call(input: ApproveLoanInput): Promise<{ approvalId: string; approvedAt: Date }>; }
export declare class CheckCredit { call(input: { applicantId: string }): { score: number; band: string }; }
export declare class LoanService { status(input: LoanStatusInput): Promise<LoanStatus>; }
export declare class RateLimited extends Error {}
export declare const loanId: string;
export declare const officerId: string;
export declare const session: { officerId: string };
export declare const token: string;
export declare const index: { search(query: string, limit?: number): Promise<string[]> };
export declare const container: import('tsyringe').DependencyContainer;
export declare function use(value: unknown): void;
export declare function show(message: string): void;
`;
/** The stand-ins' module, in each document's project folder. */
const APPLICATION_MODULE = './snippet-application.js';
const applicationFileIn = (project: string): string => path.join(project, 'snippet-application.d.ts');

/** The names a snippet may use without importing them, by module. */
function importableNames(): Map<string, string> {
  const from = new Map<string, string>();
  const application = ts.createSourceFile('application.d.mts', APPLICATION, ts.ScriptTarget.ES2022, true);
  for (const statement of application.statements) {
    if ((ts.isClassDeclaration(statement) || ts.isFunctionDeclaration(statement)) && statement.name) from.set(statement.name.text, APPLICATION_MODULE);
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) from.set(declaration.name.text, APPLICATION_MODULE);
    }
  }
  const index = fs.readFileSync(path.join(repo, 'src', 'index.ts'), 'utf8');
  for (const [, list] of index.matchAll(/export (?:type )?\{([^}]*)\}/g)) {
    for (const name of list.split(',').map((entry) => entry.trim().split(/\s+as\s+/).pop()!.trim())) {
      if (name) from.set(name, 'toolwright');
    }
  }
  for (const library of ['class-validator', 'tsyringe']) {
    for (const name of Object.keys(require(library) as object)) if (!from.has(name) && /^[A-Za-z]\w*$/.test(name)) from.set(name, library);
  }
  return from;
}

/**
 * A snippet's code (a block without imports) plus, on a line after it, imports of the importable
 * names it uses but does not declare at top level (after it, so that line numbers stay the
 * document's). A block with imports is returned as it is.
 */
function withImports(code: string, importable: Map<string, string>): string {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.ES2022, true);
  if (source.statements.some((statement) => ts.isImportDeclaration(statement))) return code;
  const declared = new Set<string>();
  for (const statement of source.statements) {
    if ((ts.isClassDeclaration(statement) || ts.isFunctionDeclaration(statement)) && statement.name) {
      declared.add(statement.name.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) declared.add(declaration.name.text);
      }
    } else if ((ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name) {
      declared.add(statement.name.text);
    }
  }
  const used = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) {
      const parent = node.parent;
      const isMemberName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
        (ts.isPropertyAssignment(parent) && parent.name === node) ||
        (ts.isQualifiedName(parent) && parent.right === node) ||
        ((ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertySignature(parent)) && parent.name === node);
      if (!isMemberName) used.add(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const byModule = new Map<string, string[]>();
  for (const name of used) {
    const module = importable.get(name);
    if (module && !declared.has(name)) byModule.set(module, [...(byModule.get(module) ?? []), name]);
  }
  const imports = [...byModule].map(([module, names]) => `import { ${names.join(', ')} } from '${module}';`).join(' ');
  return imports ? `${code}${imports}\n` : code;
}

const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  moduleDetection: ts.ModuleDetectionKind.Force,
  lib: ['lib.es2022.d.ts'],
  types: ['node'],
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  useDefineForClassFields: false,
  esModuleInterop: true,
  skipLibCheck: true,
  noUncheckedSideEffectImports: true,
  noEmit: true,
  baseUrl: repo,
  paths: {
    toolwright: ['src/index.ts'],
    'toolwright/kit': ['src/adapter-kit/index.ts'],
    'toolwright/testing': ['src/testing/index.ts'],
    'toolwright/mcp': ['src/adapters/mcp/index.ts'],
    'toolwright/openai': ['src/adapters/openai/index.ts'],
    'toolwright/ai': ['src/adapters/ai/index.ts'],
    'toolwright/http': ['src/adapters/http/index.ts'],
    'toolwright/nest': ['src/adapters/nest/index.ts'],
    'toolwright/queue': ['src/adapters/queue/index.ts'],
    'toolwright/mcp-client': ['src/adapters/mcp-client/index.ts'],
  },
};

/**
 * Type-checks the blocks (those not marked as fragments) in one program: each block's problems,
 * as `name:line: TScode message` lines (empty when it compiles).
 */
export function typeCheck(checked: readonly Block[]): Map<Block, string[]> {
  const importable = importableNames();
  const virtual = new Map<string, string>(checked.map((block) => [block.file, withImports(block.code, importable)]));
  const projects = [...new Set(checked.map((block) => block.document.project))];
  for (const project of projects) {
    virtual.set(applicationFileIn(project), APPLICATION);
    virtual.set(path.join(project, 'package.json'), JSON.stringify({ name: 'markdown-reader', private: true, type: 'module' }));
  }
  const duplicate = checked.find((block, i) => checked.findIndex((other) => other.file === block.file) !== i);
  if (duplicate) throw new Error(`${where(duplicate)}: a second block named ${path.basename(duplicate.file)} in one document: name each file of a document once`);
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile, directoryExists } = host;
  // A project folder need not exist on disk (the site's pages' do not): it and its parents exist
  // for the resolver, or it would look neither for the blocks' files nor for the package.json.
  const folders = new Set(projects.flatMap((project) => project.split(path.sep).map((_, i, parts) => parts.slice(0, i + 1).join(path.sep) || path.sep)));
  host.directoryExists = (folder) => folders.has(folder) || (directoryExists?.call(host, folder) ?? ts.sys.directoryExists(folder));
  host.fileExists = (file) => virtual.has(file) || fileExists.call(host, file);
  host.readFile = (file) => virtual.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, onError, create) => {
    const code = virtual.get(file);
    return code !== undefined ? ts.createSourceFile(file, code, language, true) : getSourceFile.call(host, file, language, onError, create);
  };
  const applicationFiles = projects.map(applicationFileIn);
  const program = ts.createProgram([...applicationFiles, ...checked.map((block) => block.file)], options, host);
  for (const file of applicationFiles) {
    const application = program.getSourceFile(file)!;
    const setup = [...program.getSyntacticDiagnostics(application), ...program.getSemanticDiagnostics(application)];
    if (setup.length > 0) throw new Error(`the Markdown checker's application stand-ins do not compile: ${ts.flattenDiagnosticMessageText(setup[0].messageText, ' ')}`);
  }
  const problems = new Map<Block, string[]>();
  for (const block of checked) {
    const source = program.getSourceFile(block.file)!;
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    problems.set(
      block,
      diagnostics.map((diagnostic) => {
        const { line } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        return `${where(block, line)}: TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
      }),
    );
  }
  return problems;
}

/**
 * The three checks every Markdown document with TypeScript blocks gets, as a jest `describe` body:
 * there are blocks (at least `minimum`), every fragment says why, and every other block compiles.
 */
export function describeBlocks(documents: readonly MarkdownDocument[], minimum: number): void {
  const blocks = documents.flatMap(extractBlocks);

  it('has TypeScript blocks to check (the test is not vacuous)', () => {
    expect(blocks.filter((block) => !block.fragment).length).toBeGreaterThanOrEqual(minimum);
  });

  it('every block marked as a fragment says why', () => {
    const skipped = blocks.filter((block) => block.fragment !== undefined);
    expect(skipped.filter((block) => block.fragment === '').map((block) => where(block))).toEqual([]);
    // The list of skipped blocks, for whoever reads the test output.
    if (skipped.length > 0) console.log(skipped.map((block) => `${where(block)}: fragment: ${block.fragment}`).join('\n'));
  });

  it('every other block compiles under strict against the public entry points, as its own module', () => {
    const checked = blocks.filter((block) => block.fragment === undefined);
    const problems = [...typeCheck(checked).values()].flat();
    expect(problems).toEqual([]);
  });
}
