/**
 * The server is extensible: a `configure` hook receives every SDK server (at start, then once per session) to add
 * resources and prompts with the SDK's own API, and the served tool set changes at run time with
 * tools/list_changed sent to connected clients.
 */
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/server';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { DeclarationError, Tool } from 'toolwright';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpHttpHandler, createMcpServer, McpAdapter, mcpServerFactory, serveHttp, serveStdio } from 'toolwright/mcp';
import { MODERN_ENVELOPE, modernHeaders, rawInitialize } from '../../helpers/mcp';

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
  it('receives an SDK server at start and once per session; resources and prompts answer beside the tools', async () => {
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
      expect(configured).toHaveLength(3); // once at start (a hook that throws fails serveHttp), then once per session
      expect(configured[1]).not.toBe(configured[2]);
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

  it('without the capability declared, the SDK refuses the handler, and the server fails at start naming the hook', async () => {
    const hook = /^createMcpServer: the 'configure' hook threw: .*resources.*\. It runs with every SDK server toolwright builds/;
    expect(() => createMcpServer({ name: 'x', version: '1', tools: [Hello], configure: addDocs })).toThrow(hook);
    const options = { name: 'x', version: '1', tools: [Hello], configure: addDocs };
    await expect(serveHttp(options, { port: 0 })).rejects.toThrow(hook);
    await expect(createMcpHttpHandler(options)).rejects.toThrow(hook);
    await expect(serveStdio(options)).rejects.toThrow(hook); // before it reads stdin
    const failure = await serveHttp(options, { port: 0 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DeclarationError);
    expect((failure as Error).cause).toBeInstanceOf(Error);
  });

  it('a hook that throws later answers each request with its id and a message naming the hook (the reason goes to the log only)', async () => {
    let calls = 0;
    const configure = () => {
      if (++calls > 1) throw new Error('the secret store is down');
    };
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const handle = await serveHttp({ name: 'late', version: '1', tools: [Hello], configure }, { port: 0 });
    try {
      const post = async (body: object, headers: Record<string, string> = {}) => {
        const response = await fetch(handle.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify(body),
        });
        return { status: response.status, body: await response.json() };
      };
      const expected = {
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32603, message: "Internal error: the server's 'configure' hook failed; the server's log says why." },
      };
      expect(await post(rawInitialize(7))).toEqual({ status: 500, body: expected });
      const modern = { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: MODERN_ENVELOPE } };
      expect(await post(modern, modernHeaders('tools/list'))).toEqual({ status: 500, body: expected });
      await expect(connect(handle.url)).rejects.toThrow("the server's 'configure' hook failed");
      const lines = logged.mock.calls.map((call) => call.map(String).join(' '));
      expect(lines.some((line) => line.includes("'configure' hook threw: the secret store is down"))).toBe(true);
    } finally {
      logged.mockRestore();
      await handle.close();
    }
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
