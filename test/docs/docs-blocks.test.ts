/**
 * Every TypeScript block on every page of the documentation site (docs/**\/*.md) is checked as the
 * README's are, by the same checker (test/helpers/markdown-blocks.ts, which says how): each page is
 * one reader's project, each block compiled exactly as written (or appended to the block it says it
 * continues) as an ES module and as CommonJS with the TypeScript setup page's tsconfigs, strict,
 * against the public entry points; every block stating a value (`// → value`) is run
 * (test/helpers/markdown-run.ts).
 */
import 'reflect-metadata';
import * as path from 'node:path';
import { describeBlocks } from '../helpers/describe-blocks';
import * as ts from 'typescript';
import { docsPages, documentedSetups, extractBlocks, TOP_LEVEL_AWAIT, typeCheck, type MarkdownDocument } from '../helpers/markdown-blocks';
import { runClaims } from '../helpers/markdown-run';

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

  it('compiles a block exactly as written: a name it never imports or declares is an error (no stand-ins are added)', () => {
    const document = probe(['```ts', "const result = await invoke(ApproveLoanV2, { loanId: 'l-1' });", 'void result;', '```', ''].join('\n'));
    expect([...typeCheck(extractBlocks(document)).values()].flat()).toEqual([
      expect.stringMatching(/^probe\.md:2: TS2304 Cannot find name 'invoke'/),
      expect.stringMatching(/^probe\.md:2: TS2304 Cannot find name 'ApproveLoanV2'/),
    ]);
  });

  it('compiles a block saying `// continues: name.ts` appended to that block, with only its own lines its problems', () => {
    const named = ['```ts', '// greet.ts', "import { invoke } from 'toolwright';", "export const greeting = 'hello';", 'const broken: number = greeting;', 'void invoke;', '```', ''].join('\n');
    const more = ['```ts', '// continues: greet.ts', 'const length: number = greeting.length;', "const wrong: string = length;", 'void wrong;', '```', ''].join('\n');
    const problems = [...typeCheck(extractBlocks(probe(named + '\n' + more))).values()].flat();
    expect(problems).toEqual([expect.stringMatching(/^probe\.md:5: TS2322/), expect.stringMatching(/^probe\.md:12: TS2322 Type 'number' is not assignable to type 'string'/)]);
    expect(() => typeCheck(extractBlocks(probe(more)))).toThrow('probe.md:2: continues greet.ts, which no block of probe.md is named');
  });

  it('compiles each block as CommonJS with the TypeScript 5 tsconfig of docs/guide/typescript.md, where top-level await is TS1378', () => {
    const [esm, commonjs] = documentedSetups();
    expect([esm.options.module, commonjs.options.module]).toEqual([ts.ModuleKind.NodeNext, ts.ModuleKind.CommonJS]);
    const document = probe(['```ts', "import { invoke, Tool } from 'toolwright';", '@Tool() class Ping { call() { return 1; } }', 'await invoke(Ping);', '```', ''].join('\n'));
    expect([...typeCheck(extractBlocks(document), esm).values()].flat()).toEqual([]);
    expect([...typeCheck(extractBlocks(document), commonjs).values()].flat()).toEqual([expect.stringMatching(new RegExp(`^probe\\.md:4: TS${TOP_LEVEL_AWAIT} `))]);
  });

  it('runs a block stating a value (`// → value`), with the named blocks it imports, and reports a wrong value', async () => {
    const named = ['```ts', '// ping.ts', "import 'reflect-metadata';", "import { Expects, Tool } from 'toolwright';", '@Tool() @Expects({ times: Number })', 'export class Ping { call({ times }: { times: number }) { return times * 2; } }', '```', ''].join('\n');
    const stating = ['```ts', "import { invoke } from 'toolwright';", "import { Ping } from './ping.js';", "await invoke(Ping, { times: '2' }); // → { ok: true, value: 4, … }", '(await invoke(Ping, { times: 3 })).value; // → 7', '```', ''].join('\n');
    const problems = await runClaims(extractBlocks(probe(named + '\n' + stating)));
    expect(problems).toEqual(['probe.md:13: (await invoke(Ping, { times: 3 })).value gives 6, the page says 7']);
  });

  it('runs a block followed by `<!-- prints -->` and an output block, and reports other output', async () => {
    const printing = (shown: string) =>
      ['```ts', "console.log('one', { two: 2 });", '```', '', 'It prints:', '', '<!-- prints -->', '```text', shown, '```', ''].join('\n');
    expect(await runClaims(extractBlocks(probe(printing('one { two: 2 }'))))).toEqual([]);
    expect(await runClaims(extractBlocks(probe(printing('one { two: 3 }'))))).toEqual(["probe.md:2: prints\none { two: 2 }\nwhere the page shows\none { two: 3 }"]);
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
