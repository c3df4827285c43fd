/**
 * RFC 6570 matching: the values a URI gives a template's variables, the inverse of expansion, in
 * time linear in the URI (no regular expression, no backtracking: every character is looked at a
 * bounded number of times).
 *
 * The rules, which make every match unique:
 * - the template's leading literal must begin the URI and its trailing literal end it;
 * - a literal between expressions ends the text before it at its first occurrence;
 * - expressions with nothing between them (`{/path*}{?q}`) split at the first character that can
 *   begin a later one (`?`); named ones in a row with one separator (`{?q}{&page}`) are read as one;
 * - the last text (before the trailing literal) takes the rest;
 * - inside an expression: its operator's first character, then values split at its separator
 *   (unnamed: in order, an exploded variable taking what the others leave; named: by `name=`);
 * - a value is percent-decoded; a simple one (`{x}`, `{/x}`, `{?x}`, …) may hold unreserved
 *   characters and `%XX` only, a reserved one (`{+x}`, `{#x}`) reserved characters too; a
 *   `{x}` or `{+x}` needs at least one character; an exploded variable is always a list;
 * - `{var:3}` takes at most 3 characters, and a variable used twice must agree with itself.
 */
import { decodeValue as decode, prefixOf } from './uri-template-expand';
import type { Expression, TemplatePart, VarSpec } from './uri-template-parse';
import { setOwn } from './own-property';

/** What a URI gives a template's variables: a string each, a list for an exploded one. */
export type UriTemplateMatch = Record<string, string | string[]>;

type Found = Map<string, { value: string | readonly string[]; prefix?: number }>;

/** A run of the template read as one: an unnamed expression, or named ones sharing a separator. */
interface Group {
  /** The characters it may begin with ('' for `{x}` and `{+x}`, which may not be empty). */
  readonly firsts: string;
  read(text: string, found: Found): boolean;
}

/** The groups between two literals, and the literal that ends them (the template's last literal, anchored at the end, for the last). */
interface Segment {
  readonly groups: readonly Group[];
  /** Per group: the characters that end it (what a later group of the segment may begin with). */
  readonly stops: readonly string[];
  readonly literal: string;
  /** The literal's KMP failure table (first occurrence in linear time). */
  readonly table: readonly number[];
}

/** A compiled matcher of parsed parts. */
export function compileMatcher(parts: readonly TemplatePart[]): (uri: string) => UriTemplateMatch | undefined {
  const head = typeof parts[0] === 'string' ? parts[0] : '';
  const rest = parts.slice(head === '' ? 0 : 1);
  const segments: Segment[] = [];
  let expressions: Expression[] = [];
  for (const part of rest) {
    if (typeof part === 'string') {
      segments.push(segment(expressions, part));
      expressions = [];
    } else expressions.push(part);
  }
  if (expressions.length > 0 || segments.length === 0) segments.push(segment(expressions, ''));
  const tail = segments[segments.length - 1].literal;
  return (uri) => {
    if (uri.length < head.length + tail.length || !uri.startsWith(head) || !uri.endsWith(tail)) return undefined;
    const end = uri.length - tail.length;
    const found: Found = new Map();
    let pos = head.length;
    for (let s = 0; s < segments.length; s++) {
      const { groups, stops, literal, table } = segments[s];
      const last = s === segments.length - 1;
      const until = last ? end : indexOf(uri, literal, table, pos, end);
      if (until < 0) return undefined;
      for (let g = 0; g < groups.length; g++) {
        let stop = until;
        if (g < groups.length - 1) {
          let i = pos < until && groups[g].firsts.includes(uri[pos]) ? pos + 1 : pos;
          while (i < until && !stops[g].includes(uri[i])) i++;
          stop = i;
        }
        if (!groups[g].read(uri.slice(pos, stop), found)) return undefined;
        pos = stop;
      }
      if (pos !== until) return undefined;
      pos = until + literal.length;
    }
    const out: UriTemplateMatch = {};
    for (const [name, { value }] of found) setOwn(out, name, Array.isArray(value) ? [...value] : value);
    return out;
  };
}

function segment(expressions: readonly Expression[], literal: string): Segment {
  const groups: Group[] = [];
  for (let i = 0; i < expressions.length;) {
    const expression = expressions[i];
    let j = i + 1;
    if (expression.named) while (j < expressions.length && expressions[j].named && expressions[j].sep === expression.sep) j++;
    groups.push(expression.named ? namedGroup(expressions.slice(i, j)) : unnamedGroup(expression));
    i = j;
  }
  const stops = groups.map((_, g) => [...new Set(groups.slice(g + 1).flatMap((later) => [...later.firsts]))].join(''));
  return { groups, stops, literal, table: failureTable(literal) };
}

