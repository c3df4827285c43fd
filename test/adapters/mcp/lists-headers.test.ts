/**
 * Lists, headers and icons on both MCP revisions: `ttlMs`/`cacheScope` on 2026-07-28 `tools/list`
 * (`listCache`) and `resources/read` (a resource's `cache`, the server's `readCache`), `Mcp-Method`/`Mcp-Name` checked against the body, tool-declared `Mcp-Param-*`
 * headers (the 2.x Client mirrors them, the endpoint refuses a mismatch), and icons and titles in
 * `tools/list` of both revisions.
 */
import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { DeclarationError, Expects, Field, Resource, ResourceTemplate, Tool } from 'toolwright';
import { createMcpServer, McpHttpHandle, serveHttp } from 'toolwright/mcp';

class ForecastInput {
  @Field({ description: 'Where' })
  region!: string;

  @Field({ description: 'In degrees Celsius' })
  metric!: boolean;
}

@Tool({
  name: 'forecast',
  title: 'Weather forecast',
  description: 'The weather ahead',
  adapters: {
    mcp: {
      headers: { region: 'Region', metric: 'Metric' },
      icons: [{ src: 'https://example.com/sun.png', mimeType: 'image/png', sizes: ['48x48'] }, { src: 'data:image/svg+xml;base64,PHN2Zz4=' }],
    },
  },
})
@Expects(ForecastInput)
class Forecast {
  static calls = 0;

  call(input: ForecastInput): string {
    Forecast.calls++;
    return `${input.region}: sunny, ${input.metric ? '25 °C' : '77 °F'}`;
  }
}

@Tool({ name: 'admin_only', description: 'Scoped', adapters: { mcp: { scopes: ['admin'] } } })
class AdminOnly {
  call(): string {
    return 'ok';
  }
}

@Resource('docs://policy', { cache: { ttlMs: 300_000, cacheScope: 'public' } })
class Policy {
  call(): string {
    return 'the policy';
  }
}

@Resource('docs://mine', { cache: { ttlMs: 5_000 } })
class Mine {
  call(): string {
    return 'mine';
  }
}

@Resource('docs://plain')
class Plain {
  call(): string {
    return 'plain';
  }
}

@Resource('docs://secret', { cache: { ttlMs: 1_000, cacheScope: 'public' }, adapters: { mcp: { scopes: ['admin'] } } })
class Secret {
  call(): string {
    return 'secret';
  }
}

@ResourceTemplate('docs://pages/{id}', { cache: { ttlMs: 60_000, cacheScope: 'public' } })
class Page {
  call({ id }: { id: string }): string {
    return `page ${id}`;
  }
}

const MODERN = '2026-07-28';

/** A raw 2026-07-28 request: the envelope in `_meta` and the standard headers, as a conforming client sends them. */
async function modern(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { result?: Record<string, unknown>; error?: { code: number; message: string } } }> {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...name,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  const text = await response.text();
  const json = text.startsWith('{') ? text : (text.split('\n').find((line) => line.startsWith('data: {')) ?? 'data: {}').slice(6);
  return { status: response.status, body: JSON.parse(json) };
}

const handles: McpHttpHandle[] = [];
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await Promise.all(handles.map((handle) => handle.close()));
});

async function serve(...args: Parameters<typeof serveHttp>): Promise<McpHttpHandle> {
  const handle = await serveHttp(args[0], { port: 0, ...args[1] });
  handles.push(handle);
  return handle;
}

async function client(url: string, pinned: boolean): Promise<Client> {
  const connected = new Client({ name: 'lists', version: '1' }, pinned ? { versionNegotiation: { mode: { pin: MODERN } } } : {});
  await connected.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(connected);
  return connected;
}

