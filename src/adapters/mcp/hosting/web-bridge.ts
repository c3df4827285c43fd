/**
 * Node's `http` request and response as the web-standard `Request` and `Response` the MCP SDK 2.x
 * serves (its `WebStandardStreamableHTTPServerTransport` and `createMcpHandler` are fetch-shaped).
 * The body is never in the `Request`: `serveHttp` has read and parsed it already (within its
 * limits), and hands it to the SDK as `parsedBody`. This is the one bridge both revisions use, so
 * `toolwright/mcp` needs no `@modelcontextprotocol/node` (and its Hono dependencies).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The request's method, URL and headers as a web `Request` without a body; with `abortable`, an
 * abort signal that fires when the client goes away before the answer is complete (the SDK's
 * createMcpHandler tears the call down on it). Only ask for it where it is read: a `Request` with a
 * signal costs several times one without (the signal it makes to follow the given one).
 */
export function webRequest(req: IncomingMessage, res: ServerResponse, abortable: boolean): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  if (!abortable) return new Request(url, { method: req.method, headers });
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  return new Request(url, { method: req.method, headers, signal: gone.signal });
}

/**
 * Writes a web `Response` to the Node response: status and headers at once (so an SSE stream
 * starts as soon as the SDK opens it), then the body as it comes, waiting for the socket to drain.
 * The client closing the response cancels the body, which ends the SDK's stream.
 *
 * With `answers` (the id of the one JSON-RPC request the response answers, on a stream nothing can
 * resume), an SSE answer is held back until its first event: when that event is the request's own
 * response, it is sent as one `application/json` body instead, which the client also accepts and
 * reads for much less than an event stream; anything else first (progress, a log, a request to the
 * client) starts the stream as usual, so a tool that reports as it goes still streams.
 */
export async function writeWebResponse(res: ServerResponse, response: Response, answers?: string | number): Promise<void> {
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
  if (!response.body) return void res.writeHead(response.status, headers).end();
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  res.once('close', cancel);
  try {
    let held: Uint8Array[] = [];
    if (answers !== undefined && response.status === 200 && headers['content-type'] === 'text/event-stream') {
      const first = await firstEvent(reader, held);
      if (res.destroyed) return cancel();
      if (first !== undefined && isResponseTo(first, answers)) {
        for (const name of SSE_HEADERS) delete headers[name];
        res.writeHead(200, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(first) }).end(first);
        // The SDK closes a request's stream once its response is sent: nothing more can come.
        return cancel();
      }
    }
    res.writeHead(response.status, headers);
    res.flushHeaders();
    for (const chunk of held) if (!res.write(chunk)) await drained(res);
    held = [];
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

/** Requests whose stream stays open by design: they always start their stream at once. */
const LONG_LIVED = new Set(['subscriptions/listen']);

/**
 * The id `writeWebResponse` needs to send a request's one-event answer as JSON: the body's, when it
 * is one JSON-RPC request (not a batch, a notification or a long-lived request).
 */
export function answeredRequestId(body: unknown): string | number | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { id, method } = body as { id?: unknown; method?: unknown };
  if (typeof method !== 'string' || LONG_LIVED.has(method)) return undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** The headers of an event stream, dropped when its one event goes out as JSON. */
const SSE_HEADERS = ['content-type', 'cache-control', 'connection', 'x-accel-buffering'];
const LF = 0x0a;

/**
 * Reads the stream into `held` until its first whole SSE event, and answers that event's data, or
 * undefined when the event has no data, something follows it or the stream ends first. What is held
 * is at most one message the server itself made (the SDK writes each event as one chunk).
 */
async function firstEvent(reader: ReadableStreamDefaultReader<Uint8Array>, held: Uint8Array[]): Promise<string | undefined> {
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return undefined;
    held.push(value);
    const end = eventEnd(held, size, value);
    size += value.byteLength;
    if (end >= 0) return end === size ? dataOf(Buffer.concat(held, size).toString('utf8')) : undefined;
  }
}

/** The offset just past the first "\n\n" once `latest` (appended at `before`) completes one, else -1. */
function eventEnd(held: Uint8Array[], before: number, latest: Uint8Array): number {
  // A blank line split across chunks: the previous chunk ended in "\n" and this one starts with it.
  if (latest[0] === LF && held.length > 1 && held[held.length - 2].at(-1) === LF) return before + 1;
  for (let i = latest.indexOf(LF); i >= 0; i = latest.indexOf(LF, i + 1)) {
    if (latest[i + 1] === LF) return before + i + 2;
  }
  return -1;
}

/** The `data` of one SSE event (its data lines joined), or undefined without any. */
function dataOf(event: string): string | undefined {
  const data: string[] = [];
  for (const line of event.split('\n')) {
    if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
  }
  return data.length > 0 ? data.join('\n') : undefined;
}

/**
 * Whether `data` is the JSON-RPC response (result or error) to the request `id`. The SDK writes a
 * result as `{"result":…,"jsonrpc":"2.0","id":…}` with JSON.stringify: an object whose first member
 * is `result` is a response, and its last member is read from the text's end, so that shape is
 * known without parsing the result; any other shape is parsed.
 */
function isResponseTo(data: string, id: string | number): boolean {
  if (data.startsWith('{"result":') && data.endsWith(`,"jsonrpc":"2.0","id":${JSON.stringify(id)}}`)) return true;
  try {
    const message = JSON.parse(data) as { id?: unknown; result?: unknown; error?: unknown; method?: unknown };
    return message.id === id && message.method === undefined && (message.result !== undefined || message.error !== undefined);
  } catch {
    return false;
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
