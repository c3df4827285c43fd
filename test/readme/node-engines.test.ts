/**
 * docs/guide/install.md says which packages print an engine warning on Node 20 (the oldest line in
 * `engines`, which CI runs): the packages of package-lock.json whose own `engines.node` leaves it
 * out. When a dependency update adds or removes one, the page is out of date and this fails.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as semver from 'semver';

const repo = path.resolve(__dirname, '..', '..');
const read = (file: string): string => fs.readFileSync(path.join(repo, file), 'utf8');

describe('Node 20 and the installed packages', () => {
  const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> };
  const oldest = semver.minVersion((JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node)!.version;

  it('the lowest supported Node is 20.19.0', () => {
    expect(oldest).toBe('20.19.0');
  });

  it('install.md names every package of the lockfile that declares a newer Node, with its major, and the count', () => {
    const leaving = Object.entries(lock.packages)
      .filter(([at, entry]) => at !== '' && !Array.isArray(entry.engines) && entry.engines?.node !== undefined && !semver.satisfies(oldest, entry.engines.node))
      .map(([at, entry]) => `\`${at.slice(at.lastIndexOf('node_modules/') + 'node_modules/'.length)}\` ${semver.major(entry.version!)}`);
    const page = read('docs/guide/install.md');
    const section = page.slice(page.indexOf('## Node.js'), page.indexOf('## TypeScript'));
    expect(leaving.filter((name) => !section.includes(name))).toEqual([]);
    // npm warns once per installed copy: `cookie` 2 is installed twice.
    expect(section).toContain(`${['none', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'][leaving.length] ?? leaving.length} in all`);
  });
});
