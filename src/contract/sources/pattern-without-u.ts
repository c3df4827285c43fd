/**
 * A regular expression written without the `u` flag, as a pattern read with it: JSON Schema reads
 * `pattern` as ECMA-262 with the `u` flag (ajv compiles it so), and class-validator's `@Matches`
 * runs the expression as written. Without the flag (ECMA-262 Annex B) some text means something
 * else:
 *
 * - identity escapes: `\u{2}` is "u" twice (`\u` is "u", `{2}` a quantifier), `\p{L}` the text
 *   "p{L}", `\-` "-", `\a` "a", `\k` "k" when there is no named group; `\u12` is "u12", `\x4` "x4";
 * - a lone `{`, `}` or `]` is itself; `\1` with no group 1 is the octal escape U+0001, `\8` is "8";
 * - `[\w-a]` is a class of word characters, "-" and "a"; `(?=a)*` quantifies a lookahead.
 *
 * Those are rewritten into the `u` reading of the same meaning. What cannot be is refused
 * (undefined): any construct that can match one UTF-16 unit of a character outside the Basic
 * Multilingual Plane (`.`, a negated class, `\D`, `\S`, `\W`, a surrogate escape or literal),
 * since with the flag it matches the whole character (`/^.$/` refuses "😀" without the flag,
 * accepts it with it), and the rarer forms (`\c` without a letter, a quantified lookahead, group
 * modifiers). The caller then shows no pattern and class-validator alone decides.
 */

const SYNTAX = '^$\\.*+?()[]{}|/';
const HEX = /^[0-9a-fA-F]+$/;
// Sticky: read at a position, without copying the rest of the pattern.
const QUANTIFIER = /\{\d+(?:,\d*)?\}/y;
const GROUP_HEAD = /\(\?(?::|=|!|<=|<!|<[^>]+>)/y;
const NAMED_REFERENCE = /\\k<[^>]+>/y;

/** The match of a sticky expression at `at`, if any. */
function readAt(expression: RegExp, source: string, at: number): string | undefined {
  expression.lastIndex = at;
  return expression.exec(source)?.[0];
}

const isSurrogate = (code: number) => code >= 0xd800 && code <= 0xdfff;
const isOctal = (c: string | undefined) => c !== undefined && c >= '0' && c <= '7';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** One character as a `u` pattern writes it, outside a class or in one. */
function literal(code: number, inClass: boolean): string {
  const c = String.fromCharCode(code);
  if (SYNTAX.includes(c) || (inClass && c === '-')) return `\\${c}`;
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return `\\u${code.toString(16).padStart(4, '0')}`;
  return c;
}

/** The capturing groups of a pattern (for `\1`: a backreference or an octal escape), and whether any has a name. */
function groupsOf(source: string): { count: number; named: boolean } {
  let count = 0;
  let named = false;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') {
      if (source[i + 1] !== '?') count++;
      else if (source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') {
        count++;
        named = true;
      }
    }
  }
  return { count, named };
}

class Unrepresentable extends Error {}

const refuse = (): never => {
  throw new Unrepresentable();
};

/** Reads a pattern without the `u` flag and writes it with the flag. */
class Translator {
  private i = 0;
  private out = '';
  private readonly groups: { count: number; named: boolean };
  /** Whether a negative lookaround or `\B` may hold where the match starts: not with a leading `^` and no `|`. */
  private readonly anchored: boolean;
  /** Kinds of the open groups: a lookaround may not be quantified with the flag. */
  private readonly open: boolean[] = [];
  /** The last thing written was a lookaround (a quantifier after it has no `u` form). */
  private afterLookaround = false;

  constructor(private readonly source: string) {
    this.groups = groupsOf(source);
    this.anchored = source.startsWith('^') && !source.includes('|');
  }

  translate(): string {
    const s = this.source;
    while (this.i < s.length) {
      const c = s[this.i];
      const lookaround = this.afterLookaround;
      this.afterLookaround = false;
      if (c === '\\') this.escape();
      else if (c === '[') this.characterClass();
      else if (c === '.') refuse();
      else if (c === '(') this.group();
      else if (c === ')') {
        this.afterLookaround = this.open.pop() === true;
        this.emit(1, ')');
      } else if (c === '*' || c === '+' || c === '?') {
        if (lookaround) refuse();
        this.emit(1, c);
      } else if (c === '{') {
        const quantifier = readAt(QUANTIFIER, s, this.i);
        if (quantifier && lookaround) refuse();
        this.emit(quantifier ? quantifier.length : 1, quantifier ?? '\\{');
      } else if (c === '}' || c === ']') this.emit(1, `\\${c}`);
      else if (c === '^' || c === '$' || c === '|') this.emit(1, c);
      else this.emit(1, literal(this.char(s.charCodeAt(this.i)), false));
    }
    return this.out;
  }

  private emit(length: number, text: string): void {
    this.i += length;
    this.out += text;
  }

  private char(code: number): number {
    return isSurrogate(code) ? refuse() : code;
  }

