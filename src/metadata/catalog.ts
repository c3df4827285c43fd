/**
 * The catalog: every class a toolwright class or method decorator has touched, in declaration
 * order. JavaScript cannot enumerate the classes of a program, so this append-only list is how a
 * registry finds tools. It is the registry's storage, read through `ToolRegistry`; a registry may
 * look only at the part of it declared after a mark (isolated registries in tests). Every copy of
 * toolwright in the process shares it (see ./process-stores).
 */
import { processStore } from './process-stores';

const { entries, known } = processStore('catalog', () => ({ entries: [] as Function[], known: new Set<Function>() }));

export function catalogClass(target: Function): void {
  if (known.has(target)) return;
  known.add(target);
  entries.push(target);
}

/** A position in the catalog; classes cataloged later have a higher index. */
export function catalogMark(): number {
  return entries.length;
}

export function catalogSince(mark: number): readonly Function[] {
  return entries.slice(mark);
}

/** Forgets everything cataloged after `mark` (a module that failed to load keeps nothing). */
export function forgetSince(mark: number): void {
  for (const target of entries.splice(mark)) known.delete(target);
}
