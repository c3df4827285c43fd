/**
 * A gateway with a visible rule, a local mount and a remote mount, served over stdio in a child
 * process (test/fixtures/mcp/compose-gateway.ts), itself starting the remote as its own child: the
 * 2.x Client over stdio in 2025-11-25 and in 2026-07-28.
 */
import 'reflect-metadata';
import * as path from 'node:path';
import { connectStdioFixture, v2Client } from '../../helpers/mcp';

const fixture = path.join(__dirname, '..', '..', 'fixtures', 'mcp', 'compose-gateway.ts');

it.each(['legacy', 'pin'] as const)('over stdio (%s): own, mounted and remote members served, the hidden one answering as unknown', async (mode) => {
  const client = await connectStdioFixture(v2Client(`stdio-${mode}`, mode), fixture);
  try {
    expect(client.getProtocolEra()).toBe(mode === 'pin' ? 'modern' : 'legacy');
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['hello', 'billing_invoice', 'ledger_lookup', 'ledger_transfer']));
    expect(names).not.toContain('secret');
    expect(await client.callTool({ name: 'billing_invoice', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'invoice 1' }] });
    const looked = await client.callTool({ name: 'ledger_lookup', arguments: { account: 'x' } });
    expect((looked.content as Array<{ text: string }>)[0].text).toMatch(/^x is owned by Ada/);
    await expect(client.callTool({ name: 'secret', arguments: {} })).rejects.toThrow(/Unknown tool: secret/);
    await expect(client.callTool({ name: 'nothing', arguments: {} })).rejects.toThrow(/Unknown tool: nothing/);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['ledger_audit']);
    expect((await client.readResource({ uri: 'ledger://balance' })).contents).toMatchObject([{ text: '1,024.00 EUR' }]);
  } finally {
    await client.close();
  }
}, 60_000);