describe('tools/list cache fields (2026-07-28)', () => {
  it('default: a minute, public when no tool declares scopes, private when one does; 2025-11-25 answers carry neither', async () => {
    const open = await serve({ name: 'open', version: '1', tools: [Forecast] });
    const scoped = await serve({ name: 'scoped', version: '1', tools: [Forecast, AdminOnly] });
    expect((await modern(open.url, 'tools/list')).body.result).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    expect((await modern(scoped.url, 'tools/list')).body.result).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    const legacy = await client(open.url, false);
    const listed = await legacy.request({ method: 'tools/list', params: {} });
    expect(listed).not.toHaveProperty('ttlMs');
    expect(listed).not.toHaveProperty('cacheScope');
  });

  it('listCache sets both, and a tool added at run time makes the default scope private', async () => {
    const set = await serve({ name: 'set', version: '1', tools: [AdminOnly], listCache: { ttlMs: 0, cacheScope: 'public' } });
    expect((await modern(set.url, 'tools/list')).body.result).toMatchObject({ ttlMs: 0, cacheScope: 'public' });
    const live = await serve({ name: 'live', version: '1', tools: [Forecast] });
    live.tools.add(AdminOnly);
    expect((await modern(live.url, 'tools/list')).body.result).toMatchObject({ cacheScope: 'private' });
  });

  it('refuses a bad listCache, naming the option and the fix', () => {
    const make = (listCache: unknown) => () => createMcpServer({ name: 'x', version: '1', tools: [Forecast], listCache: listCache as never });
    expect(make({ ttlMs: -1 })).toThrow('createMcpServer: listCache.ttlMs must be a whole number of milliseconds of at least 0; got -1.');
    expect(make({ cacheScope: 'shared' })).toThrow("createMcpServer: listCache.cacheScope must be 'public' or 'private'; got 'shared'.");
    expect(make({ ttl: 5 })).toThrow('createMcpServer: listCache has unknown option(s) ttl; known: ttlMs, cacheScope.');
    expect(make(60)).toThrow('createMcpServer: listCache must be { ttlMs?, cacheScope? }');
  });
});

describe('resources/read cache fields (2026-07-28)', () => {
  const docs = [Policy, Mine, Plain, Secret, Page];
  const fieldsOf = async (url: string, uri: string) => {
    const { result, error } = (await modern(url, 'resources/read', { uri }, { authorization: 'Bearer admin', 'mcp-name': uri })).body;
    if (error) throw new Error(error.message);
    return { ttlMs: result?.ttlMs, cacheScope: result?.cacheScope };
  };
  const admin = { verifyAccessToken: async (token: string) => ({ token, clientId: 'c', scopes: [token], expiresAt: Date.now() / 1000 + 3600 }) };

  it("each resource's own cache, else the server's readCache, else { ttlMs: 0, private }; scopes make any of them private; 2025-11-25 reads carry none", async () => {
    for (const readCache of [undefined, { ttlMs: 30_000, cacheScope: 'public' } as const]) {
      const handle = await serve({ name: 'docs', version: '1', tools: [], resources: docs, ...(readCache ? { readCache } : {}) }, { auth: admin });
      expect(await fieldsOf(handle.url, 'docs://policy')).toEqual({ ttlMs: 300_000, cacheScope: 'public' });
      expect(await fieldsOf(handle.url, 'docs://pages/7')).toEqual({ ttlMs: 60_000, cacheScope: 'public' });
      // Its own rule is whole: private unless it says public, whatever the server's.
      expect(await fieldsOf(handle.url, 'docs://mine')).toEqual({ ttlMs: 5_000, cacheScope: 'private' });
      expect(await fieldsOf(handle.url, 'docs://plain')).toEqual(readCache ?? { ttlMs: 0, cacheScope: 'private' });
      // Declared public, but what it reads depends on who may see it: never in a shared cache.
      expect(await fieldsOf(handle.url, 'docs://secret')).toEqual({ ttlMs: 1_000, cacheScope: 'private' });
    }
    const plain = await serve({ name: 'docs', version: '1', tools: [], resources: docs });
    const modernClient = await client(plain.url, true);
    expect(await modernClient.readResource({ uri: 'docs://policy' })).toMatchObject({ ttlMs: 300_000, cacheScope: 'public' });
    const legacy = await client(plain.url, false);
    const read = await legacy.request({ method: 'resources/read', params: { uri: 'docs://policy' } });
    expect(read).toMatchObject({ contents: [{ uri: 'docs://policy', text: 'the policy' }] });
    expect(read).not.toHaveProperty('ttlMs');
    expect(read).not.toHaveProperty('cacheScope');
  });

  it('a server with a visible rule reads everything as private, and refuses a public readCache', async () => {
    const ruled = await serve({ name: 'ruled', version: '1', tools: [], resources: docs, visible: () => true });
    expect(await fieldsOf(ruled.url, 'docs://policy')).toEqual({ ttlMs: 300_000, cacheScope: 'private' });
    expect(() => createMcpServer({ name: 'x', version: '1', resources: docs, visible: () => true, readCache: { cacheScope: 'public' } })).toThrow(
      "createMcpServer: readCache.cacheScope is 'public', and the server has a visible rule: its answers differ per caller, so a shared cache must not keep them. Leave cacheScope out (it is then 'private').",
    );
  });

  it("refuses a bad cache option at declaration and a bad readCache at start, naming the option and the fix", () => {
    const declare = (cache: unknown) => () => Resource('docs://bad', { cache: cache as never })(class Bad {});
    expect(declare({ ttlMs: -1 })).toThrow('Bad: @Resource option cache.ttlMs must be a whole number of milliseconds of at least 0; got -1.');
    expect(declare({ cacheScope: 'public' })).toThrow('Bad: @Resource option cache.ttlMs must be a whole number of milliseconds of at least 0; got undefined.');
    expect(declare({ ttlMs: 1, cacheScope: 'shared' })).toThrow("Bad: @Resource option cache.cacheScope must be 'public' or 'private'; got 'shared'.");
    expect(declare({ ttlMs: 1, scope: 'public' })).toThrow('Bad: @Resource option cache has unknown option(s) scope; known: ttlMs, cacheScope.');
    expect(declare(60)).toThrow(DeclarationError);
    expect(declare(60)).toThrow("Bad: @Resource option cache must be { ttlMs, cacheScope? }, e.g. { ttlMs: 300000, cacheScope: 'public' }; got 60.");
    expect(() => ResourceTemplate('docs://bad/{id}', { cache: { ttlMs: 1.5 } })(class BadPage {})).toThrow(
      'BadPage: @ResourceTemplate option cache.ttlMs must be a whole number of milliseconds of at least 0; got 1.5.',
    );
    const make = (readCache: unknown) => () => createMcpServer({ name: 'x', version: '1', resources: docs, readCache: readCache as never });
    expect(make({ ttlMs: -1 })).toThrow('createMcpServer: readCache.ttlMs must be a whole number of milliseconds of at least 0; got -1.');
    expect(make({ cacheScope: 'everyone' })).toThrow("createMcpServer: readCache.cacheScope must be 'public' or 'private'; got 'everyone'.");
    expect(make('public')).toThrow("createMcpServer: readCache must be { ttlMs?, cacheScope? }, e.g. { ttlMs: 60000 }; got 'public'.");
  });
});

