#!/usr/bin/env node
// `npm run peers:outdated`: for every peer dependency in package.json, asks the registry for its
// `latest` (npm view) and prints the ones whose latest release is outside the peer range (a new
// major, or a new 0.x minor, that users on it cannot install toolwright beside: npm answers
// ERESOLVE), and the ones whose devDependency (what the suite tests) is older than the range's
// newest major. Needs the registry, so it is not part of `npm test`. Exit 0 when every peer is
// current; 1 when one is not (so CI or a cron job can run it on purpose); 2 when the registry could
// not be asked.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(fs.readFileSync(join(root, 'package.json'), 'utf8'));

/** [major, minor, patch] of '1.2.3' (a prerelease tail ignored). */
const parts = (version) =>
  version
    .replace(/^[~^=v]+/, '')
    .split(/[.-]/)
    .slice(0, 3)
    .map(Number);

/**
 * Is `version` in `range`? For the forms peer ranges use here: `^a.b.c` alternatives joined by `||`
 * (`^0.b.c` keeps minor b, as npm's caret does), and `>=a.b.c`.
 */
export function inRange(version, range) {
  const [major, minor] = parts(version);
  return range.split('||').some((alternative) => {
    const text = alternative.trim();
    const [a, b] = parts(text);
    if (text.startsWith('>=')) return major > a || (major === a && minor >= b);
    if (text.startsWith('^')) return a > 0 ? major === a : major === 0 && minor === b;
    return parts(text).join('.') === parts(version).join('.');
  });
}

/** The newest major (or 0.x minor) a range allows: '^5.0.0 || ^6.0.0' → '6', '^0.14.0 || ^0.15.0' → '0.15'. */
const newestLine = (range) => {
  const last = range.split('||').pop().trim();
  const [a, b] = parts(last);
  return a > 0 ? String(a) : `0.${b}`;
};
const lineOf = (version) => {
  const [a, b] = parts(version);
  return a > 0 ? String(a) : `0.${b}`;
};

function latest(name) {
  return new Promise((resolve) =>
    execFile('npm', ['view', name, 'dist-tags.latest'], { encoding: 'utf8', timeout: 60_000 }, (error, stdout) =>
      resolve(error ? { name, error: error.message.split('\n')[0] } : { name, latest: stdout.trim() }),
    ),
  );
}

const peers = Object.entries(manifest.peerDependencies);
const answers = await Promise.all(peers.map(([name]) => latest(name)));
const failed = answers.filter((answer) => answer.error);
const outdated = [];
const untested = [];
for (const [name, range] of peers) {
  const answer = answers.find((candidate) => candidate.name === name);
  if (answer.error) continue;
  const dev = manifest.devDependencies[name];
  const line = `${name.padEnd(28)} ${range.padEnd(26)} latest ${answer.latest.padEnd(10)} tested ${dev ?? '-'}`;
  if (!inRange(answer.latest, range)) outdated.push(`${line}   <- latest is outside the range`);
  else if (dev && lineOf(dev) !== newestLine(range))
    untested.push(`${line}   <- the suite tests ${lineOf(dev)}, the range reaches ${newestLine(range)}`);
  else console.log(line);
}
for (const line of [...untested, ...outdated]) console.log(line);
for (const { name, error } of failed) console.error(`${name}: npm view failed: ${error}`);
console.log(
  `\npeers:outdated: ${peers.length} peers; ${outdated.length} with a latest release outside the range${outdated.length ? ` (${outdated.map((line) => line.split(' ')[0]).join(', ')})` : ''}; ` +
    `${untested.length} whose newest major the suite does not install${untested.length ? ` (${untested.map((line) => line.split(' ')[0]).join(', ')})` : ''}.`,
);
process.exit(failed.length > 0 ? 2 : outdated.length > 0 ? 1 : 0);
