/**
 * class-validator's `isISO8601` / `isDateString` and `isRFC3339` (validator.js), fast. RFC 3339 is
 * one fixed shape, read exactly. ISO 8601 has many (weeks, ordinal days, basic format, signed
 * years, fractions of minutes, `24:00`); the fast check reads the common one
 * (`2024-01-31`, then `T` or a space, `10:00`, `:00`, `.123`, `Z` or `+01:00`) and hands every
 * other text to class-validator itself.
 */
import { isISO8601 } from 'class-validator';
import { flag, plainOptions } from './fast-host';

/** The two digits at `at` as a number, or -1 when they are not two ASCII digits. */
function twoDigits(text: string, at: number): number {
  const a = text.charCodeAt(at) - 48;
  const b = text.charCodeAt(at + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** `YYYY-MM-DD` at the start (month 01–12, day 01–31): the year, or -1. */
function datePart(text: string): number {
  const high = twoDigits(text, 0);
  const low = twoDigits(text, 2);
  if (high < 0 || low < 0 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return -1;
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 ? high * 100 + low : -1;
}

/** Whether the day of `YYYY-MM-DD` (already in shape) exists in the proleptic Gregorian calendar. */
function dayExists(text: string, year: number): boolean {
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  if (month !== 2) return day <= (month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day <= (leap ? 29 : 28);
}

/** `HH:MM` at `at` (hour 00–23, minute 00–59, and seconds 00–`maxSecond` when `seconds`). */
function clock(text: string, at: number, seconds: boolean, maxSecond: number): boolean {
  const hour = twoDigits(text, at);
  const minute = twoDigits(text, at + 3);
  if (hour < 0 || hour > 23 || text.charCodeAt(at + 2) !== 58 || minute < 0 || minute > 59) return false;
  if (!seconds) return true;
  const second = twoDigits(text, at + 6);
  return text.charCodeAt(at + 5) === 58 && second >= 0 && second <= maxSecond;
}

/** The end of `.digits` (or `,digits` when `comma`) at `at`, or `at` when there is none. */
function fraction(text: string, at: number, comma: boolean): number {
  const c = text.charCodeAt(at);
  if (c !== 46 && !(comma && c === 44)) return at;
  let i = at + 1;
  while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
  return i === at + 1 ? at : i;
}

/** class-validator's `isRFC3339(value)`, exactly. */
export function fastRfc3339(value: unknown): boolean {
  if (typeof value !== 'string' || value.length < 20 || datePart(value) < 0) return false;
  const separator = value.charCodeAt(10);
  if ((separator !== 84 && separator !== 116 && separator !== 32) || !clock(value, 11, true, 60)) return false;
  const at = fraction(value, 19, false);
  const length = value.length;
  const zone = value.charCodeAt(at);
  if (zone === 90 || zone === 122) return at + 1 === length;
  if ((zone !== 43 && zone !== 45) || at + 6 !== length) return false;
  return clock(value, at + 1, false, 0);
}

/** A fast `isISO8601(value, options)` (`isDateString` too), or undefined for an option set it does not handle. */
export function fastIso8601(options: unknown): ((value: unknown) => boolean) | undefined {
  const settings = plainOptions(options, ['strict', 'strictSeparator']);
  if (!settings) return undefined;
  const strict = flag(settings, 'strict', false);
  const strictSeparator = flag(settings, 'strictSeparator', false);
  if (strict === undefined || strictSeparator === undefined) return undefined;
  const reference = (value: string) => isISO8601(value, options as never);
  return (value) => {
    if (typeof value !== 'string') return false;
    const length = value.length;
    const year = length >= 10 ? datePart(value) : -1;
    if (year < 0) {
      // Every ISO 8601 text starts with a sign or a digit.
      const first = value.charCodeAt(0);
      return first === 43 || first === 45 || (first >= 48 && first <= 57) ? reference(value) : false;
    }
    if (strict) {
      // validator.js rebuilds the date from the year as a number: before 1000 that is no longer ISO
      // text, and the Date it makes depends on the time zone. Its own answer there.
      if (year < 1000) return reference(value);
      if (!dayExists(value, year)) return false;
    }
    if (length === 10) return true;
    const separator = value.charCodeAt(10);
    if (!(separator === 84 || (!strictSeparator && separator === 32)) || length < 16 || !clock(value, 11, false, 0))
      return reference(value);
    let at = 16;
    if (value.charCodeAt(at) === 58) {
      if (!clock(value, 11, true, 59)) return reference(value);
      at = fraction(value, 19, true);
    }
    if (at === length) return true;
    const zone = value.charCodeAt(at);
    if (zone === 90 || zone === 122) return at + 1 === length ? true : reference(value);
    if (zone !== 43 && zone !== 45) return reference(value);
    const hour = twoDigits(value, at + 1);
    if (hour < 0 || hour > 23) return reference(value);
    const rest = length - at - 3;
    if (rest === 0) return true;
    const colon = value.charCodeAt(at + 3) === 58 ? 1 : 0;
    const minute = twoDigits(value, at + 3 + colon);
    return rest === 2 + colon && minute >= 0 && minute <= 59 ? true : reference(value);
  };
}
