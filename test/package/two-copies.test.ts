/**
 * Two copies of toolwright in one process, installed as npm installs them: the application's, and
 * one nested under a third-party adapter (node_modules/some-adapter/node_modules/toolwright). They
 * share one catalog, one default registry, one set of extensions and one set of adapter settings,
 * in either load order; a copy of an incompatible version refuses to load, naming both copies.
 * One install of the packed tarball; the nested copies are copies of the installed one.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createProject, packToolwright, run } from './project';

let root: string;
let app: string;

/** A fake third-party adapter package that brings its own copy of toolwright, at `version`. */
function nestedAdapter(name: string, version?: string): string {
  const dir = path.join(app, 'node_modules', name);
  const copy = path.join(dir, 'node_modules', 'toolwright');
  fs.cpSync(path.join(app, 'node_modules', 'toolwright'), copy, { recursive: true });
  if (version !== undefined) {
    const manifest = path.join(copy, 'package.json');
    fs.writeFileSync(manifest, JSON.stringify({ ...JSON.parse(fs.readFileSync(manifest, 'utf8')), version }));
  }
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', main: 'index.js' }));
  fs.writeFileSync(
    path.join(dir, 'index.js'),
    [
      "const toolwright = require('toolwright');",
      "const { Extensions } = require('toolwright/kit');",
      "const { OpenAIConfig, Toolbox } = require('toolwright/openai');",
      'module.exports = {',
      "  toolwright: require.resolve('toolwright'),",
      "  names: () => toolwright.Tools.forAdapter('openai').map((definition) => definition.toolName('openai')),",
      '  hints: () => Extensions.semanticHints(),',
      "  rejectsOpaque: () => OpenAIConfig.get('rejectOpaqueExposedValues'),",
      "  call: (name, args) => new Toolbox(toolwright.Tools.forAdapter('openai')).invoke({ name, arguments: args }),",
      '};',
    ].join('\n'),
  );
  return copy;
}

/** The application: declares a tool with its own copy, then asks the adapter's copy what it sees. */
const APP = [
  "require('reflect-metadata');",
  "const { Tool, Expects } = require('toolwright');",
  "const { Extensions } = require('toolwright/kit');",
  "const { OpenAIConfig } = require('toolwright/openai');",
  'class Greet { call(input) { return { greeting: `hello ${input.who}` }; } }',
  "Tool('openai', { description: 'Greets someone' })(Greet);",
  "Expects({ who: { type: String } })(Greet);",
  "Extensions.registerSemanticHint('openWorld');",
  "OpenAIConfig.set('rejectOpaqueExposedValues', true);",
];

async function node(script: string): Promise<unknown> {
  const file = path.join(app, `script-${Math.random().toString(36).slice(2)}.js`);
  fs.writeFileSync(file, script);
  const { stdout } = await run(process.execPath, [file], app);
  return JSON.parse(stdout);
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-two-copies-'));
  app = await createProject(root, 'app', [
    packToolwright(root),
    'reflect-metadata@^0.2.0',
    'tsyringe@^4.8.0',
    'class-validator@^0.15.0',
    'class-transformer@^0.5.1',
  ]);
  nestedAdapter('some-adapter');
  nestedAdapter('future-adapter', '9.0.0');
}, 300_000);

afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

describe('two copies of the package', () => {
  it('the adapter resolves a copy of its own (the setup is what it claims)', async () => {
    expect(await node("console.log(JSON.stringify([require.resolve('toolwright'), require('some-adapter').toolwright]));")).toEqual([
      path.join(app, 'node_modules', 'toolwright', 'dist', 'index.js'),
      path.join(app, 'node_modules', 'some-adapter', 'node_modules', 'toolwright', 'dist', 'index.js'),
    ]);
  });

  it("the nested copy sees the application's tool, its extensions and its settings, and calls the tool", async () => {
    const seen = await node(
      [
        ...APP,
        "const adapter = require('some-adapter');",
        "adapter.call('greet', { who: 'Ada' }).then((record) => console.log(JSON.stringify({ names: adapter.names(), hints: adapter.hints(), rejectsOpaque: adapter.rejectsOpaque(), output: record.output })));",
      ].join('\n'),
    );
    expect(seen).toEqual({
      names: ['greet'],
      hints: ['readOnly', 'idempotent', 'destructive', 'openWorld'],
      rejectsOpaque: true,
      output: '{"greeting":"hello Ada"}',
    });
  });

  it('in either load order: the adapter (and its copy) first, the application after', async () => {
    const seen = await node(
      ["const adapter = require('some-adapter');", ...APP, 'console.log(JSON.stringify({ names: adapter.names(), rejectsOpaque: adapter.rejectsOpaque() }));'].join('\n'),
    );
    expect(seen).toEqual({ names: ['greet'], rejectsOpaque: true });
  });

  it('a copy of an incompatible version refuses to load, naming both copies and the fix', async () => {
    const seen = (await node(
      [
        "require('toolwright');",
        "try { require('future-adapter'); console.log(JSON.stringify({ loaded: true })); }",
        'catch (error) { console.log(JSON.stringify({ message: error.message })); }',
      ].join('\n'),
    )) as { message: string };
    const version = (JSON.parse(fs.readFileSync(path.join(app, 'node_modules', 'toolwright', 'package.json'), 'utf8')) as { version: string }).version;
    expect(seen.message).toBe(
      `Two incompatible copies of toolwright are loaded in this process: 9.0.0 at ${path.join(app, 'node_modules', 'future-adapter', 'node_modules', 'toolwright')}, ` +
        `and ${version} at ${path.join(app, 'node_modules', 'toolwright')}, loaded first. They cannot share one registry of tools. Install one version: ` +
        'make toolwright a peerDependency of the package that brings its own copy, or align the versions and run `npm dedupe` (`npm ls toolwright` shows both).',
    );
  });
});

describe('toolwright/mcp-client in the packed package', () => {
  it('resolves with require and import, registers nothing, and loads without the MCP SDK installed', async () => {
    const file = path.join(app, 'client.mjs');
    fs.writeFileSync(
      file,
      [
        "import { createRequire } from 'node:module';",
        "import * as esm from 'toolwright/mcp-client';",
        "import { Tools } from 'toolwright';",
        'const require = createRequire(import.meta.url);',
        "const cjs = require('toolwright/mcp-client');",
        "let sdk = 'installed';",
        "try { require.resolve('@modelcontextprotocol/client'); } catch { sdk = 'absent'; }",
        'console.log(JSON.stringify({ same: esm.McpSecurityPolicy === cjs.McpSecurityPolicy && esm.connectMcpServer === cjs.connectMcpServer, adapters: Tools.adapters(), sdk }));',
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, [file], app);
    expect(JSON.parse(stdout)).toEqual({ same: true, adapters: [], sdk: 'absent' });
  });
});
