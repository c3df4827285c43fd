/**
 * The server is extensible: a `configure` hook receives every SDK server (once per session) to add
 * resources and prompts with the SDK's own API, and the served tool set changes at run time with
 * tools/list_changed sent to connected clients.
 */
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/server';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Tool } from 'toolwright';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer, McpAdapter, mcpServerFactory, serveHttp } from 'toolwright/mcp';

@Tool({ description: 'Says hello' })
class Hello {
  call() {
    return 'hello';
  }
}

@Tool({ description: 'Says goodbye' })
class Goodbye {
  call() {
    return 'goodbye';
  }
}

function addDocs(server: Server): void {
  server.setRequestHandler('resources/list', () => ({ resources: [{ uri: 'docs://readme', name: 'readme', mimeType: 'text/plain' }] }));
  server.setRequestHandler('resources/read', (request) => ({
    contents: [{ uri: request.params.uri, mimeType: 'text/plain', text: 'Read me.' }],
  }));
  server.setRequestHandler('prompts/list', () => ({ prompts: [{ name: 'greet', description: 'A greeting' }] }));
  server.setRequestHandler('prompts/get', () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }],
  }));
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'extensible', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe('the configure hook', () => {
  it('receives the SDK server once per session; resources and prompts answer beside the tools', async () => {
    const configured: Server[] = [];
    const handle = await serveHttp(
      {
        name: 'docs',
        version: '1',
        tools: [Hello],
        capabilities: { resources: {}, prompts: {} },
        configure: (server) => {
          configured.push(server);
          addDocs(server);
        },
      },
      { port: 0 },
    );
    const [a, b] = [await connect(handle.url), await connect(handle.url)];
    try {
      expect(configured).toHaveLength(2);
      expect(configured[0]).not.toBe(configured[1]);
      expect(a.getServerCapabilities()).toMatchObject({ resources: {}, prompts: {}, tools: { listChanged: true } });
      expect((await a.listResources()).resources.map((resource) => resource.uri)).toEqual(['docs://readme']);
      expect((await b.readResource({ uri: 'docs://readme' })).contents).toEqual([
        { uri: 'docs://readme', mimeType: 'text/plain', text: 'Read me.' },
      ]);
      expect((await a.getPrompt({ name: 'greet' })).messages).toHaveLength(1);
      expect((await a.listTools()).tools.map((tool) => tool.name)).toEqual(['hello']);
    } finally {
      await a.close();
      await b.close();
      await handle.close();
    }
  });

  it('refuses a hook or capabilities of the wrong kind, naming the option', () => {
    expect(() => createMcpServer({ name: 'x', version: '1', tools: [Hello], configure: 'setup' as never })).toThrow(
      "createMcpServer: 'configure' must be a function (server) => void; got 'setup'.",
    );
    expect(() => createMcpServer({ name: 'x', version: '1', tools: [Hello], capabilities: [] as never })).toThrow(
      "createMcpServer: 'capabilities' must be an object of MCP server capabilities, e.g. { resources: {} }; got [].",
    );
  });

  it('without the capability declared, the SDK refuses the handler (so the mistake shows at the first connection)', () => {
    expect(() => createMcpServer({ name: 'x', version: '1', tools: [Hello], configure: addDocs })).toThrow(/resources/);
  });
});

describe('tools added and removed at run time', () => {
  it('sends tools/list_changed to every connected client on each change, and not after it closed', async () => {
    const factory = mcpServerFactory({ name: 'live', version: '1', tools: [Hello] });
    const changes = [0, 0];
    const clients = await Promise.all(
      changes.map(async (_, index) => {
        const server = factory();
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await server.connect(serverSide as unknown as Parameters<typeof server.connect>[0]);
        const client = new Client({ name: `c${index}`, version: '1' });
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes[index]++);
        await client.connect(clientSide);
        return client;
      }),
    );
    factory.tools.add(Goodbye);
    factory.tools.remove('hello');
    await clients[0].listTools(); // a round trip: the notifications before it have arrived
    await clients[1].listTools();
    expect(changes).toEqual([2, 2]);
    await clients[1].close();
    factory.tools.add(Hello);
    expect((await clients[0].listTools()).tools.map((tool) => tool.name)).toEqual(['goodbye', 'hello']);
    expect(changes).toEqual([3, 2]);
    await clients[0].close();
  });

  it('over HTTP: the new set is listed and called at once', async () => {
    const handle = await serveHttp({ name: 'live', version: '1', tools: [Hello] }, { port: 0 });
    const clients = [await connect(handle.url), await connect(handle.url)];
    try {
      handle.tools.add(Goodbye);
      expect(handle.tools.names()).toEqual(['hello', 'goodbye']);
      expect((await clients[1].listTools()).tools.map((tool) => tool.name)).toEqual(['hello', 'goodbye']);
      expect((await clients[0].callTool({ name: 'goodbye', arguments: {} })).content).toEqual([{ type: 'text', text: 'goodbye' }]);

      expect(handle.tools.remove('hello')).toBe(true);
      expect(handle.tools.remove('hello')).toBe(false);
      expect((await clients[0].listTools()).tools.map((tool) => tool.name)).toEqual(['goodbye']);
      await expect(clients[0].callTool({ name: 'hello', arguments: {} })).rejects.toThrow('Unknown tool: hello');
      expect(handle.tools.remove(Goodbye)).toBe(true);
      expect((await clients[0].listTools()).tools).toEqual([]);
    } finally {
      for (const client of clients) await client.close();
      await handle.close();
    }
  });

  it('refuses a second tool under a served name unless told to replace it', async () => {
    const handle = await serveHttp({ name: 'live', version: '1', tools: [Hello] }, { port: 0 });
    try {
      const other = McpAdapter.wrap(Goodbye, { name: 'hello' });
      expect(() => handle.tools.add(other)).toThrow(
        "Tools Goodbye and Hello are both served as 'hello'. Give one another name (wrap(tool, { name }) or @Tool({ adapters: { mcp: { name } } })), or add(tool, { replace: true }).",
      );
      handle.tools.add(other, { replace: true });
      const client = await connect(handle.url);
      expect((await client.callTool({ name: 'hello', arguments: {} })).content).toEqual([{ type: 'text', text: 'goodbye' }]);
      await client.close();
      expect(() => handle.tools.add(42 as never)).toThrow('McpServedTools: expected a tool or an McpAdapter.wrap entry; got 42.');
    } finally {
      await handle.close();
    }
  });
});
