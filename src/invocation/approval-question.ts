/**
 * The approval question: what a person reads before a call that needs approval runs, built here once
 * for every way in (MCP elicitation on both revisions, the Toolbox's `approval_required` records, an
 * `invoke()` approver through `call.approvalQuestion()`). The question is the call: it is derived
 * from the exact arguments that will run, one line per top-level argument in declaration order
 * (`name: value`), nested values in full, and a long text shortened in its middle with its length,
 * so no argument after a long one is ever cut. Sensitive values read "[redacted]" and ambient values
 * (the caller's identity, not arguments) are left out, as in `call.redactedInput()`, which the
 * question is shown from. A call whose arguments cannot be shown within APPROVAL_QUESTION_LIMITS is
 * refused, never asked. Its digest binds the answer to the arguments: the invoker compares it again
 * before the tool runs, and MCP 2026-07-28 rounds record it with the answer.
 */
import { createHash } from 'node:crypto';
import { ToolApprovalError } from '../errors/errors';
import type { ToolDefinition } from '../registry/tool-definition';
import { canonicalJson } from '../util/canonical-json';
import { formatCount } from '../util/limits';

/**
 * The limits of an approval question, the same on every way in. A text of up to `wholeTextChars`
 * characters (Unicode code points) is shown whole; a longer one keeps its first `keptHeadChars` and
 * last `keptTailChars` characters, with how many are not shown and its whole length between them.
 * The arguments as shown (their lines together) take at most `maxShownChars` characters and nest at
 * most `maxDepth` levels: a call past either is refused with a `ToolApprovalError` (`unshowable`),
 * and nobody is asked.
 */
export const APPROVAL_QUESTION_LIMITS = Object.freeze({
  wholeTextChars: 160,
  keptHeadChars: 100,
  keptTailChars: 40,
  maxShownChars: 8_000,
  maxDepth: 16,
});

/** What a person is asked about one call (`call.approvalQuestion()`); the same text on every way in. */
export interface ApprovalQuestion {
  /** The question: "Allow the tool pay to run with these arguments?", then one `name: value` line per argument. */
  readonly text: string;
  /** Each top-level argument, in declaration order, with its value as shown (`"mallory-offshore"`, `99999900`). */
  readonly arguments: ReadonlyArray<{ readonly name: string; readonly shown: string }>;
  /**
   * A digest (SHA-256) of the exact arguments the question was shown from, sensitive values included:
   * what runs is checked against it. Keep it on the server side (it is never shown to anyone).
   */
  readonly digest: string;
}

/** The arguments of a call as shown, or why they cannot be. */
export type ShownArguments = Pick<ApprovalQuestion, 'arguments' | 'digest'> | { readonly unshowable: 'size' | 'depth' | 'json' };

/** The arguments a call runs with, as the question shows them: its input without ambient fields, sensitive values included. */
function runArguments(tool: ToolDefinition, input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const ambient = new Set(tool.inputContract.ambientFields.map((field) => field.name));
  return ambient.size === 0 ? input : Object.fromEntries(Object.entries(input).filter(([name]) => !ambient.has(name)));
}

/** The digest of the arguments a call runs with; undefined when they cannot be written as JSON. */
export function argumentsDigest(tool: ToolDefinition, input: Readonly<Record<string, unknown>>): string | undefined {
  const json = canonicalJson(runArguments(tool, input));
  return json === undefined ? undefined : createHash('sha256').update(json).digest('base64url');
}

class Unshowable extends Error {
  constructor(readonly why: 'size' | 'depth') {
    super(why);
  }
}

/** The arguments of a call as shown: `shown` is its redacted input (`call.redactedInput()`), `input` what runs. */
export function showArguments(
  tool: ToolDefinition,
  shown: Readonly<Record<string, unknown>>,
  input: Readonly<Record<string, unknown>>,
): ShownArguments {
  const digest = argumentsDigest(tool, input);
  if (digest === undefined) return { unshowable: 'json' };
  const writer = new Writer();
  try {
    const lines = Object.entries(shown)
      .filter(([, value]) => value !== undefined)
      .map(([name, value], index) => {
        writer.take(`${index === 0 ? '' : '\n'}${key(name)}: `);
        return { name, shown: writer.value(value, 0) };
      });
    return { arguments: lines, digest };
  } catch (error) {
    if (error instanceof Unshowable) return { unshowable: error.why };
    throw error;
  }
}

