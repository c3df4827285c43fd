/**
 * Every TypeScript block on every page of the documentation site (docs/**\/*.md) is type-checked as
 * the README's are, by the same checker (test/helpers/markdown-blocks.ts): each page is one reader's
 * project, each block its own ES module, strict, against the public entry points.
 */
import 'reflect-metadata';
import * as path from 'node:path';
import { describeBlocks, docsPages, extractBlocks, typeCheck, type MarkdownDocument } from '../helpers/markdown-blocks';

const repo = path.resolve(__dirname, '..', '..');

describe('the documentation pages', () => {
  const documents = docsPages();

  it('are found (the landing page and the guides)', () => {
    expect(documents.map((document) => document.name)).toEqual(expect.arrayContaining(['docs/index.md', 'docs/guide/first-tool.md', 'docs/guide/mcp.md']));
  });

  describeBlocks(documents, 10);
});

describe('the Markdown checker', () => {
  const probe = (markdown: string): MarkdownDocument => ({ name: 'probe.md', markdown, project: path.join(repo, 'test', 'docs', 'probe') });

  it('reports a block that does not compile, with the line in the page', () => {
    const document = probe(['# Probe', '', '```ts', "import { invoke } from 'toolwright';", "const count: number = 'three';", 'void invoke;', '```', ''].join('\n'));
    const problems = [...typeCheck(extractBlocks(document)).values()].flat();
    expect(problems).toEqual([expect.stringMatching(/^probe\.md:5: TS2322 Type 'string' is not assignable to type 'number'/)]);
  });

  it('compiles a snippet without imports against the names it uses from toolwright and the stand-ins', () => {
    const document = probe(['```ts', 'const result = await invoke(ApproveLoanV2, { loanId });', 'if (result.ok) use(result.value);', '```', ''].join('\n'));
    expect([...typeCheck(extractBlocks(document)).values()].flat()).toEqual([]);
  });

  it('resolves a named block of the same page as ./name.js, and only there', () => {
    const named = ['```ts', '// greet.ts', "export const greeting = 'hello';", '```', ''].join('\n');
    const user = ['```ts', "import { greeting } from './greet.js';", 'const length: number = greeting.length;', 'void length;', '```', ''].join('\n');
    const together = probe(named + '\n' + user);
    expect([...typeCheck(extractBlocks(together)).values()].flat()).toEqual([]);
    const apart = [probe(named), { ...probe(user), name: 'other.md', project: path.join(repo, 'test', 'docs', 'other') }];
    expect([...typeCheck(apart.flatMap(extractBlocks)).values()].flat()).toEqual([expect.stringMatching(/^other\.md:2: TS2307 Cannot find module '\.\/greet\.js'/)]);
  });

  it('skips a block marked as a fragment, and keeps an empty reason visible', () => {
    const blocks = extractBlocks(probe(['<!-- fragment: continues the example above -->', '```ts', 'not typescript at all', '```', '', '<!-- fragment: -->', '```ts', 'nor this', '```', ''].join('\n')));
    expect(blocks.map((block) => block.fragment)).toEqual(['continues the example above', '']);
  });

  it('refuses two blocks that name the same file in one page', () => {
    const named = ['```ts', '// greet.ts', "export const greeting = 'hello';", '```', ''].join('\n');
    expect(() => typeCheck(extractBlocks(probe(named + named)))).toThrow('probe.md:6: a second block named greet.ts in one document');
  });
});
