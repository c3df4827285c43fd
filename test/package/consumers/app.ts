/**
 * A consumer application, compiled from the packed tarball under each module setting: every entry
 * point imported, one `@singleton()` store shared by tools reached through invoke, MCP, a toolbox
 * and the AI SDK, and by the app's own tsyringe container (passed as `container` where it is typed).
 */
import 'reflect-metadata';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { container, DependencyContainer, injectable, singleton } from 'tsyringe';
import { Expects, Exposes, Integer, invoke, resolveTool, Tool } from 'toolwright';
import { createMcpServer } from 'toolwright/mcp';
import { AiSdkTools, toAiSdkTools } from 'toolwright/ai';
import { Toolbox } from 'toolwright/openai';
import { isolatedRegistry } from 'toolwright/testing';

@singleton()
class TicketStore {
  readonly titles: string[] = [];
}

@Tool({ description: 'Open a ticket' })
@Expects({ title: String })
@Exposes({ count: Integer })
@injectable()
class OpenTicket {
  constructor(private readonly store: TicketStore) {}

  call(input: { title: string }) {
    this.store.titles.push(input.title);
    return { count: this.store.titles.length };
  }
}

@Tool({ description: 'List the open tickets' })
@Exposes({ titles: [String] })
@injectable()
class ListTickets {
  constructor(readonly store: TicketStore) {}

  call() {
    return { titles: [...this.store.titles] };
  }
}

async function main(): Promise<void> {
  const appContainer: DependencyContainer = container;
  const counts: unknown[] = [];

  // invoke, with the app's container and with toolwright's default (tsyringe's root container).
  const first = await invoke(OpenTicket, { title: 'printer on fire' }, { container: appContainer });
  counts.push(first.ok ? first.value : first.error);
  const second = await invoke(OpenTicket, { title: 'coffee machine empty' });
  counts.push(second.ok ? second.value : second.error);

  // MCP, through the SDK's own client.
  const server = createMcpServer({ name: 'help-desk', version: '1.0.0', tools: [OpenTicket, ListTickets], container: appContainer });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'consumer', version: '1.0.0' });
  await client.connect(clientTransport);
  const overMcp = await client.callTool({ name: 'open_ticket', arguments: { title: 'vpn down' } });
  counts.push(overMcp.structuredContent);
  await client.close();

  // Function calling: an OpenAI-style toolbox, and the AI SDK's tools over it.
  const toolbox = new Toolbox([OpenTicket, ListTickets], { container: appContainer });
  const record = await toolbox.invoke({ id: 'call_1', name: 'open_ticket', arguments: '{"title":"badge reader"}' });
  counts.push(record.data);
  const aiTools = toAiSdkTools(toolbox, { container: appContainer });
  // What generateText does with a tool call; its options' shape differs between ai 6 and 7.
  type ExecuteOptions = Parameters<NonNullable<AiSdkTools[string]['execute']>>[1];
  const listed = await aiTools.list_tickets.execute!({}, { toolCallId: 'call_2', messages: [] } as unknown as ExecuteOptions);

  const resolved = resolveTool(ListTickets, appContainer) as ListTickets;
  const registry = isolatedRegistry();
  console.log(
    JSON.stringify({
      counts,
      listed,
      sameStore: resolved.store === container.resolve(TicketStore),
      appSees: container.resolve(TicketStore).titles,
      aiTools: Object.keys(aiTools).sort(),
      isolatedRegistryIsEmpty: registry.forAdapter('mcp').length === 0,
    }),
  );
}

// A rejection ends the process with exit code 1 and the error on stderr.
void main();
