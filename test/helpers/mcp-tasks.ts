/**
 * MCP 2026-07-28 task requests over raw HTTP (the 2.x Client's 2026-07-28 codec refuses a
 * CreateTaskResult): the `_meta` envelope with the client capabilities the test says, and the
 * SEP-2243 headers. Shared by the tasks-extension tests.
 */
import type { McpHttpHandle } from 'toolwright/mcp';
import { modernHeaders } from './mcp';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TaskAnswer = Record<string, any>;

/** What a raw request may declare and send. */
export interface RawTaskOptions {
  token?: string;
  /** Declare the tasks extension (default true). */
  extension?: boolean;
  /** Declare form elicitation. */
  elicitation?: boolean;
  /** Declare sampling. */
  sampling?: boolean;
  headers?: Record<string, string>;
}

let nextId = 1;

/** A 2026-07-28 request over raw HTTP: the JSON-RPC response and its HTTP status. */
export async function rawTaskRequest(
  handle: McpHttpHandle,
  method: string,
  params: Record<string, unknown>,
  { token = 'alice', extension = true, elicitation = false, sampling = false, headers = {} }: RawTaskOptions = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; result?: TaskAnswer; error?: { code: number; message: string; data?: any } }> {
  const name = method === 'tools/call' ? params.name : typeof params.taskId === 'string' ? params.taskId : undefined;
  const response = await fetch(handle.url, {
    method: 'POST',
    headers: { ...modernHeaders(method, typeof name === 'string' ? name : undefined), authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {
            ...(extension ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
            ...(elicitation ? { elicitation: { form: {} } } : {}),
            ...(sampling ? { sampling: {} } : {}),
          },
        },
      },
    }),
  });
  const text = await response.text();
  const body = response.headers.get('content-type')?.includes('text/event-stream')
    ? JSON.parse(
        text
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .pop()!
          .slice(5),
      )
    : JSON.parse(text);
  return { status: response.status, ...body };
}