function failureTable(literal: string): number[] {
  const table = [0];
  for (let i = 1, k = 0; i < literal.length; i++) {
    while (k > 0 && literal[i] !== literal[k]) k = table[k - 1];
    if (literal[i] === literal[k]) k++;
    table.push(k);
  }
  return table;
}

/** The first index of `literal` in `text[from, to)` (Knuth–Morris–Pratt), or -1. */
function indexOf(text: string, literal: string, table: readonly number[], from: number, to: number): number {
  for (let i = from, k = 0; i < to; i++) {
    while (k > 0 && text[i] !== literal[k]) k = table[k - 1];
    if (text[i] === literal[k]) k++;
    if (k === literal.length) return i - k + 1;
  }
  return -1;
}

/** Records a value, refusing one longer than its prefix or disagreeing with another use of the variable. */
function record(found: Found, spec: VarSpec, value: string | readonly string[]): boolean {
  const { name, prefix } = spec;
  if (typeof value === 'string' && prefix !== undefined && prefixOf(value, prefix) !== value) return false;
  const before = found.get(name);
  if (!before) {
    found.set(name, { value, prefix });
    return true;
  }
  if (typeof value !== 'string' || typeof before.value !== 'string') {
    return JSON.stringify(value) === JSON.stringify(before.value);
  }
  const shorter = Math.min(prefix ?? Infinity, before.prefix ?? Infinity);
  const cut = (text: string) => (shorter === Infinity ? text : prefixOf(text, shorter));
  if (cut(value) !== cut(before.value)) return false;
  if ((prefix ?? Infinity) > (before.prefix ?? Infinity)) found.set(name, { value, prefix });
  return true;
}

function unnamedGroup(expression: Expression): Group {
  const { first, sep, reserved, vars } = expression;
  const scalars = vars.filter((spec) => !spec.explode).length;
  const whole = vars.length === 1 && !vars[0].explode;
  return {
    firsts: first,
    read(text, found) {
      // Empty: every variable undefined (an exploded one an empty list); `{x}` and `{+x}` need a value.
      if (text === '')
        return (first !== '' || vars.every((spec) => spec.explode)) && vars.every((spec) => !spec.explode || record(found, spec, []));
      if (!text.startsWith(first)) return false;
      const pieces = whole ? [text.slice(first.length)] : text.slice(first.length).split(sep);
      if (pieces.length > scalars && scalars === vars.length) return false;
      let next = 0;
      for (let v = 0; v < vars.length; v++) {
        const spec = vars[v];
        const scalarsAfter = vars.slice(v + 1).filter((later) => !later.explode).length;
        const take = spec.explode ? Math.max(0, pieces.length - next - scalarsAfter) : Math.min(1, pieces.length - next);
        const values = pieces.slice(next, next + take).map((piece) => decode(piece, reserved));
        next += take;
        if (values.some((value) => value === undefined)) return false;
        if (spec.explode ? !record(found, spec, values as string[]) : take === 1 && !record(found, spec, values[0]!)) return false;
      }
      return true;
    },
  };
}

function namedGroup(expressions: readonly Expression[]): Group {
  const { sep } = expressions[0];
  const specs = new Map<string, VarSpec>();
  for (const expression of expressions) for (const spec of expression.vars) if (!specs.has(spec.name)) specs.set(spec.name, spec);
  const firsts = [...new Set(expressions.map((expression) => expression.first))].join('');
  return {
    firsts,
    read(text, found) {
      const lists = new Map<VarSpec, string[]>();
      for (const spec of specs.values()) if (spec.explode) lists.set(spec, []);
      if (text !== '') {
        if (!firsts.includes(text[0])) return false;
        for (const pair of text.slice(1).split(sep)) {
          const eq = pair.indexOf('=');
          const spec = specs.get(eq < 0 ? pair : pair.slice(0, eq));
          const value = decode(eq < 0 ? '' : pair.slice(eq + 1), false);
          if (!spec || value === undefined) return false;
          if (spec.explode) lists.get(spec)!.push(value);
          else if (!record(found, spec, value)) return false;
        }
      }
      for (const [spec, values] of lists) if (!record(found, spec, values)) return false;
      return true;
    },
  };
}
