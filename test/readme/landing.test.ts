/**
 * The README is the landing page (issue 29): short, and one click from every guide. It links every
 * page of docs/guide, every link to a file of the repository names one that exists, and it stays
 * short (the details live in the guides, where they are type-checked and built into the site).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const repo = path.resolve(__dirname, '..', '..');
const readme = fs.readFileSync(path.join(repo, 'README.md'), 'utf8');
/** The targets of the README's Markdown links, `[text](target)`. */
const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]);

describe('the README as the landing page', () => {
  it('links every guide of docs/guide', () => {
    const guides = fs.readdirSync(path.join(repo, 'docs', 'guide')).filter((file) => file.endsWith('.md'));
    expect(guides.length).toBeGreaterThan(10);
    expect(guides.filter((guide) => !targets.includes(`docs/guide/${guide}`))).toEqual([]);
  });

  it('links only files that exist', () => {
    const local = targets.filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'));
    expect(local.length).toBeGreaterThan(10);
    expect(local.filter((target) => !fs.existsSync(path.join(repo, target.split('#')[0])))).toEqual([]);
  });

  it('is short: under 200 lines', () => {
    expect(readme.split('\n').length).toBeLessThan(200);
  });
});
