/**
 * Command-line stumbles, each run as a user meets it (the built bin in a child process): the
 * toolwright.config.js example of the command-line guide (docs/guide/command-line.md) as it
 * stands, ambient values for `call` and `serve http` (--ambient, and the config's
 * serve.http.server ambientContext), and `dev` reporting only a real
 * failure of its server, seeing a change made as soon as it says it is watching, and exiting when
 * its server fails before there is anything to watch.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bin, buildPackage, fixtureCopy, removeBuild, repo, restarted, startUntil, stop, toolwright, until } from './harness';
import { markedBlock } from '../helpers/markdown-blocks';

let home: string;
const fixture = (name: string) => path.join(home, 'fixtures', name);

beforeAll(() => {
  home = buildPackage();
}, 120_000);

afterAll(() => removeBuild());

/** The block after `<!-- config: toolwright.config.js -->` in docs/guide/command-line.md. */
const guideConfig = (): string => markedBlock(path.join('docs', 'guide', 'command-line.md'), 'config: toolwright.config.js', 'js');

describe("the command-line guide's toolwright.config.js example", () => {
  it('is accepted as it stands: its imports, its tool root, its server options (exit 0)', async () => {
    const dir = fs.mkdtempSync(path.join(fixture('.'), 'guide-config-'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'guide-config', version: '1.0.0', private: true }));
    fs.writeFileSync(path.join(dir, 'toolwright.config.js'), guideConfig());
    fs.mkdirSync(path.join(dir, 'src', 'tools'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'src', 'agent_tools'));
    const tool = (name: string) =>
      `const { Tool } = require('toolwright');\nclass ${name} { call() { return {}; } }\nTool({ description: '${name}' })(${name});\nmodule.exports = { ${name} };\n`;
    fs.writeFileSync(path.join(dir, 'src', 'tools', 'index.js'), tool('Listed'));
    fs.writeFileSync(path.join(dir, 'src', 'agent_tools', 'rooted.js'), tool('Rooted'));
    fs.writeFileSync(path.join(dir, 'src', 'mcp-server.js'), "exports.options = { name: 'readme', version: '1.0.0' };\n");
    fs.writeFileSync(path.join(dir, 'src', 'http-api.js'), 'exports.options = {};\n');
    const listed = await toolwright(['list', '--json', '--adapter', 'mcp'], { cwd: dir });
    expect([listed.code, listed.stderr]).toEqual([0, '']);
    expect(JSON.parse(listed.stdout).map((entry: { name: string }) => entry.name)).toEqual(['listed', 'rooted']);

    // The root the example used to show is refused, and the message names the config key.
    fs.renameSync(path.join(dir, 'src', 'agent_tools'), path.join(dir, 'src', 'actions'));
    fs.writeFileSync(path.join(dir, 'toolwright.config.js'), guideConfig().replace('./src/agent_tools', './src/actions'));
    const refused = await toolwright(['list'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^toolwright: toolwright\.config\.js: toolRoots\.mcp: Tool root '.*actions' for 'mcp' is too broad: 'actions' holds a whole application/);
  });
});

describe('toolwright.config.js written for the other module system', () => {
  it("module.exports under \"type\": \"module\" names both fixes (exit 2), and export default loads; export default in CommonJS the same", async () => {
    const esm = fixtureCopy('esm');
    fs.rmSync(path.join(esm, 'toolwright.config.mjs'));
    fs.writeFileSync(path.join(esm, 'toolwright.config.js'), "module.exports = { import: ['./tools.js'], adapters: ['mcp'] };\n");
    const cjs = fixtureCopy('cjs');
    fs.rmSync(path.join(cjs, 'toolwright.config.cjs'));
    fs.writeFileSync(path.join(cjs, 'toolwright.config.js'), "export default { import: ['./tools'], adapters: ['mcp'] };\n");
    const [refused, reversed] = await Promise.all([toolwright(['list'], { cwd: esm }), toolwright(['list'], { cwd: cjs })]);
    expect([refused.code, refused.stderr]).toEqual([
      2,
      'toolwright: could not read toolwright.config.js: module is not defined in ES module scope. toolwright.config.js is loaded as an ES module ' +
        '(package.json has "type": "module"), where module.exports does not exist: rename it to toolwright.config.cjs, or write ' +
        'export default { … } instead of module.exports = { … }.\n',
    ]);
    // Node may warn first ("To load an ES module, set \"type\": \"module\"…"); the command's line is the last.
    expect([reversed.code, reversed.stderr.trim().split('\n').pop() + '\n']).toEqual([
      2,
      "toolwright: could not read toolwright.config.js: Unexpected token 'export'. toolwright.config.js is loaded as CommonJS " +
        '(package.json has no "type": "module"), where export does not exist: rename it to toolwright.config.mjs, or write ' +
        'module.exports = { … } instead of export default { … }.\n',
    ]);

    fs.writeFileSync(path.join(esm, 'toolwright.config.js'), "export default { import: ['./tools.js'], adapters: ['mcp'] };\n");
    const listed = await toolwright(['list', '--json'], { cwd: esm });
    expect([listed.code, listed.stderr]).toEqual([0, '']);
    expect(JSON.parse(listed.stdout).length).toBeGreaterThan(0);
  });
});

