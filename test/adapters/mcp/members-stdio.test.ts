/**
 * Resources, prompts and completions over `serveStdio` in a child process, with the SDK 2.x Client
 * on 2025-11-25 (its default) and pinned to 2026-07-28: reads (a template's variable coerced),
 * prompts, completions, and a resource update reaching a subscribed 2025-11-25 client and a
 * 2026-07-28 client listening with resourceSubscriptions (never one of a resource hidden from it).
 */
import 'reflect-metadata';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { connectStdioFixture, v2Client } from '../../helpers/mcp';

const fixture = path.join(__dirname, '../../fixtures/mcp-members/stdio-server.ts');
const open: Client[] = [];
afterAll(async () => {
  await Promise.all(open.map((client) => client.close().catch(() => undefined)));
});

async function stdio(mode: 'legacy' | 'pin'): Promise<Client> {
  const client = await connectStdioFixture(v2Client(`members-stdio-${mode}`, mode), fixture);
  open.push(client);
  return client;
}

describe('serveStdio serves resources, prompts and completions on both revisions', () => {
  it.each(['legacy', 'pin'] as const)('%s: reads, gets, completes, and is told of an update it subscribed to', async (mode) => {
    const client = await stdio(mode);
    expect(client.getProtocolEra()).toBe(mode === 'legacy' ? 'legacy' : 'modern');
    expect((await client.readResource({ uri: 'notes://today' })).contents).toEqual([{ uri: 'notes://today', mimeType: 'text/plain', text: 'buy milk' }]);
    expect((await client.readResource({ uri: 'notes://days/6' })).contents).toEqual([
      { uri: 'notes://days/6', mimeType: 'application/json', text: JSON.stringify({ n: 6, next: 7 }) },
    ]);
    expect((await client.getPrompt({ name: 'plan', arguments: { day: 'friday' } })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Plan friday' } },
    ]);
    expect((await client.complete({ ref: { type: 'ref/prompt', name: 'plan' }, argument: { name: 'day', value: 'mo' } })).completion).toMatchObject({
      values: ['monday'],
    });
    const updates: string[] = [];
    const updated = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/resources/updated', ({ params: { uri } }) => void (updates.push(uri), uri === 'notes://today' && resolve())),
    );
    // The hidden notes://secret: a listen stream names it (stdio's acknowledgement echoes any URI), and hears nothing of it.
    const subscription = mode === 'pin' ? await client.listen({ resourceSubscriptions: ['notes://secret', 'notes://today'] }) : undefined;
    if (mode === 'legacy') {
      await expect(client.subscribeResource({ uri: 'notes://secret' })).rejects.toMatchObject({ code: -32602 });
      await client.subscribeResource({ uri: 'notes://today' });
    }
    try {
      await client.callTool({ name: 'touch', arguments: {} });
      await updated;
      expect(updates).toEqual(['notes://today']);
    } finally {
      await subscription?.close();
    }
  }, 60_000);
});
