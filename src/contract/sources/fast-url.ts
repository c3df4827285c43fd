/**
 * class-validator's `isURL` (validator.js), fast, for the common option sets: the URL read in
 * place, step by step as validator.js reads it, on ASCII text. Whatever it does not reproduce goes
 * to class-validator itself: non-ASCII text, user information (`user:pass@host`), a `[…]` IPv6 host,
 * a scheme not followed by `//` whose rest could be user information.
 */
import { isURL } from 'class-validator';
import { flag, HostRules, isAlnum, isAsciiFqdn, isLetter, plainOptions } from './fast-host';

/** The options validator.js reads (its merges with the URL and the host defaults write them into the object). */
const KNOWN = [
  'protocols',
  'require_tld',
  'require_protocol',
  'require_host',
  'require_port',
  'require_valid_protocol',
  'allow_underscores',
  'allow_trailing_dot',
  'allow_protocol_relative_urls',
  'allow_fragments',
  'allow_query_components',
  'validate_length',
  'max_allowed_length',
  'disallow_auth',
  'host_whitelist',
  'host_blacklist',
  'allow_numeric_tld',
  'allow_wildcard',
  'ignore_max_length',
];

/** validator.js's IPv4 pattern: the host that is no domain name may be one. */
const IPV4 = /^((?:[0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])[.]){3}(?:[0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])$/;

const BOOLEAN_DEFAULTS: Readonly<Record<string, boolean>> = {
  require_tld: true,
  require_protocol: false,
  require_host: true,
  require_port: false,
  require_valid_protocol: true,
  allow_underscores: false,
  allow_trailing_dot: false,
  allow_protocol_relative_urls: false,
  allow_fragments: true,
  allow_query_components: true,
  validate_length: true,
  disallow_auth: false,
  allow_numeric_tld: false,
  allow_wildcard: false,
  ignore_max_length: false,
};

function indexIn(text: string, code: number, from: number, to: number): number {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === code) return i;
  return -1;
}

/** Whether text[start, end), lower-cased, is one of `protocols` (validator.js compares with indexOf). */
function protocolAllowed(protocols: readonly string[], text: string, start: number, end: number): boolean {
  const length = end - start;
  for (const protocol of protocols) {
    if (protocol.length !== length) continue;
    let same = true;
    for (let i = 0; i < length && same; i++) {
      const c = text.charCodeAt(start + i);
      same = (c >= 65 && c <= 90 ? c | 32 : c) === protocol.charCodeAt(i);
    }
    if (same) return true;
  }
  return false;
}

/** A fast `isURL(value, options)`, or undefined for an option set it does not handle. */
export function fastUrl(options: unknown): ((value: unknown) => boolean) | undefined {
  const settings = plainOptions(options, KNOWN);
  if (!settings) return undefined;
  const o: Record<string, boolean> = {};
  for (const key of Object.keys(BOOLEAN_DEFAULTS)) {
    const value = flag(settings, key, BOOLEAN_DEFAULTS[key]);
    if (value === undefined) return undefined;
    o[key] = value;
  }
  const protocols = settings.protocols === undefined ? ['http', 'https', 'ftp'] : settings.protocols;
  if (!Array.isArray(protocols) || !protocols.every((p) => typeof p === 'string')) return undefined;
  const max = settings.max_allowed_length === undefined ? 2084 : settings.max_allowed_length;
  if (typeof max !== 'number' || settings.host_whitelist !== undefined || settings.host_blacklist !== undefined) return undefined;
  if (o.allow_numeric_tld || o.allow_wildcard) return undefined;
  const allowed = [...(protocols as string[])];
  const rules: HostRules = {
    requireTld: o.require_tld,
    allowUnderscores: o.allow_underscores,
    ignoreMaxLength: o.ignore_max_length,
    allowTrailingDot: o.allow_trailing_dot,
  };
  const reference = (value: string) => isURL(value, options as never);
  return (value) => {
    if (typeof value !== 'string') return false;
    const length = value.length;
    if (length === 0 || (o.validate_length && length > max)) return false;
    let end = length;
    let question = false;
    let ampersand = false;
    for (let i = 0; i < length; i++) {
      const c = value.charCodeAt(i);
      if (c >= 128) return reference(value);
      // /[\s<>]/ on ASCII
      if (c === 32 || (c >= 9 && c <= 13) || c === 60 || c === 62) return false;
      if (c === 35 && end === length) end = i;
      else if (c === 63) {
        if (!question && end === length) end = i;
        question = true;
      } else if (c === 38) ampersand = true;
    }
    if (value.startsWith('mailto:')) return false;
    if (!o.allow_fragments && indexIn(value, 35, 0, length) !== -1) return false;
    if (!o.allow_query_components && (question || ampersand)) return false;
    // The scheme: /^([a-z][a-z0-9+\-.]*):/i on the URL without its query and fragment.
    let pos = 0;
    let explicit = false;
    let scheme = 0;
    if (end > 0 && isLetter(value.charCodeAt(0))) {
      let i = 1;
      for (let c = value.charCodeAt(i); i < end && (isAlnum(c) || c === 43 || c === 45 || c === 46); c = value.charCodeAt(++i));
      if (i < end && value.charCodeAt(i) === 58) scheme = i;
    }
    if (scheme > 0) {
      const after = scheme + 1;
      const slashes = after + 1 < end && value.charCodeAt(after) === 47 && value.charCodeAt(after + 1) === 47;
      if (!slashes) {
        const slash = indexIn(value, 47, after, end);
        if (indexIn(value, 64, after, slash === -1 ? end : slash) !== -1) return reference(value);
      }
      const port = !slashes && after < end && value.charCodeAt(after) >= 48 && value.charCodeAt(after) <= 57;
      if (port) {
        if (o.require_protocol) return false;
      } else {
        if (o.require_valid_protocol && !protocolAllowed(allowed, value, 0, scheme)) return false;
        pos = after;
        explicit = true;
      }
    } else if (o.require_protocol) {
      return false;
    }
    if (pos + 1 < end && value.charCodeAt(pos) === 47 && value.charCodeAt(pos + 1) === 47) {
      if (!explicit && !o.allow_protocol_relative_urls) return false;
      pos += 2;
    }
    if (pos >= end) return false;
    const slash = indexIn(value, 47, pos, end);
    const authorityEnd = slash === -1 ? end : slash;
    if (authorityEnd === pos && !o.require_host) return true;
    if (indexIn(value, 64, pos, authorityEnd) !== -1 || value.charCodeAt(pos) === 91) return reference(value);
    const colon = indexIn(value, 58, pos, authorityEnd);
    const hostEnd = colon === -1 ? authorityEnd : colon;
    if (colon !== -1 && colon + 1 < authorityEnd) {
      let port = 0;
      for (let i = colon + 1; i < authorityEnd; i++) {
        const c = value.charCodeAt(i);
        if (c < 48 || c > 57) return false;
        port = port * 10 + (c - 48);
        if (port > 65535) return false;
      }
      if (port === 0) return false;
    } else if (o.require_port) {
      return false;
    }
    if (hostEnd === pos && !o.require_host) return true;
    if (isAsciiFqdn(value, pos, hostEnd, rules)) return true;
    return IPV4.test(value.slice(pos, hostEnd));
  };
}