const AMBIENT_HOW = `pass it with --ambient '{"userId": …}'`;

describe('ambient values on the command line', () => {
  it("call: a missing one names --ambient (exit 2); --ambient '{…}' supplies it", async () => {
    const cwd = fixture('http-ambient');
    const [missing, given, malformed] = await Promise.all([
      toolwright(['call', 'whoami', '--args', '{"name": "Ada"}'], { cwd }),
      toolwright(['call', 'whoami', '--args', '{"name": "Ada"}', '--ambient', '{"userId": "u1"}'], { cwd }),
      toolwright(['call', 'whoami', '--args', '{"name": "Ada"}', '--ambient', '["u1"]'], { cwd }),
    ]);
    expect([missing.code, missing.stderr]).toEqual([2, `toolwright: whoami needs the ambient value 'userId' (WhoamiInput.userId), and none was given: ${AMBIENT_HOW}.\n`]);
    expect([given.code, JSON.parse(given.stdout)]).toEqual([0, { userId: 'u1', greeting: 'hello Ada' }]);
    expect([malformed.code, malformed.stderr]).toEqual([2, `toolwright: --ambient must be a JSON object such as '{"userId": "u1"}'.\n`]);
  });

  it("serve http: the config's ambientContext, --ambient, and a clear 500 problem naming the field and the flag when neither gives it", async () => {
    const cwd = fixture('http-ambient');
    const call = (url: string, headers: Record<string, string> = {}) =>
      fetch(`${url}/whoami/v1`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"name": "Ada"}' }).then(async (response) => ({
        status: response.status,
        type: response.headers.get('content-type'),
        body: await response.json(),
      }));
    const bare = await startUntil(['serve', 'http', '--port', '0'], cwd, /on (http:\/\/\S+) /);
    try {
      expect(bare.match[1]).toMatch(/\/v1$/); // serve.http.prefix
      expect(await call(bare.match[1], { 'x-user': 'u7' })).toEqual({ status: 200, type: 'application/json; charset=utf-8', body: { userId: 'u7', greeting: 'hello Ada' } });
      expect(await call(bare.match[1])).toEqual({
        status: 500,
        type: 'application/problem+json; charset=utf-8',
        body: {
          type: 'about:blank',
          title: 'Internal Server Error',
          status: 500,
          detail: `whoami needs the ambient value 'userId' (WhoamiInput.userId), and none was given: start the server with --ambient '{"userId": …}', or return it from serve.http.server's ambientContext.`,
          instance: '/v1/whoami/v1',
        },
      });
    } finally {
      await stop(bare.child);
    }
    const flagged = await startUntil(['serve', 'http', '--port', '0', '--ambient', '{"userId": "dev"}'], cwd, /on (http:\/\/\S+) /);
    try {
      expect((await call(flagged.match[1])).body).toEqual({ userId: 'dev', greeting: 'hello Ada' });
      // The configured function's values are per request, and win.
      expect((await call(flagged.match[1], { 'x-user': 'u7' })).body).toEqual({ userId: 'u7', greeting: 'hello Ada' });
      // A Host that is not a loopback name is refused, as serveHttpApi refuses it.
      // (fetch never sends another Host, so node:http does.)
      const rebound = await new Promise<number | undefined>((resolve, reject) => {
        const request = http.request(`${flagged.match[1]}/whoami/v1`, { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json' } }, (response) => {
          response.resume();
          resolve(response.statusCode);
        });
        request.on('error', reject);
        request.end('{"name": "Ada"}');
      });
      expect(rebound).toBe(403);
    } finally {
      await stop(flagged.child);
    }
  }, 30_000);
});

