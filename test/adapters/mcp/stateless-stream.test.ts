/**
 * Stateless Streamable HTTP answers a tool call over SSE when the client accepts it and the call
 * reports as it goes: progress and logs reach the client mid-call (json-answers.test.ts: a call that
 * does not is answered as JSON). Closing the request before the answer aborts the tool.
 */
import 'reflect-metadata';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Tool, ToolContext, Expects } from 'toolwright';
import { serveHttp } from 'toolwright/mcp';

@Tool({ description: 'Counts to three' })
@Expects({})
class CountToThree {
  async call(_input: unknown, context: ToolContext) {
    for (let step = 1; step <= 3; step++) await context.progress(step, 3);
    await context.log('info', 'counted');
    return 'three';
  }
}

let aborted: (reason: unknown) => void;
const abortedWith = new Promise<unknown>((resolve) => (aborted = resolve));
let started: () => void;
const startedCall = new Promise<void>((resolve) => (started = resolve));

@Tool({ description: 'Waits until cancelled' })
@Expects({})
class WaitForever {
  call(_input: unknown, context: ToolContext) {
    started();
    return new Promise((_resolve, reject) =>
      context.signal.addEventListener('abort', () => {
        aborted(context.signal.reason);
        reject(context.signal.reason);
      }),
    );
  }
}

it('progress and logs reach the client of a stateless server', async () => {
  const handle = await serveHttp({ name: 'stateless', version: '1', tools: [CountToThree] }, { port: 0, stateless: true });
  const client = new Client({ name: 'c', version: '1' });
  const logs: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params.data));
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
    const progress: number[] = [];
    const result = await client.callTool({ name: 'count_to_three', arguments: {} }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    });
    expect(result.content).toEqual([{ type: 'text', text: 'three' }]);
    expect(progress).toEqual([1, 2, 3]);
    expect(logs).toEqual(['counted']);
  } finally {
    await client.close();
    await handle.close();
  }
});

it('closing the response aborts the tool', async () => {
  const handle = await serveHttp({ name: 'stateless', version: '1', tools: [WaitForever] }, { port: 0, stateless: true });
  try {
    const req = request(handle.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    req.on('error', () => undefined);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wait_forever', arguments: {} } }));
    await startedCall;
    req.destroy();
    await expect(abortedWith).resolves.toBeDefined();
  } finally {
    await handle.close();
  }
});
