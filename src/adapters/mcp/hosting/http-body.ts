import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { TOO_LARGE } from './limits';

type JsonRpcId = string | number | null;

/** The JSON-RPC code of a request the server stopped waiting for (the 1.x SDK's ConnectionClosed). */
const CONNECTION_CLOSED = -32000;

/** Answers a request with a JSON-RPC error body (unless an answer has already started). */
export function jsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  options: { id?: JsonRpcId; headers?: OutgoingHttpHeaders } = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: options.id ?? null });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...options.headers }).end(body);
}

export interface BodyLimits {
  maxBodyBytes: number;
  requestTimeoutMs: number;
}

const log = (line: string) => console.error(`toolwright/mcp: ${line}`);

/**
 * Reads a POST body as JSON, within the limits: a declared or actual size over `maxBodyBytes` is
 * answered 413 (the rest of the upload is discarded, never buffered), a body that has not arrived
 * within `requestTimeoutMs` of the headers 408, a body that is not JSON 400 (-32700). A client that
 * disconnects mid-body costs one log line. Resolves `{ body }`, or undefined when the request has
 * been answered (or is gone).
 */
export function readJsonBody(req: IncomingMessage, res: ServerResponse, limits: BodyLimits): Promise<{ body: unknown } | undefined> {
  const { maxBodyBytes, requestTimeoutMs } = limits;
  const refuseClose = { connection: 'close' };
  const tooLarge = () => {
    log(`refused a request body over ${maxBodyBytes} bytes (maxBodyBytes) with 413.`);
    jsonRpcError(
      res,
      413,
      TOO_LARGE,
      `Payload Too Large: the request body is over this server's limit of ${maxBodyBytes} bytes (maxBodyBytes).`,
      {
        headers: refuseClose,
      },
    );
  };
  if (Number(req.headers['content-length']) > maxBodyBytes) {
    tooLarge();
    req.resume();
    return Promise.resolve(undefined);
  }

  return new Promise((resolve) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (value: { body: unknown } | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      chunks = [];
      req.off('data', onData).off('end', onEnd).off('close', onClose);
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) return void chunks.push(chunk);
      // Over the limit: answer now and discard the rest as it arrives (the deadline still applies).
      settle(undefined);
      tooLarge();
      req.resume();
    };
    const onEnd = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        settle({ body: text === '' ? undefined : JSON.parse(text) });
      } catch {
        settle(undefined);
        jsonRpcError(res, 400, ProtocolErrorCode.ParseError, 'Parse error: the request body is not valid JSON.');
      }
    };
    const onClose = () => {
      if (settled) return;
      settle(undefined);
      log(`request body aborted by the client after ${size} bytes.`);
    };
    const timer = setTimeout(() => {
      settle(undefined);
      log(`request body timed out after ${requestTimeoutMs} ms (requestTimeoutMs) with ${size} bytes received; the connection was closed.`);
      jsonRpcError(
        res,
        408,
        CONNECTION_CLOSED,
        `Request Timeout: the request body did not arrive within ${requestTimeoutMs} ms (requestTimeoutMs).`,
        {
          headers: refuseClose,
        },
      );
      res.once('finish', () => req.destroy());
    }, requestTimeoutMs);
    timer.unref();
    req.on('data', onData).on('end', onEnd).on('close', onClose);
    // An aborted upload also emits 'error' (ECONNRESET); 'close' reports it, once.
    req.on('error', () => {});
  });
}