describe('serve mcp --ambient', () => {
  it('gives the tools its values over MCP, and a malformed one is refused before anything loads (exit 2)', async () => {
    const cwd = fs.mkdtempSync(path.join(fixture('.'), 'mcp-ambient-'));
    fs.writeFileSync(path.join(cwd, 'package.json'), JSON.stringify({ name: 'mcp-ambient', version: '1.0.0', private: true }));
    fs.writeFileSync(path.join(cwd, 'toolwright.config.json'), JSON.stringify({ import: ['./tools.js'], adapters: ['mcp'] }));
    fs.writeFileSync(
      path.join(cwd, 'tools.js'),
      [
        "const { Expects, Exposes, Tool } = require('toolwright');",
        'class Echo { call(input) { return { text: input.text, by: input.userId }; } }',
        "Tool('mcp')(Echo);",
        'Expects({ text: String, userId: { type: String, ambient: true } })(Echo);',
        'Exposes({ text: String, by: String })(Echo);',
        'module.exports = { Echo };',
        '',
      ].join('\n'),
    );
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin(), 'serve', 'mcp', '--stdio', '--ambient', '{"userId": "u9"}'], cwd, stderr: 'pipe' }));
    try {
      const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      expect(result.structuredContent).toEqual({ text: 'hi', by: 'u9' });
    } finally {
      await client.close();
    }
    // Without --ambient, the call fails, and the server's stderr says how this server gets the value.
    const bare = new StdioClientTransport({ command: process.execPath, args: [bin(), 'serve', 'mcp', '--stdio'], cwd, stderr: 'pipe' });
    let stderr = '';
    bare.stderr!.on('data', (chunk) => (stderr += chunk));
    const unconfigured = new Client({ name: 'cli-test', version: '1.0.0' });
    await unconfigured.connect(bare);
    try {
      expect((await unconfigured.callTool({ name: 'echo', arguments: { text: 'hi' } })).isError).toBe(true);
      await until(() => stderr, /needs the ambient value/);
      expect(stderr).toContain(
        "toolwright: echo needs the ambient value 'userId' (EchoInput.userId), and none was given: start the server with --ambient " +
          `'{"userId": …}', or return it from the ambientContext(request) of serve.mcp.server (the createMcpServer option that reads each request's authInfo or headers).\n`,
      );
      expect(stderr).not.toContain('invoke(');
    } finally {
      await unconfigured.close();
    }
    const malformed = await toolwright(['serve', 'mcp', '--stdio', '--ambient', 'u9'], { cwd });
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/^toolwright: --ambient is not valid JSON \(.*\): pass an object such as '\{"userId": "u1"\}'\.\n$/);
  });
});

describe('a config that names no adapters', () => {
  it('lists and calls the tools that name none, as serve mcp serves them: mcp is the one default', async () => {
    const cwd = fs.mkdtempSync(path.join(fixture('.'), 'no-adapters-'));
    fs.writeFileSync(path.join(cwd, 'package.json'), JSON.stringify({ name: 'no-adapters', version: '1.0.0', private: true }));
    fs.writeFileSync(path.join(cwd, 'toolwright.config.json'), JSON.stringify({ import: ['./tools.js'] }));
    fs.writeFileSync(
      path.join(cwd, 'tools.js'),
      "const { Expects, Tool } = require('toolwright');\nclass Ping { call(input) { return { pong: input.text }; } }\nTool({ description: 'Answers' })(Ping);\nExpects({ text: String })(Ping);\nmodule.exports = { Ping };\n",
    );
    const [listed, called] = await Promise.all([
      toolwright(['list', '--json'], { cwd }),
      toolwright(['call', 'ping', '--args', '{"text": "hi"}'], { cwd }),
    ]);
    expect([listed.code, listed.stderr]).toEqual([0, '']);
    expect(JSON.parse(listed.stdout).map((row: { name: string; adapters: string[] }) => [row.name, row.adapters])).toEqual([['ping', ['mcp']]]);
    expect([called.code, JSON.parse(called.stdout)]).toEqual([0, { pong: 'hi' }]);
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin(), 'serve', 'mcp', '--stdio'], cwd, stderr: 'pipe' }));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['ping']);
    } finally {
      await client.close();
    }
  });
});

describe('dev', () => {
  it('says the server stopped only when it failed, and restarts when the error is fixed', async () => {
    const dir = fixtureCopy('cjs');
    const tools = path.join(dir, 'tools.js');
    const good = fs.readFileSync(tools, 'utf8');
    const { child, output } = await startUntil(['dev'], dir, /serving .* on http/);
    try {
      fs.writeFileSync(tools, `${good}\nthis is not JavaScript;\n`);
      await until(output, /the server stopped \(exit 2\); fix the error and save a file to restart/);
      fs.writeFileSync(tools, good);
      await until(output, /(serving .* on http[\s\S]*){2}/);
      expect(output().match(/the server (stopped|exited)/g)).toEqual(['the server stopped']);
    } finally {
      await stop(child);
    }
  }, 30_000);

  it('sees one change made as soon as it says it is watching', async () => {
    const dir = fixtureCopy('cjs');
    const { child, output } = await startUntil(['dev'], dir, /toolwright dev: watching/);
    try {
      await restarted(output, () => fs.appendFileSync(path.join(dir, 'tools.js'), '// saved\n'));
      expect(output()).toContain('tools.js changed, restarting');
    } finally {
      await stop(child);
    }
  }, 30_000);

  it('exits when its server fails before it reports its files: no save could restart it', async () => {
    const dir = fixtureCopy('cjs');
    fs.appendFileSync(path.join(dir, 'tools.js'), 'this is not JavaScript;\n');
    const ran = await toolwright(['dev'], { cwd: dir });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/^toolwright: .*tools\.js/);
    expect(ran.stderr).toMatch(
      /\ntoolwright dev: the server stopped \(exit 2\) before it loaded the project, so there is nothing to watch; fix the error and run toolwright dev again\n$/,
    );
    expect(ran.stderr).not.toContain('watching');
  }, 30_000);
});
