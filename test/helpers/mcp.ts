import * as path from 'node:path';
import { Client as V2Client, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer, McpServerOptions } from 'toolwright/mcp';

/** An initialize request as a raw client sends it, for tests that speak HTTP without an SDK Client. */
export function rawInitialize(id = 1): { jsonrpc: '2.0'; id: number; method: 'initialize'; params: object } {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
  };
}

/**
 * A real 1.x SDK Client (what most hosts run, MCP 2025-11-25) connected to a toolwright MCP server
 * (SDK 2.x) over the 1.x InMemoryTransport: both SDKs speak the same Transport interface.
 */
export async function connectInMemory(options: McpServerOptions): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = createMcpServer(options);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport as unknown as Parameters<typeof server.connect>[0]);
  const client = new Client({ name: 'toolwright-test', version: '1.0.0' });
  await client.connect(clientTransport);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** How an SDK 2.x Client picks its revision: 2025-11-25 (`legacy`, its default), pinned to 2026-07-28, or negotiated (`auto`). */
export type V2Mode = 'legacy' | 'pin' | 'auto';

/** An SDK 2.x Client named `name` in `mode`, with `options` (capabilities, …) besides. */
export function v2Client(name: string, mode: V2Mode = 'legacy', options: ClientOptions = {}): V2Client {
  const negotiation = mode === 'legacy' ? {} : { versionNegotiation: { mode: mode === 'auto' ? ('auto' as const) : { pin: '2026-07-28' } } };
  return new V2Client({ name, version: '1.0.0' }, { ...options, ...negotiation });
}

/**
 * Connects `client` over stdio to a TypeScript fixture server that Node runs (through ts-node, with
 * the tsconfig paths) from the repository root, in the test's environment plus `env`. The server's
 * stderr is piped, not mixed into Jest's output: `onStderr` hears it from the start.
 */
export async function connectStdioFixture<C extends V2Client>(
  client: C,
  fixture: string,
  options: { env?: Record<string, string>; onStderr?: (text: string) => void } = {},
): Promise<C> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', fixture],
    cwd: path.resolve(__dirname, '..', '..'),
    env: { ...(process.env as Record<string, string>), ...options.env },
    stderr: 'pipe',
  });
  const { onStderr } = options;
  if (onStderr) transport.stderr?.on('data', (chunk: Buffer) => onStderr(chunk.toString()));
  await client.connect(transport);
  return client;
}

/** One SSE event as the raw-HTTP tests read it. */
export interface SseEvent {
  id?: string;
  /** The event's `retry` field (milliseconds), when it has one. */
  retry?: number;
  data?: unknown;
}

/** Moves the complete SSE events at the front of `buffer` into `events`; returns what is left. */
export function takeSseEvents(buffer: string, events: SseEvent[]): string {
  let end: number;
  while ((end = buffer.indexOf('\n\n')) >= 0) {
    const block = buffer.slice(0, end);
    buffer = buffer.slice(end + 2);
    const event: SseEvent = {};
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) event.id = line.slice(4);
      if (line.startsWith('retry: ')) event.retry = Number(line.slice(7));
      if (line.startsWith('data: ') && line.length > 6) event.data = JSON.parse(line.slice(6));
    }
    events.push(event);
  }
  return buffer;
}

/** The headers of a raw MCP 2026-07-28 POST: content type, accept, and the standard headers the revision requires (SEP-2243). */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name !== undefined ? { 'mcp-name': name } : {}),
  };
}

/** The `_meta` envelope of a raw 2026-07-28 request from a client that declares form elicitation. */
export const MODERN_ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

/** A raw 2026-07-28 tools/call answer: its result (input-required or final) or its error. */
export interface ModernAnswer {
  result?: { resultType?: string; requestState?: string; inputRequests?: Record<string, unknown>; content?: Array<{ text?: string }>; isError?: boolean };
  error?: { code: number; message: string; data?: unknown };
}

let rawId = 0;
/**
 * One raw 2026-07-28 tools/call round over HTTP (`params`: name, arguments, and requestState and
 * inputResponses on later rounds), with a bearer `token` when given: for tests that send a round
 * where the SDK Client would not (a replay, another replica, a forged state).
 */
export async function postModernCall(url: string, params: Record<string, unknown>, token?: string): Promise<ModernAnswer> {
  return postModern(url, 'tools/call', params, { token });
}

/**
 * One raw 2026-07-28 request of any method over HTTP, from a client declaring `capabilities`
 * (default: form elicitation, as MODERN_ENVELOPE), e.g. `{ extensions: { 'io.modelcontextprotocol/tasks': {} } }`
 * where the SDK Client cannot read the answer (a CreateTaskResult).
 */
export async function postModern(
  url: string,
  method: string,
  params: Record<string, unknown>,
  { token, capabilities }: { token?: string; capabilities?: Record<string, unknown> } = {},
): Promise<ModernAnswer> {
  const name = method === 'tools/call' ? String(params.name) : undefined;
  const _meta = capabilities ? { ...MODERN_ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': capabilities } : MODERN_ENVELOPE;
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...modernHeaders(method, name), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rawId, method, params: { ...params, _meta } }),
  });
  const body = await response.text();
  // One JSON answer, or one SSE event carrying it.
  const json = body.startsWith('{') ? body : body.split('\n').find((line) => line.startsWith('data: '))!.slice(6);
  return JSON.parse(json) as ModernAnswer;
}

/**
 * A `serveHttp` auth whose bearer tokens are the keys of `scopesByToken`, each granting its scopes
 * for an hour; any other token is invalid.
 */
export function scopedTokens(scopesByToken: Record<string, string[]>) {
  return {
    verifyAccessToken: (token: string) =>
      token in scopesByToken
        ? { token, clientId: token, scopes: scopesByToken[token], expiresAt: Math.floor(Date.now() / 1000) + 3600 }
        : undefined,
  };
}