describe('standard headers (2026-07-28)', () => {
  it('answers 400 / -32020 when Mcp-Method or Mcp-Name disagrees with the body, and serves the same request when they agree', async () => {
    const handle = await serve({ name: 'std', version: '1', tools: [Forecast] });
    expect((await modern(handle.url, 'tools/list')).status).toBe(200);
    const method = await modern(handle.url, 'tools/list', {}, { 'mcp-method': 'tools/call' });
    expect(method.status).toBe(400);
    expect(method.body.error?.code).toBe(-32020);
    const call = { name: 'forecast', arguments: { region: 'north', metric: false } };
    const name = await modern(handle.url, 'tools/call', call, { 'mcp-name': 'other', 'mcp-param-region': 'north', 'mcp-param-metric': 'false' });
    expect(name.status).toBe(400);
    expect(name.body.error?.code).toBe(-32020);
  });
});

describe('a malformed tools/call (2026-07-28)', () => {
  it('is answered with the same one-line -32602 as on 2025-11-25', async () => {
    const handle = await serve({ name: 'malformed', version: '1', tools: [AdminOnly] });
    const refused = await modern(handle.url, 'tools/call', { name: 'admin_only', arguments: [1, 2] });
    expect(refused.body.error).toEqual({ code: -32602, message: 'Invalid tools/call request: arguments must be an object of named arguments, not an array.' });
  });
});