/** The question for a tool called `name`; a ToolApprovalError (`unshowable`) when its arguments cannot be shown. */
export function questionOf(name: string, shown: ShownArguments): ApprovalQuestion {
  if ('unshowable' in shown) throw unshowableError(name, shown.unshowable);
  const lines = shown.arguments.map((argument) => `\n${key(argument.name)}: ${argument.shown}`).join('');
  const text = `Allow the tool ${name} to run with ${lines === '' ? 'no arguments?' : `these arguments?${lines}`}`;
  return { text, arguments: shown.arguments, digest: shown.digest };
}

function unshowableError(name: string, why: 'size' | 'depth' | 'json'): ToolApprovalError {
  const { maxShownChars, maxDepth, keptHeadChars, keptTailChars } = APPROVAL_QUESTION_LIMITS;
  const reason =
    why === 'size'
      ? `shown, they take more than ${formatCount(maxShownChars)} characters (each long text already shortened to ${keptHeadChars + keptTailChars} of its characters)`
      : why === 'depth'
        ? `a value in them is nested more than ${maxDepth} levels deep`
        : 'they cannot be written as JSON';
  return new ToolApprovalError(
    `${name} needs a person's approval, and its arguments cannot be shown to them in one question: ${reason}, so nobody was asked and it did not run. ` +
      'Call it with fewer or shorter arguments, or split the work into several calls.',
    'unshowable',
  );
}

/** Writes values as shown, counting every character against `maxShownChars` (so the work stops at the limit). */
class Writer {
  private left = APPROVAL_QUESTION_LIMITS.maxShownChars;

  take(text: string): string {
    this.left -= text.length;
    if (this.left < 0) throw new Unshowable('size');
    return text;
  }

  value(value: unknown, depth: number): string {
    switch (typeof value) {
      case 'string':
        return this.take(shownText(value));
      case 'number':
      case 'boolean':
      case 'undefined':
        return this.take(String(value));
      case 'bigint':
        return this.take(`${value}n`);
      case 'object':
        return value === null ? this.take('null') : this.object(value, depth + 1);
      default:
        return this.take(`[${typeof value}]`);
    }
  }

  private object(value: object, depth: number): string {
    if (depth > APPROVAL_QUESTION_LIMITS.maxDepth) throw new Unshowable('depth');
    const { toJSON } = value as { toJSON?: unknown };
    // A Date (or any value that writes itself as JSON) is shown as it is written.
    if (typeof toJSON === 'function') return this.value(toJSON.call(value), depth);
    if (Array.isArray(value)) {
      const items: string[] = [this.take('[')];
      for (let index = 0; index < value.length; index++) {
        if (index > 0) items.push(this.take(', '));
        items.push(this.value(value[index], depth));
      }
      return items.join('') + this.take(']');
    }
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return this.take('{}');
    const parts: string[] = [this.take('{ ')];
    entries.forEach(([name, item], index) => parts.push(this.take(`${index === 0 ? '' : ', '}${key(name)}: `), this.value(item, depth)));
    return parts.join('') + this.take(' }');
  }
}

/** A key as written: bare when it is a plain name, else quoted like a text. */
function key(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : quote(name);
}

/** Format characters (direction overrides, zero-width ones) and line or paragraph separators: shown as escapes, so nothing reorders or hides the question. */
const INVISIBLE = /[\p{Cf}\p{Zl}\p{Zp}]/gu;
const escaped = (char: string) =>
  Array.from({ length: char.length }, (_, i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

/** A text in quotes, escaped as JSON, invisible characters included. */
function quote(text: string): string {
  return JSON.stringify(text).replace(INVISIBLE, escaped);
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;
const pairAt = (text: string, i: number) => i + 1 < text.length && isHigh(text.charCodeAt(i)) && isLow(text.charCodeAt(i + 1));

/** A text as shown: whole, or its first and last characters with how many are not shown and its length between them. */
function shownText(text: string): string {
  const { wholeTextChars, keptHeadChars, keptTailChars } = APPROVAL_QUESTION_LIMITS;
  if (text.length <= wholeTextChars) return quote(text);
  let total = 0;
  for (let i = 0; i < text.length; i += pairAt(text, i) ? 2 : 1) total++;
  if (total <= wholeTextChars) return quote(text);
  let headEnd = 0;
  for (let count = 0; count < keptHeadChars; count++) headEnd += pairAt(text, headEnd) ? 2 : 1;
  let tailStart = text.length;
  for (let count = 0; count < keptTailChars; count++) tailStart -= tailStart >= 2 && pairAt(text, tailStart - 2) ? 2 : 1;
  const hidden = `[${formatCount(total - keptHeadChars - keptTailChars)} of ${formatCount(total)} characters not shown]`;
  return `${quote(text.slice(0, headEnd))} … ${hidden} … ${quote(text.slice(tailStart))}`;
}
