/**
 * A small OpenAI-compatible HTTP server on 127.0.0.1 (port 0) for tests: it records every request
 * body the real `openai` client sends and answers from a script, one reply per request.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly body: any;
}

export interface ScriptedServer {
  /** The base URL the `openai` client takes (`…/v1`). */
  readonly baseURL: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Replies in order; a request past the end of the script gets a 500 naming it. */
export async function startScriptedServer(script: Array<(request: RecordedRequest) => unknown>): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', body: text ? JSON.parse(text) : undefined };
      requests.push(request);
      const step = script[requests.length - 1];
      const [status, payload] = step
        ? [200, step(request)]
        : [500, { error: { message: `the script has no reply for request ${requests.length} (${request.path})`, type: 'server_error' } }];
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A Chat Completions response whose assistant message makes these tool calls. */
export function toolCallsCompletion(calls: Array<{ id: string; name: string; arguments: string }>) {
  return chatCompletion({
    role: 'assistant',
    content: null,
    tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
  }, 'tool_calls');
}

/** A Chat Completions response with a text answer. */
export function textCompletion(text: string) {
  return chatCompletion({ role: 'assistant', content: text }, 'stop');
}

function chatCompletion(message: object, finishReason: string) {
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion',
    created: 0,
    model: 'scripted-model',
    choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

/** A Responses API response with these output items. */
export function responsesResponse(output: object[]) {
  return {
    id: 'resp_scripted',
    object: 'response',
    created_at: 0,
    model: 'scripted-model',
    status: 'completed',
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
  };
}
