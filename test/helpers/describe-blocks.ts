/**
 * The checks of the TypeScript blocks of Markdown documents, shared by README.md's test and the
 * documentation site's: compiled by test/helpers/markdown-blocks.ts, run by test/helpers/markdown-run.ts.
 */
import { documentedSetups, extractBlocks, TOP_LEVEL_AWAIT, typeCheck, where, type MarkdownDocument } from './markdown-blocks';
import { runClaims } from './markdown-run';

/**
 * The checks every Markdown document with TypeScript blocks gets, as a jest `describe` body: there
 * are blocks (at least `minimum`), every fragment says why, every other block compiles as ES
 * modules and as CommonJS (there, top-level `await` aside), and every value a block states is what
 * it gives when run.
 */
export function describeBlocks(documents: readonly MarkdownDocument[], minimum: number): void {
  const blocks = documents.flatMap(extractBlocks);
  const checked = blocks.filter((block) => block.fragment === undefined);
  const [esm, commonjs] = documentedSetups();

  it('has TypeScript blocks to check (the test is not vacuous)', () => {
    expect(checked.length).toBeGreaterThanOrEqual(minimum);
  });

  it('every block marked as a fragment says why', () => {
    const skipped = blocks.filter((block) => block.fragment !== undefined);
    expect(skipped.filter((block) => block.fragment === '').map((block) => where(block))).toEqual([]);
    // The list of skipped blocks, for whoever reads the test output.
    if (skipped.length > 0) console.log(skipped.map((block) => `${where(block)}: fragment: ${block.fragment}`).join('\n'));
  });

  it(`every other block compiles as written, under strict against the public entry points: ${esm.name}`, () => {
    expect([...typeCheck(checked, esm).values()].flat()).toEqual([]);
  });

  it(`every other block compiles as written: ${commonjs.name}, top-level await aside (TS${TOP_LEVEL_AWAIT}, which the pages say to wrap)`, () => {
    const problems = [...typeCheck(checked, commonjs).values()].flat();
    expect(problems.filter((problem) => !problem.includes(`: TS${TOP_LEVEL_AWAIT} `))).toEqual([]);
  });

  it('every block stating a value (`expression; // → value`) gives it when run', async () => {
    const problems: string[] = [];
    for (const document of documents) problems.push(...(await runClaims(checked.filter((block) => block.document === document))));
    expect(problems).toEqual([]);
  });
}
