/**
 * The promise matrix: every promise (promise-table.ts) × every way in × every member kind it is
 * about, each cell a check against the real way in (servers on 127.0.0.1, the SDK's clients, the
 * AI SDK's loop, child processes for stdio), or the reason the table gives for why it has nothing
 * to hold there. Security in the docs lists the promises and points here.
 */
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { MemberKind } from 'toolwright';
import { CHECKS } from './checks';
import type { Harness } from './harness';
import { NOT_WAYS_IN, PROMISES, WAYS, type PromiseId } from './promise-table';

jest.setTimeout(60_000);

const KINDS: readonly MemberKind[] = ['tool', 'resource', 'resource-template', 'prompt', 'completion'];

describe('the table', () => {
  it('has a way in for every entry point the package exports, and says why the others are none', () => {
    const exported = Object.keys(JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')).exports as object);
    const covered = new Set(Object.values(WAYS).map((way) => way.entry.replace(/^toolwright/, '.')));
    const missing = exported.filter((entry) => !covered.has(entry) && !(entry in NOT_WAYS_IN) && entry !== './package.json');
    expect(missing).toEqual([]);
  });

  it('says, for every promise and member kind, that it is checked or why not', () => {
    for (const promise of Object.values(PROMISES)) expect(Object.keys(promise.kinds).sort()).toEqual([...KINDS].sort());
  });
});

describe.each(Object.entries(WAYS))('%s', (id, way) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await way.open();
  }, 60_000);
  afterAll(async () => harness?.close(), 30_000);

  const cells: Array<[string, PromiseId, MemberKind]> = [];
  for (const [promise, { kinds }] of Object.entries(PROMISES) as Array<[PromiseId, (typeof PROMISES)[PromiseId]]>) {
    for (const kind of KINDS) {
      if (kinds[kind] !== true || !way.kinds.includes(kind)) continue;
      cells.push([`${promise} · ${kind}`, promise, kind]);
    }
  }

  it.each(cells)('%s', async (_label, promise, kind) => {
    const reason = way.notApplicable[promise];
    if (reason !== undefined) {
      // Not applicable: the table must say why, and the way in must not offer what the check would need.
      expect(reason.length).toBeGreaterThan(10);
      if (promise === 'identity') expect(harness.crossIdentity).toBeUndefined();
      return;
    }
    await CHECKS[promise](harness, way, kind);
  });

  it('declares no reason for a promise it is checked on', () => {
    for (const promise of Object.keys(way.notApplicable) as PromiseId[]) expect(Object.keys(PROMISES)).toContain(promise);
    void id;
  });
});
