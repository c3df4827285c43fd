/**
 * Limits that bound the work an untrusted caller can cause, and the checks of the options that
 * set them.
 */

/** The longest delay a Node timer honours (a longer one fires after 1 ms). */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** A time limit is a whole number of milliseconds a timer can honour. */
export function isTimeoutMs(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_TIMEOUT_MS;
}

/** What a time-limit option must be, for messages. */
export const TIMEOUT_RULE = `a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`;

/** How deep the invoker accepts input by default: objects and arrays inside one another. */
export const DEFAULT_MAX_INPUT_DEPTH = 64;

/** The deepest a maxInputDepth may be set: deeper input would exhaust the stack of the validators. */
export const MAX_INPUT_DEPTH = 1_000;

/** How many unknown keys a failure names before it only counts the rest. */
export const NAMED_UNKNOWN_KEYS = 5;

/** How many other input problems a failure lists before it only counts the rest. */
export const LISTED_INPUT_PROBLEMS = 20;

/** The longest caller-supplied text (a key, a value) quoted in a message. */
export const QUOTED_TEXT_LENGTH = 80;

/**
 * Text shortened to `max` characters with an ellipsis, never splitting a surrogate pair (a half
 * pair would make the message itself unrenderable).
 */
export function shorten(text: string, max = QUOTED_TEXT_LENGTH): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** "300,000" */
export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

/**
 * How long a server gives a request's headers, and then its body, to arrive (30 s each): the
 * default of `serveHttp`'s and `serveHttpApi`'s `requestTimeoutMs`.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
