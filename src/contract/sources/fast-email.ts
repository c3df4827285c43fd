/**
 * class-validator's `isEmail` (validator.js), fast, for the common option sets: the address read
 * in place, in one pass over ASCII text. Whatever it does not reproduce goes to class-validator
 * itself: non-ASCII text, a display name (`Ada <ada@example.com>`), a quoted local part, an IP
 * domain (`allow_ip_domain`).
 */
import { isEmail } from 'class-validator';
import { flag, HostRules, isAsciiFqdn, plainOptions } from './fast-host';

/** The options validator.js reads (after its merge with the defaults, which writes them into the object). */
const KNOWN = [
  'allow_display_name',
  'require_display_name',
  'allow_utf8_local_part',
  'require_tld',
  'allow_underscores',
  'allow_ip_domain',
  'ignore_max_length',
  'blacklisted_chars',
  'host_blacklist',
  'host_whitelist',
  'domain_specific_validation',
];

/** `[a-z\d!#$%&'*+\-/=?^_`{|}~]`: the characters of a dot-separated piece of an unquoted local part. */
const LOCAL = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  LOCAL[c] = alnum || "!#$%&'*+-/=?^_`{|}~".includes(String.fromCharCode(c)) ? 1 : 0;
}

const emptyList = (value: unknown) => value === undefined || (Array.isArray(value) && value.length === 0);

/** A fast `isEmail(value, options)`, or undefined for an option set it does not handle. */
export function fastEmail(options: unknown): ((value: unknown) => boolean) | undefined {
  const settings = plainOptions(options, KNOWN);
  if (!settings) return undefined;
  const displayName = flag(settings, 'allow_display_name', false);
  const requireDisplayName = flag(settings, 'require_display_name', false);
  const requireTld = flag(settings, 'require_tld', true);
  const allowUnderscores = flag(settings, 'allow_underscores', false);
  const allowIpDomain = flag(settings, 'allow_ip_domain', false);
  const ignoreMaxLength = flag(settings, 'ignore_max_length', false);
  const domainSpecific = flag(settings, 'domain_specific_validation', false);
  const utf8 = flag(settings, 'allow_utf8_local_part', true);
  if (
    displayName === undefined ||
    requireDisplayName !== false ||
    requireTld === undefined ||
    allowUnderscores === undefined ||
    allowIpDomain === undefined ||
    ignoreMaxLength === undefined ||
    domainSpecific !== false ||
    utf8 === undefined ||
    (settings.blacklisted_chars !== undefined && settings.blacklisted_chars !== '') ||
    !emptyList(settings.host_blacklist) ||
    !emptyList(settings.host_whitelist)
  ) {
    return undefined;
  }
  // On ASCII text the UTF-8 patterns of the local part are the ASCII ones: allow_utf8_local_part changes nothing here.
  const rules: HostRules = { requireTld, allowUnderscores, ignoreMaxLength, allowTrailingDot: false };
  const reference = (value: string) => isEmail(value, options as never);
  return (value) => {
    if (typeof value !== 'string') return false;
    // validator.js takes a display name off first (only text with a `<` has one).
    if (displayName && value.indexOf('<') !== -1) return reference(value);
    const length = value.length;
    if (!ignoreMaxLength && length > 254) return false;
    let at = -1;
    for (let i = 0; i < length; i++) {
      const c = value.charCodeAt(i);
      if (c >= 128) return reference(value);
      if (c === 64) at = i;
    }
    // No `@`: the local part is empty, which no pattern accepts.
    if (at === -1) return false;
    // On ASCII text, byte lengths are lengths.
    if (!ignoreMaxLength && (at > 64 || length - at - 1 > 254)) return false;
    if (!isAsciiFqdn(value, at + 1, length, rules)) return allowIpDomain ? reference(value) : false;
    if (value.charCodeAt(0) === 34 && value.charCodeAt(at - 1) === 34) return reference(value);
    let pieceStart = 0;
    for (let i = 0; i <= at; i++) {
      const c = i === at ? 46 : value.charCodeAt(i);
      if (c === 46) {
        if (i === pieceStart) return false;
        pieceStart = i + 1;
      } else if (!LOCAL[c]) {
        return false;
      }
    }
    return true;
  };
}
