/**
 * Time limits of the HTTP API, the same rule and default as `serveHttp`'s (docs/guide/mcp-limits.md): the
 * headers get `requestTimeoutMs` to arrive, and then the body as long again. A late body is answered
 * 408 and its connection closed, so a client trickling a byte at a time holds nothing for long.
 */
import { PassThrough } from 'node:stream';
import type { FastifyRequest, FastifyReply, preParsingHookHandler } from 'fastify';
import { describeValue } from '../../adapter-kit';
import { DEFAULT_REQUEST_TIMEOUT_MS, isTimeoutMs, TIMEOUT_RULE } from '../../adapter-kit/internal';
import { DeclarationError, ToolwrightError } from '../../index';

/** A request body that did not arrive in time: answered 408 by the error handler. */
export class BodyTimeoutError extends ToolwrightError {
  override readonly code = 'HTTP_BODY_TIMEOUT';
  /** Fastify reads the status of a body-parsing error from here. */
  readonly statusCode = 408;
}

/** `requestTimeoutMs`, checked; the default when it is left out. */
export function checkRequestTimeout(value: unknown): number {
  if (value === undefined) return DEFAULT_REQUEST_TIMEOUT_MS;
  if (!isTimeoutMs(value)) {
    throw new DeclarationError(
      `toolwright/http: requestTimeoutMs must be ${TIMEOUT_RULE}; got ${describeValue(value)}. Leave it out for the default (${DEFAULT_REQUEST_TIMEOUT_MS}).`,
    );
  }
  return value;
}

/**
 * The Node server options that bound a request as a whole (for `httpApiApp` and `serveHttpApi`,
 * which own the server): headers within `requestTimeoutMs`, the whole request within twice that
 * (Node answers 408 itself, e.g. for a body no route reads), checked every half timeout at most.
 */
export function serverTimeouts(requestTimeoutMs: number) {
  return {
    requestTimeout: 2 * requestTimeoutMs,
    http: {
      headersTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.min(30_000, Math.ceil(requestTimeoutMs / 2)),
    },
  };
}

/**
 * A preParsing hook giving the body `timeoutMs` from the moment the route starts reading it: past
 * that the body stream fails with a `BodyTimeoutError` (408), and once answered the connection is
 * closed so the rest of the upload is never read.
 */
export function bodyDeadline(timeoutMs: number): preParsingHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply, payload) => {
    // The hook runs while Node is still parsing the packet that brought the headers. Once the event
    // loop is done with that read (setImmediate), a body sent with its headers has arrived whole and
    // needs no deadline stream.
    if (!request.raw.complete) await new Promise(setImmediate);
    if (request.raw.complete) return payload;
    const timed = new PassThrough();
    const clear = () => clearTimeout(timer);
    const timer = setTimeout(() => {
      payload.unpipe(timed);
      timed.destroy(
        new BodyTimeoutError(`The request body did not arrive within ${timeoutMs} ms (requestTimeoutMs): send it at once, or not at all.`),
      );
      reply.raw.once('finish', () => request.raw.destroy());
    }, timeoutMs);
    timer.unref();
    payload.once('end', clear).once('error', (error) => {
      clear();
      timed.destroy(error);
    });
    reply.raw.once('close', clear);
    payload.pipe(timed);
    return timed;
  };
}
