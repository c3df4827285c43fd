import type { Readable, Writable } from 'node:stream';
import { parseJSONRPCMessage, ProtocolErrorCode, type JSONRPCMessage, type Server, type Transport } from '@modelcontextprotocol/server';
import { serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import { DEFAULT_LIMITS, positiveInteger, TOO_LARGE } from './limits';
import { mcpServerFactory, McpServerOptions } from '../server/factory';
import type { McpServedSets } from '../members/served-sets';

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const log = (line: string) => console.error(`toolwright/mcp: ${line}`);

/**
 * Newline-delimited JSON-RPC over a pair of streams, like the SDK's `StdioServerTransport`, with a
 * bound per message instead of one on the whole buffer: a line over `maxMessageBytes` is answered
 * -32600 as soon as it crosses the limit and the rest of it is discarded up to its newline (never
 * buffered); a line that is not JSON is answered -32700 and one that is JSON but not a JSON-RPC
 * message -32600. Each refusal logs one line to stderr and the transport reads on. Blank lines are
 * ignored.
 */
export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private parts: Buffer[] = [];
  private size = 0;
  /** Inside a line that went over the limit: everything up to its newline is dropped. */
  private discarding = false;
  private started = false;
  private closed = false;

  constructor(
    private readonly maxMessageBytes: number,
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('BoundedStdioTransport already started (Server.connect() starts it).');
    this.started = true;
    this.stdin.on('data', this.onData).on('error', this.onStreamError).on('end', this.onEnd);
    this.stdout.on('error', this.onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed || this.stdout.destroyed) return resolve();
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData).off('error', this.onStreamError).off('end', this.onEnd);
    this.stdout.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.parts = [];
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string) => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    while (data.length > 0 && !this.closed) {
      const end = data.indexOf(NEWLINE);
      const piece = end === -1 ? data : data.subarray(0, end);
      if (!this.discarding) {
        // One byte of slack for the '\r' of a '\r\n' line end, which is not part of the message.
        if (this.size + piece.length > this.maxMessageBytes + 1) {
          this.discarding = true;
          this.refuseOversized();
        } else {
          this.parts.push(piece);
          this.size += piece.length;
        }
      }
      if (end === -1) return;
      data = data.subarray(end + 1);
      if (this.discarding) this.discarding = false;
      else this.line(Buffer.concat(this.parts, this.size));
      this.parts = [];
      this.size = 0;
    }
  };

  private refuseOversized(): void {
    this.parts = [];
    this.size = 0;
    log(`a stdin message over ${this.maxMessageBytes} bytes (maxMessageBytes) was discarded and answered -32600.`);
    this.reply(
      TOO_LARGE,
      `Invalid Request: the message is over this server's limit of ${this.maxMessageBytes} bytes (maxMessageBytes).`,
      null,
    );
  }

  private line(bytes: Buffer): void {
    if (bytes[bytes.length - 1] === CARRIAGE_RETURN) bytes = bytes.subarray(0, -1);
    if (bytes.length > this.maxMessageBytes) return this.refuseOversized();
    const text = bytes.toString('utf8');
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      log(`a stdin message of ${bytes.length} bytes is not valid JSON; answered -32700.`);
      return this.reply(ProtocolErrorCode.ParseError, 'Parse error: the message is not valid JSON.', null);
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      const id = (value as { id?: unknown } | null)?.id;
      log(`a stdin message of ${bytes.length} bytes is not a JSON-RPC 2.0 message; answered -32600.`);
      return this.reply(
        ProtocolErrorCode.InvalidRequest,
        'Invalid Request: the message is not a JSON-RPC 2.0 request, notification or response.',
        typeof id === 'string' || typeof id === 'number' ? id : null,
      );
    }
    this.onmessage?.(message);
  }

  private reply(code: number, message: string, id: string | number | null): void {
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  private readonly onStreamError = (error: Error) => {
    this.onerror?.(error);
    void this.close();
  };

  private readonly onEnd = () => void this.close();
}

/** The second argument of `serveStdio(options, { ... })`. */
export interface StdioServeOptions {
  /** Largest message (one line) accepted, in bytes (default 10 MiB); a larger one is answered -32600. */
  maxMessageBytes?: number;
}

/** What `serveStdio` resolves to: the connection's SDK server, the live sets of what it serves, and `close()`. */
export interface McpStdioHandle extends McpServedSets {
  /**
   * The SDK server serving the connection, once the client's first message chose its revision
   * (undefined before).
   */
  readonly server: Server | undefined;
  close(): Promise<void>;
}

/**
 * Serves the tools over stdio (the process's stdin and stdout): what desktop clients launch. The
 * client's opening message chooses the revision of the connection (the SDK's `serveStdio`):
 * `initialize` for 2025-11-25, `server/discover` or any enveloped request for 2026-07-28.
 */
export async function serveStdio(options: McpServerOptions, stdio: StdioServeOptions = {}): Promise<McpStdioHandle> {
  const maxMessageBytes = positiveInteger('serveStdio', 'maxMessageBytes', stdio?.maxMessageBytes, DEFAULT_LIMITS.maxMessageBytes);
  const factory = mcpServerFactory(options);
  try {
    factory.checkConfigure(); // a configure hook that throws fails here, not at the client's first message
    await factory.ready(); // remote mounts served before the client's first message is read
  } catch (error) {
    await factory.close();
    throw error;
  }
  let server: Server | undefined;
  const served = sdkServeStdio(({ era }) => (server = factory({ era, singleProcess: true })), {
    transport: new BoundedStdioTransport(maxMessageBytes),
    onerror: (error) => log(`stdio: ${error.message}`),
  });
  return {
    get server() {
      return server;
    },
    tools: factory.tools,
    resources: factory.resources,
    prompts: factory.prompts,
    completions: factory.completions,
    close: async () => {
      await served.close();
      await factory.close();
    },
  };
}
