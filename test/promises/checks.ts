/**
 * Each promise's check, against any way in (harness.ts), for one member kind. A check asserts what
 * the promise says and nothing about how the way in keeps it.
 */
import type { MemberKind } from 'toolwright';
import { PIN } from '../fixtures/promises/members';
import { renamed, type Harness } from './harness';
import type { PromiseId, WayIn } from './promise-table';

/** The finding of the third attacker round: filler first, the recipient and the amount after it. */
export const ATTACK = { memo: `invoice ${'filler '.repeat(320)}end`, to: 'mallory-offshore', cents: 99999900 };

/** A hidden member of each kind, the unknown one it must be indistinguishable from, and how a caller uses it. */
const HIDDEN: Record<MemberKind, { hidden: string; unknown: string; listed?: string }> = {
  tool: { hidden: 'admin_reset', unknown: 'no_such_tool', listed: 'admin_reset' },
  resource: { hidden: 'notes://secret', unknown: 'notes://missing', listed: 'notes://secret' },
  'resource-template': { hidden: 'vault://items/7', unknown: 'vault://nowhere/7', listed: 'vault://items/{id}' },
  prompt: { hidden: 'audit_prompt', unknown: 'no_such_prompt', listed: 'audit_prompt' },
  completion: { hidden: 'audit_prompt', unknown: 'no_such_prompt' },
};

type Check = (harness: Harness, way: WayIn, kind: MemberKind) => Promise<void>;

const name = (harness: Harness, plain: string) => harness.rename?.(plain) ?? plain;

async function approval(harness: Harness, way: WayIn): Promise<void> {
  const before = await harness.runs();
  const approved = await harness.call(name(harness, 'pay'), ATTACK, { answer: 'approve', caller: 'admin' });
  const afterApproved = await harness.runs();
  const denied = await harness.call(name(harness, 'pay'), ATTACK, { answer: 'deny', caller: 'admin' });
  const afterDenied = await harness.runs();
  if (way.asks === 'never') {
    expect(approved).toMatchObject({ ok: false, questions: [] });
    expect(afterApproved.pay).toBe(before.pay);
  } else if (way.asks === 'flag') {
    // The application asked its person before (with the pipeline's question) and says so: it runs once.
    expect(approved.ok).toBe(true);
    expect(afterApproved.pay).toBe(before.pay + 1);
  } else {
    // One question, showing every argument that runs (the recipient and the amount after the filler).
    expect(approved.questions).toHaveLength(1);
    expect(approved.questions[0]).toContain('mallory-offshore');
    expect(approved.questions[0]).toContain('99999900');
    expect(approved.ok).toBe(true);
    // Approved once: it ran once.
    expect(afterApproved.pay).toBe(before.pay + 1);
    expect(denied.questions).toHaveLength(1);
  }
  // Denied (or not said to be approved): it does not run.
  expect(denied.ok).toBe(false);
  expect(afterDenied.pay).toBe(afterApproved.pay);
}

async function hidden(harness: Harness, way: WayIn, kind: MemberKind): Promise<void> {
  const target = HIDDEN[kind];
  const hiddenName = kind === 'tool' || kind === 'prompt' || kind === 'completion' ? name(harness, target.hidden) : target.hidden;
  const unknownName = kind === 'tool' || kind === 'prompt' || kind === 'completion' ? name(harness, target.unknown) : target.unknown;
  if (target.listed !== undefined && kind !== 'completion') {
    const listed = kind === 'tool' || kind === 'prompt' ? name(harness, target.listed) : target.listed;
    expect(await harness.list!(kind, 'reader')).not.toContain(listed);
    if (way.callers.includes('admin')) expect(await harness.list!(kind, 'admin')).toContain(listed);
  }
  if (kind === 'tool') {
    const before = await harness.runs();
    const asHidden = await harness.call(hiddenName, {}, { answer: 'approve', caller: 'reader' });
    const asUnknown = await harness.call(unknownName, {}, { answer: 'approve', caller: 'reader' });
    expect(renamed(asHidden.text, hiddenName, unknownName)).toBe(asUnknown.text);
    expect(asHidden.ok).toBe(false);
    expect((await harness.runs()).reset).toBe(before.reset);
    return;
  }
  const asHidden = await harness.use!(kind, hiddenName, 'reader');
  const asUnknown = await harness.use!(kind, unknownName, 'reader');
  expect(renamed(asHidden, hiddenName, unknownName)).toBe(asUnknown);
  if (way.callers.includes('admin')) expect(await harness.use!(kind, hiddenName, 'admin')).not.toMatch(/^error:/);
  if (kind === 'resource' && harness.subscribe) {
    const subscribed = await harness.subscribe(hiddenName, 'reader');
    expect(renamed(subscribed, hiddenName, unknownName)).toBe(await harness.subscribe(unknownName, 'reader'));
  }
}

async function sensitive(harness: Harness, way: WayIn): Promise<void> {
  const before = await harness.runs();
  const answers = [
    await harness.call(name(harness, 'vault'), { account: 'acc-1', pin: PIN }, { answer: 'approve', caller: 'admin' }),
    await harness.call(name(harness, 'vault'), { account: 'acc-1', pin: PIN }, { answer: 'deny', caller: 'admin' }),
    // Invalid input beside it: the answer names the problem, never the value.
    await harness.call(name(harness, 'vault'), { account: 42, pin: PIN, extra: PIN }, { answer: 'approve', caller: 'admin' }),
  ];
  const shown = answers.flatMap((answer) => [answer.text, ...answer.questions]).join('\n');
  expect(shown).not.toContain(PIN);
  expect(await harness.observed()).not.toContain(PIN);
  if (way.asks === 'person' || way.asks === 'app') expect(answers[0].questions).toHaveLength(1);
  if (way.asks !== 'never') expect((await harness.runs()).vault).toBe(before.vault + 1);
}

async function ambient(harness: Harness, way: WayIn): Promise<void> {
  const forged = await harness.call(name(harness, 'whoami'), { note: 'hi', user: 'mallory' }, { answer: 'approve', caller: 'reader' });
  const plain = await harness.call(name(harness, 'whoami'), { note: 'hi' }, { answer: 'approve', caller: 'reader' });
  const users = (await harness.runs()).users;
  expect(users).not.toContain('mallory');
  expect(forged.text).not.toContain('"user":"mallory"');
  expect(plain.ok).toBe(true);
  expect(users.at(-1)).toBe(way.user('reader'));
}

async function identity(harness: Harness): Promise<void> {
  const probe = await harness.crossIdentity!();
  expect(probe.own).toMatch(/^200 /);
  expect(probe.other).toBe(probe.unknown);
}

async function bounds(harness: Harness): Promise<void> {
  let deep: unknown = 'x';
  for (let i = 0; i < 200; i++) deep = [deep];
  const before = await harness.runs();
  const answer = await harness.call(name(harness, 'pay'), { memo: deep, to: 'a', cents: 1 }, { answer: 'approve', caller: 'admin' });
  expect(answer.ok).toBe(false);
  expect(answer.questions).toEqual([]);
  expect(answer.text).toMatch(/deep|depth|nest/i);
  expect((await harness.runs()).pay).toBe(before.pay);
}

export const CHECKS: Record<PromiseId, Check> = { approval, hidden, sensitive, ambient, identity, bounds };
