/**
 * The README is the landing page (issue 29): short, and one click from every guide. It links every
 * page of docs/guide by its site URL (package.json `homepage`: the README is also read on the
 * registry and in node_modules, beside no guide; test/docs/links.test.ts checks every link), and it
 * stays short (the details live in the guides, where they are type-checked and built into the site).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { siteUrl } from '../../docs/.vitepress/site-links';

const repo = path.resolve(__dirname, '..', '..');
const readme = fs.readFileSync(path.join(repo, 'README.md'), 'utf8');
/** The targets of the README's Markdown links, `[text](target)`. */
const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]);

describe('the README as the landing page', () => {
  it('links every guide of docs/guide, by its site URL', () => {
    const guides = fs.readdirSync(path.join(repo, 'docs', 'guide')).filter((file) => file.endsWith('.md'));
    expect(guides.length).toBeGreaterThan(10);
    expect(guides.filter((guide) => !targets.includes(`${siteUrl}/guide/${guide.replace(/\.md$/, '')}`))).toEqual([]);
  });

  it('is short: under 200 lines', () => {
    expect(readme.split('\n').length).toBeLessThan(200);
  });
});
