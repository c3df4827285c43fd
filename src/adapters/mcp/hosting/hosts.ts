import type { IncomingMessage } from 'node:http';
import { isLoopbackHost } from '../../../adapter-kit';
import { stringList } from './limits';
import { DeclarationError } from '../../../index';

/**
 * Host and Origin checks against DNS rebinding and cross-site requests. Names are compared as the
 * WHATWG URL parser normalises them: case-insensitively, IPv4 in its canonical dotted form, IPv6
 * compressed and in brackets, one trailing dot dropped.
 *
 * - With `allowedHosts`, the Host header must name one of them (an entry without a port allows any
 *   port), whatever the bind address. Without it, a server bound to loopback only answers Host names
 *   that are loopback themselves (`localhost`, 127.0.0.0/8, `[::1]`), on any port (port forwarding
 *   and proxies change ports; a rebinding page cannot change the name); another bind address has no
 *   Host rule.
 * - A request with an Origin header (a browser's) must come from one of `allowedOrigins`; without
 *   that option, from a host in `allowedHosts`; without either, from a loopback origin when the
 *   server is bound to loopback. `Origin: null` is refused whenever a rule applies.
 */
export interface HostRules {
  allowedHosts?: readonly string[];
  allowedOrigins?: readonly string[];
}

interface Authority {
  hostname: string;
  /** Undefined when the text names none (or the scheme's default). */
  port?: string;
}

const AUTHORITY = /^[a-z0-9._~\-:[\]]+$/i;

/** `host[:port]` as a Host header carries it, normalised; undefined when it is not one. */
function parseAuthority(text: string): Authority | undefined {
  if (!AUTHORITY.test(text)) return undefined;
  // A bare IPv6 address (an option's value, never a valid Host header) gets its brackets.
  const bracketed = !text.startsWith('[') && text.split(':').length > 2 ? `[${text}]` : text;
  try {
    const url = new URL(`http://${bracketed}`);
    return { hostname: url.hostname.replace(/\.$/, ''), port: url.port || undefined };
  } catch {
    return undefined;
  }
}

const matches = (entries: readonly Authority[], candidate: Authority) =>
  entries.some((entry) => entry.hostname === candidate.hostname && (entry.port === undefined || entry.port === candidate.port));

function parseOrigin(text: string): { origin: string; authority: Authority } | undefined {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return { origin: url.origin, authority: { hostname: url.hostname.replace(/\.$/, ''), port: url.port || undefined } };
  } catch {
    return undefined;
  }
}

/**
 * Validates the options and returns the check: the reason a request is refused (403), or undefined
 * when it may proceed.
 */
export function hostGuard(bindHost: string, rules: HostRules): (req: IncomingMessage) => string | undefined {
  const where = 'serveHttp';
  const allowedHosts = stringList(where, 'allowedHosts', rules.allowedHosts)?.map((entry) => {
    const authority = parseAuthority(entry.trim());
    if (!authority)
      throw new DeclarationError(
        `${where}: allowedHosts entry '${entry}' is not a host name (with an optional port), e.g. 'mcp.example.com' or 'localhost:3000'.`,
      );
    return authority;
  });
  const allowedOrigins = stringList(where, 'allowedOrigins', rules.allowedOrigins)?.map((entry) => {
    const parsed = parseOrigin(entry.trim());
    if (!parsed)
      throw new DeclarationError(`${where}: allowedOrigins entry '${entry}' is not an http(s) origin, e.g. 'https://app.example.com'.`);
    return parsed.origin;
  });
  const loopback = isLoopbackHost(bindHost);
  if (!allowedHosts && !allowedOrigins && !loopback) return () => undefined;

  const hostAllowed = (authority: Authority) => (allowedHosts ? matches(allowedHosts, authority) : isLoopbackHost(authority.hostname));
  const hostHint = allowedHosts
    ? 'it is not in the server’s allowedHosts'
    : 'this server is bound to a loopback address and only answers requests addressed to localhost, 127.0.0.1 or [::1]; list other host names in allowedHosts';

  return (req) => {
    const host = req.headers.host;
    if (allowedHosts || loopback) {
      const authority = host === undefined ? undefined : parseAuthority(host);
      if (!authority || !hostAllowed(authority)) {
        return host === undefined
          ? 'Forbidden: the request has no Host header.'
          : `Forbidden: Host '${host.slice(0, 200)}' is refused: ${hostHint}.`;
      }
    }
    const origin = req.headers.origin;
    if (origin === undefined) return undefined;
    const parsed = parseOrigin(origin);
    const originAllowed = allowedOrigins
      ? parsed !== undefined && allowedOrigins.includes(parsed.origin)
      : parsed !== undefined && (allowedHosts || loopback ? hostAllowed(parsed.authority) : true);
    if (originAllowed) return undefined;
    const originHint = allowedOrigins
      ? 'it is not in the server’s allowedOrigins'
      : allowedHosts
        ? 'its host is not in the server’s allowedHosts; list browser origins in allowedOrigins'
        : 'this server is bound to a loopback address and only answers pages served from localhost; list other origins in allowedOrigins';
    return `Forbidden: Origin '${origin.slice(0, 200)}' is refused: ${originHint}.`;
  };
}
