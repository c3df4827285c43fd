/**
 * The one loopback rule: a host is this machine when it is `localhost`, an IPv4 address in
 * 127.0.0.0/8, `::1`, or an IPv4-mapped 127.0.0.0/8 address (`::ffff:127.0.0.1`). Names are
 * compared as the WHATWG URL parser normalises them: case-insensitively, IPv4 in any form it accepts
 * (`127.1` is 127.0.0.1), IPv6 with or without brackets, one trailing dot dropped.
 */

/** Longer text is no host name (253 characters, a port and brackets at most). */
const LONGEST_AUTHORITY = 270;
const AUTHORITY = /^[a-z0-9._~\-:[\]]+$/i;

/**
 * Whether `host` names this machine: a bind address (`127.0.0.1`, `::1`, `[::1]`, `localhost`) or a
 * Host header's value, with or without a port (`LOCALHOST:3000`, `[::1]:8080`, `127.1.2.3`).
 * False for anything else, including text that is not a host at all.
 */
export function isLoopbackHost(host: string): boolean {
  if (typeof host !== 'string' || host.length > LONGEST_AUTHORITY || !AUTHORITY.test(host)) return false;
  // A bare IPv6 address (a bind address; never a Host header) gets the brackets a URL needs.
  const authority = !host.startsWith('[') && host.split(':').length > 2 ? `[${host}]` : host;
  let hostname: string;
  try {
    hostname = new URL(`http://${authority}`).hostname.replace(/\.$/, '');
  } catch {
    return false;
  }
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) ||
    /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(hostname)
  );
}
