/**
 * A missing optional peer, as an application meets it: the built package (CommonJS and its ES module
 * wrappers) loaded by a fresh Node process in which a resolver hook hides the named packages, as if
 * they were never installed. Each entry point, and each option that loads another library, names
 * itself, every package it needs, and the `npm install` line for the missing ones, by `require` and by
 * `import` alike. One build, one short Node process per case.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildPackage, removeBuild } from '../cli/harness';
import { run } from './project';

let app: string;

/** Makes `Cannot find module` of the packages in HIDE (and their subpaths), wherever they are required from. */
const HIDE_HOOK = `
const Module = require('node:module');
const hidden = process.env.HIDE.split(',');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (hidden.some((name) => request === name || request.startsWith(name + '/'))) {
    throw Object.assign(new Error("Cannot find module '" + request + "'"), { code: 'MODULE_NOT_FOUND' });
  }
  return resolve.call(this, request, ...rest);
};
`;

beforeAll(() => {
  const home = buildPackage();
  app = path.join(home, 'missing-peers');
  fs.mkdirSync(path.join(app, 'node_modules'), { recursive: true });
  fs.symlinkSync(home, path.join(app, 'node_modules', 'toolwright'), 'dir');
  fs.writeFileSync(path.join(app, 'hide.cjs'), HIDE_HOOK);
}, 120_000);

afterAll(() => removeBuild());

type Loader = 'require' | 'import';

/**
 * Runs `body` (an async function body, with `load(specifier)` to load a module) with `hidden`
 * packages hidden; answers the error it ends with (its name and message), or 'no error'.
 */
async function attempt(loader: Loader, hidden: readonly string[], body: string): Promise<string> {
  const file = path.join(app, `case-${Math.random().toString(36).slice(2)}.${loader === 'require' ? 'cjs' : 'mjs'}`);
  const load = loader === 'require' ? 'async (specifier) => require(specifier)' : '(specifier) => import(specifier)';
  fs.writeFileSync(
    file,
    `const load = ${load};\n` +
      `(async () => {\n${body}\n})().then(() => console.log('no error'), (error) => console.log(error.name + ': ' + error.message));\n`,
  );
  // Node 20 also reports an ES module's failed import of a CommonJS module as uncaught (exit code 1):
  // the outcome is the first line the handler (or Node) prints either way.
  const output = await run(process.execPath, ['--require', './hide.cjs', file], app, { HIDE: hidden.join(',') }).then(
    ({ stdout }) => stdout,
    (error: Error) => error.message,
  );
  return /^(?:\w+: .*|no error)$/m.exec(output)?.[0] ?? output;
}

