/**
 * Every TypeScript block in README.md is type-checked, as a user would compile it, by the checker
 * the documentation site's pages share (test/helpers/markdown-blocks.ts, which says how): each block
 * its own ES module of one reader's project (test/readme/, virtually), strict, against the public
 * entry points (the landing page has one: the first tool; the guides' blocks are checked by
 * test/docs/docs-blocks.test.ts); a block marked `<!-- fragment: reason -->` is skipped and must say why.
 */
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeBlocks } from '../helpers/describe-blocks';

const repo = path.resolve(__dirname, '..', '..');

describe('README.md', () => {
  describeBlocks([{ name: 'README.md', markdown: fs.readFileSync(path.join(repo, 'README.md'), 'utf8'), project: path.join(repo, 'test', 'readme') }], 1);
});
