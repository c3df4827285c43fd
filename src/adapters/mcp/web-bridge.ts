/**
 * Node's `http` request and response as the web-standard `Request` and `Response` the MCP SDK 2.x
 * serves (its `WebStandardStreamableHTTPServerTransport` and `createMcpHandler` are fetch-shaped).
 * The body is never in the `Request`: `serveHttp` has read and parsed it already (within its
 * limits), and hands it to the SDK as `parsedBody`. This is the one bridge both revisions use, so
 * `toolwright/mcp` needs no `@modelcontextprotocol/node` (and its Hono dependencies).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The request's method, URL and headers as a web `Request` without a body, and an abort signal
 * that fires when the client goes away before the answer is complete (the SDK aborts the call).
 */
export function webRequest(req: IncomingMessage, res: ServerResponse): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  const host = req.headers.host ?? 'localhost';
  return new Request(new URL(req.url ?? '/', `http://${host}`), { method: req.method, headers, signal: gone.signal });
}

/**
 * Writes a web `Response` to the Node response: status and headers at once (so an SSE stream
 * starts as soon as the SDK opens it), then the body as it comes, waiting for the socket to drain.
 * The client closing the response cancels the body, which ends the SDK's stream.
 */
export async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  if (res.headersSent || res.destroyed) {
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  res.flushHeaders();
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  res.once('close', cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return cancel();
      if (!res.write(value)) await drained(res);
    }
    res.end();
  } catch {
    // The stream failed or was cancelled (the client left): nothing more to send.
    if (!res.destroyed) res.destroy();
  } finally {
    res.off('close', cancel);
  }
}

/** Resolves when the response can take more (or is gone). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.once('drain', done).once('close', done);
  });
}