  private group(): void {
    const s = this.source;
    if (s[this.i + 1] !== '?') {
      this.open.push(false);
      return this.emit(1, '(');
    }
    const head = readAt(GROUP_HEAD, s, this.i) ?? refuse(); // not group modifiers (?i:…)
    const negative = head === '(?!' || head === '(?<!';
    // Without the flag a match may start between the two halves of a surrogate pair, where a
    // negative lookaround can hold: only a match anchored at the start never does.
    if (negative && !this.anchored) refuse();
    this.open.push(negative || head === '(?=' || head === '(?<=');
    this.emit(head.length, head);
  }

  /** An escape outside a class. */
  private escape(): void {
    const s = this.source;
    const c = s[this.i + 1];
    // \B holds between the halves of a surrogate pair (as between two non-word characters).
    if (c === 'B' && !this.anchored) refuse();
    if ('dwsbBfnrtv'.includes(c)) return this.emit(2, `\\${c}`);
    if (c === 'D' || c === 'S' || c === 'W') refuse();
    if (isDigit(c) && c !== '0') {
      let end = this.i + 1;
      while (isDigit(s[end])) end++;
      const digits = s.slice(this.i + 1, end);
      // A backreference, kept apart from whatever digit follows it in the output.
      if (Number(digits) <= this.groups.count) return this.emit(end - this.i, `(?:\\${digits})`);
    }
    if (c === 'k' && this.groups.named) {
      const name = readAt(NAMED_REFERENCE, s, this.i) ?? refuse();
      return this.emit(name.length, `(?:${name})`);
    }
    this.emit(0, literal(this.characterEscape(), false));
  }

  /** A character escape (`\x41`, `\u0041`, octal, control, identity) at `i`: its code; moves past it. */
  private characterEscape(inClass = false): number {
    const s = this.source;
    const c = s[this.i + 1];
    if (c === undefined) refuse();
    const controls: Record<string, number> = { b: 8, f: 12, n: 10, r: 13, t: 9, v: 11 };
    if (c in controls && (inClass || c !== 'b')) return this.advance(2, controls[c]);
    if (c === 'c') {
      const letter = s[this.i + 2];
      if (letter && /[a-zA-Z]/.test(letter)) return this.advance(3, letter.charCodeAt(0) % 32);
      if (inClass && letter && /[0-9_]/.test(letter)) return this.advance(3, letter.charCodeAt(0) % 32);
      refuse(); // `\c` then another character: a backslash read as itself
    }
    if (isOctal(c)) {
      // Legacy octal: up to three digits, at most \377.
      let length = 1;
      if (isOctal(s[this.i + 2])) length = c <= '3' && isOctal(s[this.i + 3]) ? 3 : 2;
      return this.advance(1 + length, parseInt(s.slice(this.i + 1, this.i + 1 + length), 8));
    }
    if (c === 'x' && HEX.test(s.slice(this.i + 2, this.i + 4)) && s.slice(this.i + 2, this.i + 4).length === 2) {
      return this.advance(4, parseInt(s.slice(this.i + 2, this.i + 4), 16));
    }
    if (c === 'u' && s.slice(this.i + 2, this.i + 6).length === 4 && HEX.test(s.slice(this.i + 2, this.i + 6))) {
      return this.advance(6, this.char(parseInt(s.slice(this.i + 2, this.i + 6), 16)));
    }
    // An identity escape: the character itself (`\u` is "u", `\p` "p", `\-` "-", `\8` "8").
    return this.advance(2, this.char(s.charCodeAt(this.i + 1)));
  }

  private advance(length: number, code: number): number {
    this.i += length;
    return code;
  }

  /** `[…]`: its characters, ranges and class escapes, none of which may reach a surrogate. */
  private characterClass(): void {
    const s = this.source;
    if (s[this.i + 1] === '^') refuse();
    this.i++;
    type Atom = number | string; // a character's code, or a class escape (`\d`)
    const atom = (): Atom => {
      const c = s[this.i];
      if (c !== '\\') return this.advance(1, this.char(s.charCodeAt(this.i)));
      const next = s[this.i + 1];
      if (next === 'd' || next === 'w' || next === 's') return ((this.i += 2), `\\${next}`);
      if (next === 'D' || next === 'S' || next === 'W') refuse();
      return this.characterEscape(true);
    };
    let body = '';
    while (s[this.i] !== ']') {
      if (this.i >= s.length) refuse();
      const first = atom();
      if (s[this.i] === '-' && s[this.i + 1] !== ']' && this.i + 1 < s.length) {
        this.i++;
        const last = atom();
        if (typeof first === 'number' && typeof last === 'number') {
          if (first <= 0xdfff && last >= 0xd800) refuse();
          body += `${literal(first, true)}-${literal(last, true)}`;
        } else {
          // `[\w-a]`: a class escape cannot bound a range; Annex B reads the dash as itself.
          body += [first, '-'.charCodeAt(0), last].map((a) => (typeof a === 'number' ? literal(a, true) : a)).join('');
        }
      } else {
        body += typeof first === 'number' ? literal(first, true) : first;
      }
    }
    this.emit(1, `[${body}]`);
  }
}

/**
 * `source` (a pattern without the `u` flag, valid as written) as a pattern of the same meaning read
 * with the flag, or undefined when there is none (the module comment says which).
 */
export function unicodePattern(source: string): string | undefined {
  try {
    const translated = new Translator(source).translate();
    new RegExp(translated, 'u');
    return translated;
  } catch {
    return undefined;
  }
}
