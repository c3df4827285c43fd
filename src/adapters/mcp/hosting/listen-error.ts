/**
 * What `serveHttp` says when it cannot listen: the address and what to do, instead of a bare
 * `listen EADDRINUSE`. The original error stays as `cause`, and its `code` is kept.
 */
export function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const address = `${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
  let message: string | undefined;
  if (code === 'EADDRINUSE') {
    message =
      `serveHttp: ${address} is already in use (another server, or an earlier run still listening). ` +
      'Stop that process, choose another port, or pass port: 0 to let the system pick a free one (the handle’s url says which).';
  } else if (code === 'EACCES') {
    message = `serveHttp: not allowed to listen on ${address} (ports below 1024 need privileges). Choose a port of 1024 or above, or port: 0.`;
  } else if (code === 'EADDRNOTAVAIL') {
    message = `serveHttp: cannot listen on ${address}: ${host} is not an address of this machine. Use 127.0.0.1 (the default) or one of its own addresses.`;
  }
  if (message === undefined) return error;
  return Object.assign(new Error(message, { cause: error }), { code });
}
