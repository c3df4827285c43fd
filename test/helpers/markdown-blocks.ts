/**
 * The checker of TypeScript blocks in Markdown, for README.md (test/readme/readme.test.ts) and every
 * page of the documentation site (test/docs/docs-blocks.test.ts).
 *
 * Every ```ts block is compiled as a reader who copies it would compile it, in the two setups the
 * TypeScript setup page (docs/guide/typescript.md) gives, each read from that page:
 * - ES modules: its TypeScript 7 tsconfig (`"module": "nodenext"`) in a project with
 *   `"type": "module"` (top-level await works; a relative import needs its `.js`);
 * - CommonJS: its TypeScript 5 tsconfig (`"module": "commonjs"`) in a project without it. There the
 *   one difference the pages allow is top-level `await`, which the first tool's page tells a
 *   CommonJS reader to put in an `async function`: a block using it must fail with that (TS1378)
 *   and nothing else.
 * Both compile with this repository's TypeScript (5.9; TypeScript 7's compiler has no JavaScript
 * API), `types: ["node"]`, importing toolwright through its public entry points (mapped to src/, as
 * tsconfig.json maps them). Each Markdown document is its own reader's project (its own folder).
 *
 * A block is a file a reader copies: it compiles exactly as written, importing or declaring every
 * name it uses. Nothing is added to it, with two visible exceptions a reader sees on the page:
 * - a block whose first line is `// name.ts` is that file of the project, which the document's
 *   other blocks import as `./name.js`;
 * - a block whose first line is `// continues: name.ts` is more of that file: it is compiled
 *   appended to that block (and what that block continues), and only its own lines' problems are its.
 * A block that is not code to copy (a sketch) is preceded by `<!-- fragment: reason -->` and
 * skipped; every skipped block must give its reason. One program per setup checks every block of
 * the documents it is given.
 *
 * A line `expression; // → value` states the expression's value, and a fenced block marked
 * `<!-- prints -->` just after a block is what the block prints: test/helpers/markdown-run.ts runs
 * every block stating either and compares.
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
  /** The file of the project the block is (its own, unless it is named `// name.ts`). */
  readonly file: string;
  /** Set when the block's first line is `// continues: name.ts`: the file it adds to. */
  readonly continues?: string;
  /** What the block prints when run: the fenced block after it marked `<!-- prints -->`. */
  readonly prints?: { readonly lang: string; readonly text: string };
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
    const continues = /^\/\/ continues: ([\w-]+\.ts)\s*$/.exec(lines[start] ?? '');
    // Its output: after blank lines and at most three lines of prose ("It prints:"), `<!-- prints -->` and a fenced block.
    let next = end + 1;
    const prose = (line: string): boolean => line.trim() === '' || !/^(```|<!--|#)/.test(line);
    while (next < lines.length && next - end <= 4 && prose(lines[next])) next++;
    const output = lines[next]?.trim() === '<!-- prints -->' ? /^```(\w*)\s*$/.exec(lines[next + 1] ?? '') : null;
    let outputEnd = next + 2;
    while (output && outputEnd < lines.length && !/^```\s*$/.test(lines[outputEnd])) outputEnd++;
    blocks.push({
      document,
      line: start + 1,
      code: lines.slice(start, end).join('\n') + '\n',
      fragment: marker ? marker[1].trim() : undefined,
      file: path.join(document.project, named ? named[1] : `block-line-${start + 1}.ts`),
      continues: continues ? path.join(document.project, continues[1]) : undefined,
      prints: output ? { lang: output[1], text: lines.slice(next + 2, outputEnd).join('\n') } : undefined,
    });
    i = end;
  }
  return blocks;
}

/** A way a reader sets up a project, read from the TypeScript setup page. */
export interface Setup {
  /** How problems name the setup. */
  readonly name: string;
  readonly options: ts.CompilerOptions;
  /** The project's package.json says `"type": "module"`. */
  readonly esm: boolean;
}

/** The entry points as tsconfig.json maps them, for `paths`. */
const ENTRY_POINTS = {
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
  'toolwright/agents': ['src/adapters/agents/index.ts'],
  'toolwright/langchain': ['src/adapters/langchain/index.ts'],
  'toolwright/gemini': ['src/adapters/gemini/index.ts'],
  'toolwright/anthropic': ['src/adapters/anthropic/index.ts'],
  'toolwright/toolbox': ['src/adapters/toolbox/index.ts'],
};

/** The tsconfig after `<!-- tsconfig: NAME -->` on the TypeScript setup page, as compiler options. */
function documentedOptions(name: string): ts.CompilerOptions {
  const json = JSON.parse(markedBlock(path.join('docs', 'guide', 'typescript.md'), `tsconfig: ${name}`, 'json')) as { compilerOptions: object };
  const { options, errors } = ts.convertCompilerOptionsFromJson(json.compilerOptions, repo);
  if (errors.length > 0) throw new Error(`docs/guide/typescript.md's ${name} tsconfig: ${ts.flattenDiagnosticMessageText(errors[0].messageText, ' ')}`);
  const { outDir: _outDir, ...compile } = options;
  // Node's typings only (a reader's project has no @types/jest) and no DOM (what compiles without it
  // compiles with it; the program is half the size), every block its own module, and a side-effect
  // import (`import './greet.js'`) must resolve.
  return { ...compile, lib: ['lib.es2022.d.ts'], types: ['node'], moduleDetection: ts.ModuleDetectionKind.Force, noUncheckedSideEffectImports: true, noEmit: true, baseUrl: repo, paths: ENTRY_POINTS };
}

/** The two setups every block is compiled in: ES modules with the TypeScript 7 tsconfig, CommonJS with the TypeScript 5 one. */
export function documentedSetups(): Setup[] {
  return [
    { name: 'ES modules (TypeScript 7 tsconfig)', options: documentedOptions('typescript 7'), esm: true },
    { name: 'CommonJS (TypeScript 5 tsconfig)', options: documentedOptions('typescript 5'), esm: false },
  ];
}

/** TS1378: top-level `await` outside an ES module, the one problem a block may have in CommonJS (the pages say to wrap it). */
export const TOP_LEVEL_AWAIT = 1378;

/** The code of a block's file: what it continues (recursively), then its own lines. */
export function fileOf(block: Block, byFile: ReadonlyMap<string, Block>, seen: readonly Block[] = []): { code: string; ownFrom: number } {
  if (!block.continues) return { code: block.code, ownFrom: 0 };
  const base = byFile.get(block.continues);
  if (!base) throw new Error(`${where(block)}: continues ${path.basename(block.continues)}, which no block of ${block.document.name} is named (its first line \`// ${path.basename(block.continues)}\`)`);
  if (seen.includes(base)) throw new Error(`${where(block)}: continues ${path.basename(block.continues)} in a circle`);
  const before = fileOf(base, byFile, [...seen, block]).code;
  return { code: before + block.code, ownFrom: before.split('\n').length - 1 };
}

/** The source files read from disk, by language version and path: one parse for every program. */
const parsed = new Map<string, ts.SourceFile | undefined>();

/**
 * Compiles the blocks (those not marked as fragments) in one program under `setup`: each block's
 * problems, as `name:line: TScode message` lines (empty when it compiles).
 */
export function typeCheck(checked: readonly Block[], setup: Setup = documentedSetups()[0]): Map<Block, string[]> {
  const duplicate = checked.find((block, i) => checked.findIndex((other) => other.file === block.file) !== i);
  if (duplicate) throw new Error(`${where(duplicate)}: a second block named ${path.basename(duplicate.file)} in one document: name each file of a document once`);
  const byFile = new Map(checked.map((block) => [block.file, block]));
  const files = new Map(checked.map((block) => [block, fileOf(block, byFile)]));
  const virtual = new Map<string, string>(checked.map((block) => [block.file, files.get(block)!.code]));
  const projects = [...new Set(checked.map((block) => block.document.project))];
  for (const project of projects) {
    virtual.set(path.join(project, 'package.json'), JSON.stringify({ name: 'markdown-reader', private: true, type: setup.esm ? 'module' : 'commonjs' }));
  }
  const host = ts.createCompilerHost(setup.options);
  const { fileExists, readFile, getSourceFile, directoryExists } = host;
  // A project folder need not exist on disk (the site's pages' do not): it and its parents exist
  // for the resolver, or it would look neither for the blocks' files nor for the package.json.
  const folders = new Set(projects.flatMap((project) => project.split(path.sep).map((_, i, parts) => parts.slice(0, i + 1).join(path.sep) || path.sep)));
  host.directoryExists = (folder) => folders.has(folder) || (directoryExists?.call(host, folder) ?? ts.sys.directoryExists(folder));
  host.fileExists = (file) => virtual.has(file) || fileExists.call(host, file);
  host.readFile = (file) => virtual.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, onError, create) => {
    const code = virtual.get(file);
    if (code !== undefined) return ts.createSourceFile(file, code, language, true);
    // The files on disk (src/, the libraries' typings) are parsed once for every program of this process.
    const key = `${JSON.stringify(language)}:${file}`;
    if (!parsed.has(key)) parsed.set(key, getSourceFile.call(host, file, language, onError, create));
    return parsed.get(key);
  };
  const program = ts.createProgram(checked.map((block) => block.file), setup.options, host);
  const problems = new Map<Block, string[]>();
  for (const block of checked) {
    const source = program.getSourceFile(block.file)!;
    const { ownFrom } = files.get(block)!;
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    problems.set(
      block,
      diagnostics.flatMap((diagnostic) => {
        const { line } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        // The lines a block continues are that block's: their problems are reported there.
        return line < ownFrom ? [] : [`${where(block, line - ownFrom)}: TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`];
      }),
    );
  }
  return problems;
}
