/**
 * Runs the TypeScript blocks of Markdown pages that state a value, and compares: a line
 * `expression; // → value` (test/helpers/markdown-blocks.ts checks that every block compiles)
 * claims that the expression (awaited when it says `await`) gives `value`, a JavaScript literal;
 * a `…` in it (`{ ok: true, value: 1, … }`) means "and other members", compared as a subset. A
 * fenced block marked `<!-- prints -->` after a block is what it prints (`console.log`): the same
 * text, or for a ```json block the same JSON.
 *
 * In process, fast: each block is transpiled to CommonJS by TypeScript (legacy decorators and
 * their metadata, as the pages' tsconfigs set them) and run as the body of an async function (so
 * its top-level `await` runs as in an ES module). A block is one reader's program run in its
 * own module registry with empty process-wide stores (withFreshToolwright), as a new process; a block's
 * `./name.js` import is the document's block named `// name.ts`, run first. Only blocks stating a
 * value or an output run (with what they import): a block that starts a server states neither.
 */
import * as util from 'node:util';
import * as path from 'node:path';
import * as ts from 'typescript';
import { fileOf, where, type Block } from './markdown-blocks';

/** A value a block states for one of its lines. */
export interface Claim {
  readonly block: Block;
  /** The document's line. */
  readonly line: number;
  readonly expression: string;
  readonly expected: string;
}

const CLAIM = /^(\s*)(.+?);?\s*\/\/ → (.+?)\s*$/;

/** The values a block states (`expression; // → value`), in its own lines. */
export function claimsOf(block: Block): Claim[] {
  return block.code.split('\n').flatMap((text, i) => {
    const claim = CLAIM.exec(text);
    return claim ? [{ block, line: block.line + i, expression: claim[2], expected: claim[3] }] : [];
  });
}

const TRANSPILE: ts.CompilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
};

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...parameters: string[]) => (...values: unknown[]) => Promise<void>;

/** The `./name.js` imports of a block's code, as the files they are in its document's project. */
const localImports = (block: Block, code: string): string[] =>
  [...code.matchAll(/^import (?:[^'"]* from )?'\.\/([\w-]+)\.js';/gm)].map((match) => path.join(block.document.project, `${match[1]}.ts`));

/** What a claim's value is: the literal, and whether it is compared as a subset (it has a `…`). */
function expectedOf(claim: Claim): { value: unknown; subset: boolean } {
  const subset = claim.expected.includes('…');
  const literal = claim.expected.replace(/,\s*…/g, '').replace(/…/g, '');
  try {
    return { value: new Function(`return (${literal});`)() as unknown, subset };
  } catch (error) {
    throw new Error(`${claim.block.document.name}:${claim.line}: the stated value ${claim.expected} is not a JavaScript literal (${(error as Error).message})`);
  }
}

/** Whether `actual` is `expected` (or, as a subset, has its members): a problem line, or undefined. */
function compare(claim: Claim, actual: unknown): string | undefined {
  const { value, subset } = expectedOf(claim);
  try {
    if (subset) expect(actual).toMatchObject(value as object);
    else expect(actual).toEqual(value);
    return undefined;
  } catch {
    return `${claim.block.document.name}:${claim.line}: ${claim.expression} gives ${util.inspect(actual, { depth: 4, breakLength: Infinity })}, the page says ${claim.expected}`;
  }
}

/** Where toolwright keeps its process-wide stores (the catalog, `Tools`, …): src/metadata/process-stores.ts. */
const PROCESS_STORES = Symbol.for('toolwright.process-stores');

/**
 * Runs `fn` as a reader's new process would: its own copy of every module (so toolwright's
 * module-level state is new) and empty process-wide stores, which toolwright keeps on `globalThis`
 * so that two copies share one registry; this file's earlier stores are put back afterwards.
 */
async function withFreshToolwright(fn: () => Promise<unknown>): Promise<void> {
  const stores = (globalThis as { [PROCESS_STORES]?: { stores: Map<string, unknown> } })[PROCESS_STORES]?.stores;
  const before = new Map(stores ?? []);
  stores?.clear();
  try {
    await jest.isolateModulesAsync(async () => {
      await fn();
    });
  } finally {
    stores?.clear();
    for (const [name, store] of before) stores?.set(name, store);
  }
}

/** Whether `printed` is the output block `shown`: as JSON values for a ```json block, else the same text. */
function printsAsShown(shown: NonNullable<Block['prints']>, printed: string): boolean {
  if (shown.lang !== 'json') return printed.trimEnd() === shown.text.trimEnd();
  try {
    return util.isDeepStrictEqual(JSON.parse(printed), JSON.parse(shown.text));
  } catch {
    return false;
  }
}

/**
 * Runs every block of `blocks` (one document's, fragments left out) that states a value, with the
 * blocks it imports: the problems, as `name:line: …` lines (empty when every value is as stated).
 */
export async function runClaims(blocks: readonly Block[]): Promise<string[]> {
  const byFile = new Map(blocks.map((block) => [block.file, block]));
  const stating = blocks.filter((block) => claimsOf(block).length > 0 || block.prints);
  const problems: string[] = [];
  for (const block of stating) {
    const exported = new Map<string, unknown>();
    const seen = new Map<number, unknown>();
    const printed: string[] = [];
    // The block's console, printing into `printed`: what it prints is compared with its output block.
    const blockConsole: Console = Object.assign(Object.create(console) as Console, { log: (...values: unknown[]) => printed.push(util.format(...values)) });
    const run = async (current: Block, claims: readonly Claim[]): Promise<unknown> => {
      const { code, ownFrom } = fileOf(current, byFile);
      const lines = code.split('\n');
      for (const claim of claims) {
        const at = ownFrom + claim.line - current.line;
        const [, indent] = CLAIM.exec(lines[at])!;
        lines[at] = `${indent}__claim(${claim.line}, ${claim.expression});`;
      }
      const instrumented = lines.join('\n');
      for (const file of localImports(current, instrumented)) {
        const imported = byFile.get(file);
        if (!imported) throw new Error(`${where(current)}: imports ./${path.basename(file, '.ts')}.js, which no block of ${current.document.name} is named`);
        if (!exported.has(file)) exported.set(file, await run(imported, []));
      }
      const { outputText } = ts.transpileModule(instrumented, { compilerOptions: TRANSPILE, fileName: current.file });
      const module = { exports: {} as object };
      const load = (id: string): unknown => (id.startsWith('./') ? exported.get(path.join(current.document.project, id.replace(/\.js$/, '.ts'))) : require(id));
      await new AsyncFunction('exports', 'require', 'module', 'console', '__claim', outputText)(module.exports, load, module, blockConsole, (line: number, value: unknown) => seen.set(line, value));
      return module.exports;
    };
    const claims = claimsOf(block);
    try {
      await withFreshToolwright(() => run(block, claims));
    } catch (error) {
      problems.push(`${where(block)}: the block throws when run: ${(error as Error).stack ?? String(error)}`);
      continue;
    }
    for (const claim of claims) {
      const problem = seen.has(claim.line) ? compare(claim, seen.get(claim.line)) : `${claim.block.document.name}:${claim.line}: never ran (a stated value must be on a line that runs)`;
      if (problem) problems.push(problem);
    }
    if (block.prints && !printsAsShown(block.prints, printed.join('\n'))) {
      problems.push(`${where(block)}: prints\n${printed.join('\n')}\nwhere the page shows\n${block.prints.text}`);
    }
  }
  return problems;
}
