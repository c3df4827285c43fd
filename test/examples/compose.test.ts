/**
 * examples/compose: the gateway serves its own tool, the billing mount and the warehouse's MCP
 * server (a real child process over stdio) on one endpoint; each team's token sees its own members;
 * the warehouse's destructive tool asks the person first.
 */
import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpHttpHandle } from 'toolwright/mcp';
import { startGateway } from '../../examples/compose/gateway';

const bearer = (token: string) => ({ requestInit: { headers: { Authorization: `Bearer ${token}` } } });
const text = (result: object) => ((result as { content: Array<{ text?: string }> }).content ?? []).map((part) => part.text).join('');

let gateway: McpHttpHandle;
beforeAll(async () => {
  gateway = await startGateway(0);
}, 30_000);
afterAll(async () => gateway?.close());

it('each team sees its own members, over 2026-07-28 and 2025-11-25', async () => {
  const finance = new Client({ name: 'finance', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await finance.connect(new StreamableHTTPClientTransport(new URL(gateway.url), bearer('finance-token')));
  const ops = new LegacyClient({ name: 'ops', version: '1.0.0' });
  await ops.connect(new LegacyHttpTransport(new URL(gateway.url), bearer('ops-token')));
  try {
    expect(finance.getProtocolEra()).toBe('modern');
    expect((await finance.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami', 'billing_invoice', 'billing_revenue']);
    expect((await ops.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami', 'inventory_stock', 'inventory_restock']);
    expect(text(await finance.callTool({ name: 'billing_invoice', arguments: { customer: 'ACME', cents: 12_500 } }))).toBe('invoice for ACME: 125.00 EUR');
    expect(JSON.parse(text(await ops.callTool({ name: 'inventory_stock', arguments: { item: 'widget' } })))).toEqual({ item: 'widget', count: 12 });
    await expect(finance.callTool({ name: 'inventory_stock', arguments: { item: 'widget' } })).rejects.toThrow(/Unknown tool: inventory_stock/);
  } finally {
    await finance.close();
    await ops.close();
  }
});

it("the warehouse's destructive restock runs only once the person approves", async () => {
  const asked: string[] = [];
  const ops = new LegacyClient({ name: 'ops', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  ops.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { approve: true } };
  });
  await ops.connect(new LegacyHttpTransport(new URL(gateway.url), bearer('ops-token')));
  try {
    expect(text(await ops.callTool({ name: 'inventory_restock', arguments: { item: 'gadget', count: 5 } }))).toBe('ordered 5 gadget');
    expect(asked).toEqual(['Allow the tool inventory_restock to run with these arguments?\nitem: "gadget"\ncount: 5']);
    expect(JSON.parse(text(await ops.callTool({ name: 'inventory_stock', arguments: { item: 'gadget' } })))).toEqual({ item: 'gadget', count: 5 });
  } finally {
    await ops.close();
  }
});
