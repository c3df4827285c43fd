/**
 * Resource templates read over MCP with toolwright's own RFC 6570 matcher, on both revisions (the
 * SDK 2.x Client, negotiating 2025-11-25 and pinned to 2026-07-28, over HTTP): every form the
 * resources guide lists arrives as its contract says (an exploded variable a list, even of one;
 * `{var:3}` as `var`; `{;x,y}` by name; `{#frag}` without its `#`), a URI built to make a
 * backtracking matcher run for minutes answers resource-not-found at once (also against a template
 * the caller may not see), and `..` in a variable, percent-encoded or not, is refused.
 */
import 'reflect-metadata';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Expects, Integer, ResourceTemplate } from 'toolwright';
import { McpHttpHandle, serveHttp } from 'toolwright/mcp';
import { v2Client, scopedTokens } from '../../helpers/mcp';

/** Each template answers the variables it was given, as JSON. */
class Echo {
  call(input: unknown): unknown {
    return input;
  }
}

@ResourceTemplate('files://docs{/path*}', { name: 'docs' })
class Docs extends Echo {}

@ResourceTemplate('codes://{var:3}', { name: 'code' })
class Code extends Echo {}

@ResourceTemplate('grid://m{;x,y}', { name: 'grid' })
@Expects({ x: Integer, y: Integer })
class Grid extends Echo {}

@ResourceTemplate('pages://doc{#frag}', { name: 'page' })
class Page extends Echo {}

@ResourceTemplate('search://s{?q,tags*}', { name: 'search' })
@Expects({ q: { type: String, optional: true }, tags: [String] })
class Search extends Echo {}

@ResourceTemplate('repo://{+owner}/{+repo}/{+path}.md', { name: 'repo' })
class Repo extends Echo {}

@ResourceTemplate('vault://{+owner}/{+repo}/{+path}.md', { name: 'vault', adapters: { mcp: { scopes: ['keeper'] } } })
class Vault extends Echo {}

const auth = scopedTokens({ reader: [], keeper: ['keeper'] });

let handle: McpHttpHandle;
const open: Array<{ close(): Promise<void> }> = [];
beforeAll(async () => {
  handle = await serveHttp(
    { name: 'templates', version: '1.0.0', tools: [], resources: [Docs, Code, Grid, Page, Search, Repo, Vault], prompts: [], completions: [] },
    { port: 0, auth },
  );
});
afterAll(async () => {
  await Promise.all(open.map((client) => client.close().catch(() => undefined)));
  await handle.close();
});

/** A client on each revision, with this token. */
async function clients(token = 'reader') {
  const out = [];
  for (const mode of ['legacy', 'pin'] as const) {
    const client = v2Client(`templates-${mode}`, mode);
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    open.push(client);
    out.push(client);
  }
  return out;
}

type Reader = Awaited<ReturnType<typeof clients>>[number];
const read = async (client: Reader, uri: string) => JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text);

async function refusal(request: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await request;
  } catch (error) {
    const { code, message, data } = error as { code: number; message: string; data?: unknown };
    return { code, message, data };
  }
  throw new Error('expected the request to be refused');
}

describe('resource templates over MCP: every form arrives as declared', () => {
  it("reads the guide's files://docs{/path*} with one segment and two, always a list; none is an empty list, which a required one refuses", async () => {
    for (const client of await clients()) {
      expect(await read(client, 'files://docs/guide')).toEqual({ path: ['guide'] });
      expect(await read(client, 'files://docs/guide/intro.md')).toEqual({ path: ['guide', 'intro.md'] });
      expect(await read(client, 'files://docs/a%20b/%C3%A9')).toEqual({ path: ['a b', 'é'] });
      const refused = await refusal(client.readResource({ uri: 'files://docs' }));
      expect(refused).toEqual({ code: -32602, message: 'Invalid URI variables for docs: path: path should not be empty', data: { fieldErrors: [{ field: 'path', message: 'path should not be empty' }] } });
    }
  });

  it('{var:3} arrives as var, {;x,y} by name and coerced, {#frag} without its #, {?tags*} of one value as a list', async () => {
    for (const client of await clients()) {
      expect(await read(client, 'codes://abc')).toEqual({ var: 'abc' });
      expect(await read(client, 'grid://m;y=768;x=1024')).toEqual({ x: 1024, y: 768 });
      expect(await read(client, 'pages://doc#intro')).toEqual({ frag: 'intro' });
      expect(await read(client, 'search://s?tags=red')).toEqual({ tags: ['red'] });
      expect(await read(client, 'search://s?q=dune&tags=red&tags=blue')).toEqual({ q: 'dune', tags: ['red', 'blue'] });
      expect(await read(client, 'repo://acme/site/docs/v1.2/intro.md')).toEqual({ owner: 'acme', repo: 'site', path: 'docs/v1.2/intro' });
    }
  });

  it('a URI the template cannot have made (longer than the prefix, an unknown name) is resource-not-found', async () => {
    for (const client of await clients()) {
      for (const uri of ['codes://abcd', 'search://s?other=1', 'grid://m;x=1;x=2']) {
        expect(await refusal(client.readResource({ uri }))).toEqual({ code: -32602, message: expect.stringContaining(`Resource not found: ${uri}`), data: { uri } });
      }
    }
  });
});

describe('resource templates over MCP: hostile URIs', () => {
  // The SDK's regex for the repo template, ^repo://(.+)/(.+)/(.+)\.md$, takes about 10 s for 2,000
  // slashes and grows with their cube: this one blocked the event loop for minutes.
  const hostile = (scheme: string) => `${scheme}://${'/'.repeat(8_000)}x`;

  it("answers the finding's URI at once with resource-not-found, the same against a template the caller may not see", async () => {
    for (const client of await clients()) {
      for (const uri of [hostile('repo'), hostile('vault'), 'vault://acme/site/intro.md']) {
        expect(await refusal(client.readResource({ uri }))).toEqual({ code: -32602, message: expect.stringContaining(`Resource not found: ${uri}`), data: { uri } });
      }
    }
    const [keeper] = await clients('keeper');
    expect(await read(keeper, 'vault://acme/site/intro.md')).toEqual({ owner: 'acme', repo: 'site', path: 'intro' });
  });

  it("refuses a '..' segment in a variable, percent-encoded or not, with -32602 naming it", async () => {
    for (const client of await clients()) {
      for (const uri of ['files://docs/%2e%2e%2fsecret', 'files://docs/%2E%2E/secret', 'files://docs/../secret', 'repo://acme/site/a/../../etc/passwd.md']) {
        const refused = await refusal(client.readResource({ uri }));
        expect(refused.code).toBe(-32602);
        expect(refused.message).toMatch(/^Invalid URI variables for (docs|repo): (path): must not hold a '\.\.' path segment/);
        expect(refused.data).toEqual({ fieldErrors: [{ field: 'path', message: expect.stringContaining("'..'") }] });
      }
      // A hidden template answers as an unknown one, whatever its variables hold.
      const uri = 'vault://acme/site/%2e%2e%2f.md';
      expect(await refusal(client.readResource({ uri }))).toEqual({ code: -32602, message: expect.stringContaining(`Resource not found: ${uri}`), data: { uri } });
    }
  });
});