describe.each<Loader>(['require', 'import'])('a missing peer, by %s', (loader) => {
  it.each([
    ['toolwright/mcp', ['@modelcontextprotocol/server'], 'toolwright/mcp needs @modelcontextprotocol/server', 'npm install @modelcontextprotocol/server'],
    ['toolwright/queue', ['bullmq'], 'toolwright/queue needs bullmq and ioredis, and bullmq is not installed', 'npm install bullmq.'],
    ['toolwright/ai', ['ai'], 'toolwright/ai needs ai', 'npm install ai'],
    ['toolwright/langchain', ['@langchain/core'], 'toolwright/langchain needs @langchain/core', 'npm install @langchain/core'],
    ['toolwright/agents', ['@openai/agents'], 'toolwright/agents needs @openai/agents', 'npm install @openai/agents'],
    ['toolwright/nest', ['@nestjs/core'], 'toolwright/nest needs @nestjs/common and @nestjs/core', 'npm install @nestjs/core'],
    ['toolwright', ['class-validator'], 'toolwright needs class-validator, class-transformer, reflect-metadata and tsyringe', 'npm install class-validator'],
  ])('%s without %j is a SetupError naming it and the install line', async (entry, hidden, names, install) => {
    const outcome = await attempt(loader, hidden, `await load('${entry}');`);
    expect(outcome).toMatch(/^SetupError: /);
    expect(outcome).toContain(names);
    expect(outcome).toContain(install);
  });

  it('toolwright/mcp-client loads without the SDK client; connecting names it (nothing else needs it)', async () => {
    const outcome = await attempt(
      loader,
      ['@modelcontextprotocol/client'],
      `const { admitMcpServer, connectMcpServer, McpSecurityPolicy } = await load('toolwright/mcp-client');
      await connectMcpServer(admitMcpServer('x', { url: 'https://h.example/mcp' }, { security: new McpSecurityPolicy({ allowUrls: true }) }));`,
    );
    expect(outcome).toBe(
      'SetupError: toolwright/mcp-client (connecting to an MCP server) needs @modelcontextprotocol/client, and @modelcontextprotocol/client is not installed. ' +
        'Install it in the application: npm install @modelcontextprotocol/client.',
    );
  });

  it('toolwright/http loads without Fastify; serving it names fastify and the docs page packages, or fastify alone with docs: false', async () => {
    const serve = (options: string) => `const { httpApiApp } = await load('toolwright/http');\nawait httpApiApp(${options});`;
    const all = await attempt(loader, ['fastify', '@fastify/swagger', '@fastify/swagger-ui'], serve('{}'));
    expect(all).toMatch(/^SetupError: toolwright\/http \(httpApiApp, serveHttpApi\) needs fastify, @fastify\/swagger and @fastify\/swagger-ui/);
    expect(all).toContain('npm install fastify @fastify/swagger @fastify/swagger-ui');
    const docsOff = await attempt(loader, ['fastify', '@fastify/swagger', '@fastify/swagger-ui'], serve('{ docs: false }'));
    expect(docsOff).toMatch(/^SetupError: toolwright\/http \(httpApiApp, serveHttpApi\) needs fastify, and fastify is not installed/);
    expect(docsOff).toContain('npm install fastify.');
    expect(await attempt(loader, ['@fastify/swagger-ui'], serve('{ docs: false }'))).toBe('no error');
  });
});

describe('ToolwrightModule options inside a Nest application (Express)', () => {
  /** A Nest application whose root module imports ToolwrightModule.forRoot(options), created and closed. */
  const nestApp = (options: string) => `
    const { Module } = await load('@nestjs/common');
    const { NestFactory } = await load('@nestjs/core');
    const { ToolwrightModule } = await load('toolwright/nest');
    class AppModule {}
    Module({ imports: [ToolwrightModule.forRoot(${options})] })(AppModule);
    const app = await NestFactory.create(AppModule, { logger: false, abortOnError: false });
    await app.init();
    await app.close();`;

  it.each<Loader>(['require', 'import'])("the http option names fastify and the docs page's packages even on Express (%s)", async (loader) => {
    const outcome = await attempt(loader, ['fastify', '@fastify/swagger', '@fastify/swagger-ui'], nestApp('{ mcp: false, http: {} }'));
    expect(outcome).toMatch(/^SetupError: ToolwrightModule's http option needs fastify, @fastify\/swagger and @fastify\/swagger-ui/);
    expect(outcome).toContain('npm install fastify @fastify/swagger @fastify/swagger-ui (http: { docs: false } needs fastify only');
  });

  it('the mcp option (on by default) names the MCP SDK; mcp: false needs none', async () => {
    const outcome = await attempt('require', ['@modelcontextprotocol/server'], nestApp('{}'));
    expect(outcome).toMatch(/^SetupError: ToolwrightModule's mcp option \(on unless mcp: false\) needs @modelcontextprotocol\/server/);
    expect(outcome).toContain('npm install @modelcontextprotocol/server.');
    expect(await attempt('require', ['@modelcontextprotocol/server', 'fastify'], nestApp('{ mcp: false }'))).toBe('no error');
  });
});
