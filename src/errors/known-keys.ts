import { describeValue, isPlainObject, joinWords } from '../util/describe-value';
import { NAMED_UNKNOWN_KEYS, shorten } from '../util/limits';
import { DeclarationError, DeclarationSiteInput } from './declaration-errors';

/** How `checkKnownKeys` words its message; every field is optional. */
export interface KnownKeysStyle {
  /** What one key is called (default `'option'`): `unknown key 'argv'`, `unknown @Tool option 'descripton'`. */
  readonly noun?: string;
  /** Name every unknown key (`unknown options 'a' and 'b'`, at most five, then a count) instead of the first. */
  readonly all?: boolean;
  /** What introduces the list of known keys (default `Known ${noun}s`, e.g. `Known options`). */
  readonly heading?: string;
  /** Quote the known keys and join them in words (`'a', 'b' and 'c'`) instead of `a, b, c`. */
  readonly quoted?: boolean;
  /** A sentence said instead of listing the known keys, e.g. `The only option is 'key'.` */
  readonly instead?: string;
  /** The class (and member) the options were declared on, for the DeclarationError's `site`. */
  readonly site?: DeclarationSiteInput;
}

/**
 * Refuses an options object that has a key outside `known`, with a `DeclarationError` (a `TypeError`) naming where, the
 * unknown key and the known ones: `checkKnownKeys('toChatCommands', options, ['only', 'strict'])`
 * throws "toChatCommands: unknown option 'strcit'. Known options: only, strict." Own enumerable
 * string keys are checked (what a spread or `Object.keys` sees). Keys are quoted shortened, and at
 * most five are named, so a hostile object never makes a huge message.
 */
export function checkKnownKeys(where: string, options: object, known: Iterable<string>, style: KnownKeysStyle = {}): void {
  const allowed = known instanceof Set ? (known as ReadonlySet<string>) : new Set(known);
  const unknown: string[] = [];
  let more = 0;
  for (const key of Object.keys(options)) {
    if (allowed.has(key)) continue;
    if (unknown.length < (style.all ? NAMED_UNKNOWN_KEYS : 1)) unknown.push(key);
    else more++;
    if (!style.all) break;
  }
  if (unknown.length === 0) return;
  const noun = style.noun ?? 'option';
  const named = unknown.map(quote);
  if (more > 0) named.push(`${more} more`);
  const listed = style.quoted ? joinWords([...allowed].map(quote)) : [...allowed].join(', ');
  const knownText = style.instead ?? `${style.heading ?? `Known ${noun}s`}: ${listed}.`;
  throw new DeclarationError(`${where}: unknown ${noun}${named.length > 1 ? 's' : ''} ${joinWords(named)}. ${knownText}`, style.site);
}

function quote(key: string): string {
  return `'${shorten(key)}'`;
}

const NO_OPTIONS: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * An options argument: `undefined` (an empty object), or a plain object whose keys are all `known`
 * ({@link checkKnownKeys}); anything else is a `DeclarationError` "where: options must be an object;
 * got …". Pass `known` as a Set kept at module level where this runs per call: it is not copied.
 */
export function checkOptionsObject(
  where: string,
  options: unknown,
  known: Iterable<string>,
  style?: KnownKeysStyle,
): Readonly<Record<string, unknown>> {
  if (options === undefined) return NO_OPTIONS;
  if (!isPlainObject(options))
    throw new DeclarationError(`${where}: options must be an object; got ${describeValue(options)}.`, style?.site);
  checkKnownKeys(where, options, known, style);
  return options;
}