describe('Mcp-Param-* headers a tool declares', () => {
  it('are declared with x-mcp-header in both revisions; the 2.x Client mirrors them and the call is served', async () => {
    const handle = await serve({ name: 'params', version: '1', tools: [Forecast] });
    for (const pinned of [false, true]) {
      const connected = await client(handle.url, pinned);
      const [tool] = (await connected.listTools()).tools;
      expect(tool.inputSchema.properties).toMatchObject({ region: { type: 'string', 'x-mcp-header': 'Region' }, metric: { type: 'boolean', 'x-mcp-header': 'Metric' } });
      const result = await connected.callTool({ name: 'forecast', arguments: { region: 'Zürich Nord', metric: true } });
      expect(result.content).toEqual([{ type: 'text', text: 'Zürich Nord: sunny, 25 °C' }]);
    }
  });

  it('a call whose header is missing or disagrees with its body is refused with 400 / -32020, before the tool runs', async () => {
    const handle = await serve({ name: 'params', version: '1', tools: [Forecast] });
    const call = { name: 'forecast', arguments: { region: 'north', metric: false } };
    expect((await modern(handle.url, 'tools/call', call, { 'mcp-param-region': 'north', 'mcp-param-metric': 'false' })).status).toBe(200);
    const ran = Forecast.calls;
    const wrong: Array<Record<string, string>> = [{ 'mcp-param-region': 'south', 'mcp-param-metric': 'false' }, { 'mcp-param-metric': 'false' }, { 'mcp-param-region': 'north', 'mcp-param-metric': 'true' }];
    for (const headers of wrong) {
      const refused = await modern(handle.url, 'tools/call', call, headers);
      expect({ headers, status: refused.status, code: refused.body.error?.code }).toEqual({ headers, status: 400, code: -32020 });
    }
    expect(Forecast.calls).toBe(ran);
  });

  it('are checked at enumeration: an unknown field, a non-primitive field; and at decoration: a bad or repeated header name', () => {
    class Nested {
      @Field({ description: 'a place' })
      city!: string;
    }
    class Input {
      @Field({ description: 'tags', type: () => [String] })
      tags!: string[];

      @Field({ description: 'a ratio' })
      ratio!: number;

      @Field({ description: 'nested', type: () => Nested })
      where!: Nested;
    }
    const serveWith = (headers: Record<string, string>) => {
      @Tool({ name: 'h', description: 'h', adapters: { mcp: { headers } } })
      @Expects(Input)
      class H {
        call(): string {
          return '';
        }
      }
      return () => createMcpServer({ name: 'x', version: '1', tools: [H] });
    };
    expect(serveWith({ missing: 'Missing' })).toThrow(
      "H: @Tool({ adapters: { mcp: { headers } } }) names the input field 'missing', which the tool's input does not have at its top level. Name one of 'tags', 'ratio', 'where', or drop it.",
    );
    expect(serveWith({ tags: 'Tags' })).toThrow(
      "mirrors 'tags' into the Mcp-Param-Tags header, and a header carries only a string, an integer or a boolean (SEP-2243; clients drop a tool that mirrors anything else); 'tags' is of type array. Mirror such a field, or drop it.",
    );
    expect(serveWith({ ratio: 'Ratio' })).toThrow("'ratio' is of type number.");
    expect(serveWith({ where: 'Where' })).toThrow("'where' is of type object.");
    expect(() => serveWith({ tags: 'Bad Name' })).toThrow(/maps 'tags' to 'Bad Name', which is not an HTTP header name/);
    expect(() => serveWith({ tags: 'Tag', where: 'tag' })).toThrow("maps 'tags' and 'where' to the same header 'tag' (header names ignore case)");
  });
});

describe('icons and titles', () => {
  it('are in tools/list in both revisions', async () => {
    const handle = await serve({ name: 'icons', version: '1', tools: [Forecast] });
    for (const pinned of [false, true]) {
      const [tool] = (await (await client(handle.url, pinned)).listTools()).tools;
      expect(tool).toMatchObject({
        title: 'Weather forecast',
        icons: [{ src: 'https://example.com/sun.png', mimeType: 'image/png', sizes: ['48x48'] }, { src: 'data:image/svg+xml;base64,PHN2Zz4=' }],
      });
    }
  });

  it('are checked at decoration: an icon must be an https: or data: URL', () => {
    const decorate = (icons: unknown) => () => {
      @Tool({ name: 'i', description: 'i', adapters: { mcp: { icons: icons as never } } })
      class I {
        call(): string {
          return '';
        }
      }
      return I;
    };
    expect(decorate([{ src: 'http://example.com/a.png' }])).toThrow(/icons\[0\]\.src must be an https: or data: URL/);
    expect(decorate([{ src: 'file:///etc/passwd' }])).toThrow(/must be an https: or data: URL/);
    expect(decorate([{ src: 'https://example.com/a.png', sizes: ['big'] }])).toThrow(/icons\[0\]\.sizes must be a list such as \['48x48'\]/);
    expect(decorate([{ url: 'https://example.com/a.png' }])).toThrow(/icons\[0\] has unknown key\(s\) url/);
    expect(decorate([])).toThrow(/icons must be a non-empty list of icons/);
    expect(decorate([{ src: 'https://example.com/a.png', theme: 'dark' }])).not.toThrow();
  });
});
