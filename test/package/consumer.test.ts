/**
 * The packed package as users meet it: `npm pack` (which builds it), then fresh projects install the
 * tarball next to their own libraries, and consumers compile and run under every module setting.
 *
 * Three installs, made once and in parallel:
 * - app: the application of the issue, pinning its own tsyringe@4.8.0, with the newest
 *   class-validator, ai 7 and the MCP SDK: every module setting, one tsyringe, one singleton;
 * - cv-0.14.0: class-validator 0.14.0 with the oldest reflect-metadata in range (0.1.13) and the
 *   newest tsyringe (ai 6, the low end of its range, is what the rest of the suite runs);
 * - cv-0.14.1: class-validator 0.14.1 and the required peers only (no optional peer installed).
 */
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  compile,
  compileSources,
  createProject,
  installedPackages,
  ownClosure,
  packToolwright,
  repo,
  repoVersion,
  run,
  runConsumer,
  SETTINGS,
  sizeOf,
} from './project';

const TITLES = ['printer on fire', 'coffee machine empty', 'vpn down', 'badge reader'];
const PEERS = ['class-transformer', 'class-validator', 'reflect-metadata', 'tsyringe'];
const MEGABYTE = 1024 * 1024;
/** The optional peer dependencies: what an entry point may need that a project does not install. */
const OPTIONAL_PEERS = (JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { peerDependenciesMeta: Record<string, unknown> })
  .peerDependenciesMeta;
/** Every entry point the package publishes ('toolwright', 'toolwright/kit', …), read from package.json "exports". */
const ENTRY_POINTS = Object.keys((JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports)
  .filter((subpath) => subpath !== './package.json')
  .map((subpath) => (subpath === '.' ? 'toolwright' : `toolwright/${subpath.slice(2)}`));
/** ai 7 is ES modules only: TypeScript's node16 CommonJS refuses the app's own import of it (ai-sdk.ts). */
const APP_FILES = {
  node10: ['app.ts', 'ai-sdk.ts', 'schemas.ts'],
  node16: ['app.ts', 'schemas.ts'],
  nodenext: ['app.ts', 'ai-sdk.ts', 'schemas.ts'],
  bundler: ['app.ts', 'ai-sdk.ts', 'schemas.ts'],
};

let root: string;
let tarball: string;
const projects: Record<'app' | 'cv-0.14.0' | 'cv-0.14.1', string> = { app: '', 'cv-0.14.0': '', 'cv-0.14.1': '' };

// One compile and run per (project, setting, files), shared by the tests that read it.
const runs = new Map<string, Promise<Record<string, { json: unknown; stderr: string }>>>();
function consumer(project: keyof typeof projects, setting: keyof typeof SETTINGS, files: readonly string[]) {
  const key = `${project}/${setting}/${files.join(',')}`;
  if (!runs.has(key)) {
    runs.set(
      key,
      compile(projects[project], `${setting}-${runs.size}`, SETTINGS[setting], files).then(async (where) => {
        const results: Record<string, { json: unknown; stderr: string }> = {};
        for (const file of files.filter((name) => name !== 'ai-sdk.ts')) results[file] = await runConsumer(where, file);
        return results;
      }),
    );
  }
  return runs.get(key)!;
}

/** stderr without Node's notices about experimental features it uses on its own. */
const warningsIn = (stderr: string) => stderr.split('\n').filter((line) => line.trim() !== '' && !/ExperimentalWarning|--trace-warnings/.test(line));

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-consumer-'));
  tarball = packToolwright(root);
  const mcp = repoVersion('@modelcontextprotocol/sdk');
  const zod = repoVersion('zod');
  // allSettled: on a failure, every install has stopped before afterAll removes the directory.
  const installs = await Promise.allSettled([
    createProject(root, 'app', [tarball, 'tsyringe@4.8.0', 'reflect-metadata@^0.2.0', 'class-validator@latest', 'class-transformer@^0.5.1', 'ai@^7', mcp, zod]),
    createProject(root, 'cv-0.14.0', [tarball, 'class-validator@0.14.0', 'class-transformer@0.5.1', 'reflect-metadata@0.1.13', 'tsyringe@^4']),
    createProject(root, 'cv-0.14.1', [tarball, 'class-validator@0.14.1', 'class-transformer@^0.5.1', 'reflect-metadata@^0.2.0', 'tsyringe@^4']),
  ]);
  for (const install of installs) if (install.status === 'rejected') throw install.reason;
  [projects.app, projects['cv-0.14.0'], projects['cv-0.14.1']] = installs.map((install) => (install as PromiseFulfilledResult<string>).value);
}, 300_000);

afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const installed = (project: string, name: string) =>
  (JSON.parse(fs.readFileSync(path.join(project, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

describe('the packed package', () => {
  it('ships the built entry points and no sources or tests', () => {
    const dir = path.join(projects.app, 'node_modules', 'toolwright');
    for (const file of ['dist/index.js', 'dist/esm/index.mjs', 'dist/adapters/mcp/index.d.ts', 'dist/esm/ai.d.mts', 'README.md']) {
      expect(fs.existsSync(path.join(dir, file))).toBe(true);
    }
    expect(fs.existsSync(path.join(dir, 'src'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'test'))).toBe(false);
  });

  it.each(Object.keys(SETTINGS) as Array<keyof typeof SETTINGS>)('compiles and runs every entry point: %s', async (setting) => {
    const { 'app.ts': app, 'schemas.ts': schemas } = await consumer('app', setting, APP_FILES[setting]);
    expect(app.json).toEqual({
      counts: [{ count: 1 }, { count: 2 }, { count: 3 }, { count: 4 }],
      listed: { titles: TITLES },
      sameStore: true,
      appSees: TITLES,
      aiTools: ['list_tickets', 'open_ticket'],
      isolatedRegistryIsEmpty: true,
    });
    expect(warningsIn(app.stderr)).toEqual([]);
    expect(schemas.json).toMatchObject({ valid: { title: 'VPN down', priority: 'high' } });
  }, 120_000);

  it('npx toolwright list works in the consumer project (the bin ships, commander is a dependency)', async () => {
    const dir = path.join(projects.app, 'cli');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'cli-consumer', version: '1.0.0', private: true }));
    fs.writeFileSync(path.join(dir, 'toolwright.config.cjs'), "module.exports = { import: ['./tools.cjs'], adapters: ['mcp'] };\n");
    fs.writeFileSync(
      path.join(dir, 'tools.cjs'),
      "const { Tool, SemanticHints } = require('toolwright');\nclass Ping { call() { return {}; } }\nTool('mcp', { description: 'Are you there?' })(Ping);\nSemanticHints('readOnly')(Ping);\nmodule.exports = { Ping };\n",
    );
    const { stdout } = await run('npx', ['--no-install', 'toolwright', 'list', '--json'], dir);
    expect(JSON.parse(stdout)).toEqual([{ name: 'ping', version: 1, adapters: ['mcp'], hints: ['readOnly'], description: 'Are you there?', id: 'Ping' }]);
  });

  it('import and require share one registry, and every entry point resolves in both systems', async () => {
    const file = path.join(projects.app, 'shared.mjs');
    fs.writeFileSync(
      file,
      [
        "import { createRequire } from 'node:module';",
        'const require = createRequire(import.meta.url);',
        `const entries = ${JSON.stringify(ENTRY_POINTS)};`,
        // Every name of every entry point is the same value under import and require.
        'const mismatched = [];',
        // An entry point that loads an optional peer this project does not install is listed, not failed.
        `const optionalPeers = ${JSON.stringify(Object.keys(OPTIONAL_PEERS))};`,
        'const needsPeer = [];',
        'for (const entry of entries) {',
        '  let cjs;',
        '  try {',
        '    cjs = require(entry);',
        '  } catch (error) {',
        '    const peer = optionalPeers.find((name) => error.code === "MODULE_NOT_FOUND" && error.message.startsWith(`Cannot find module \'${name}\'`));',
        '    if (peer === undefined) throw error;',
        '    needsPeer.push(`${entry} needs ${peer}`);',
        '    continue;',
        '  }',
        '  const esm = await import(entry);',
        '  const names = Object.keys(cjs).filter((k) => k !== "__esModule");',
        '  if (names.length === 0) mismatched.push(`${entry}: no names`);',
        '  for (const name of names) if (esm[name] !== cjs[name]) mismatched.push(`${entry}: ${name}`);',
        '}',
        "const esm = await import('toolwright');",
        "const cjs = require('toolwright');",
        "const esmTesting = await import('toolwright/testing');",
        "const esmMcp = await import('toolwright/mcp');",
        "const esmOpenai = await import('toolwright/openai');",
        "const esmAi = await import('toolwright/ai');",
        "const esmHttp = await import('toolwright/http');",
        "const esmKit = await import('toolwright/kit');",
        'console.log(JSON.stringify({',
        '  mismatched,',
        '  needsPeer,',
        '  sameRegistry: esm.Tools === cjs.Tools,',
        '  sameTool: esm.Tool === cjs.Tool,',
        '  testing: typeof esmTesting.isolatedRegistry === "function",',
        '  mcp: typeof esmMcp.createMcpServer === "function" && esm.Tools.adapters().includes("mcp"),',
        '  openai: typeof esmOpenai.Toolbox === "function" && esm.Tools.adapters().includes("openai"),',
        '  ai: typeof esmAi.toAiSdkTools === "function",',
        // Fastify is loaded only when a server starts: the entry point resolves without its peers installed.
        '  http: typeof esmHttp.toolwrightHttp === "function" && esm.Tools.adapters().includes("http"),',
        '  kit: typeof esmKit.defineAdapterConfig === "function" && !("defineAdapterConfig" in esm),',
        '}));',
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, [file], projects.app);
    expect(ENTRY_POINTS).toEqual(expect.arrayContaining(['toolwright', 'toolwright/kit', 'toolwright/mcp', 'toolwright/testing']));
    expect(JSON.parse(stdout)).toEqual({
      mismatched: [],
      // toolwright/queue loads bullmq when imported; the app installs no queue.
      needsPeer: ['toolwright/queue needs bullmq'],
      sameRegistry: true,
      sameTool: true,
      testing: true,
      mcp: true,
      openai: true,
      ai: true,
      http: true,
      kit: true,
    });
  });

  // ai 7 is ES modules only, so node16's CommonJS cannot import toolwright/ai's types (as APP_FILES says).
  it.each(Object.keys(SETTINGS) as Array<keyof typeof SETTINGS>)('every entry point in "exports" type-checks as a consumer imports it: %s', async (setting) => {
    const entries = ENTRY_POINTS.filter((entry) => setting !== 'node16' || entry !== 'toolwright/ai');
    const source = entries.map((entry, i) => `import * as entry${i} from '${entry}';`).join('\n') + `\nexport const all = [${entries.map((_, i) => `entry${i}`).join(', ')}];\n`;
    await expect(compileSources(projects.app, `entries-${setting}`, SETTINGS[setting], { 'entries.ts': source })).resolves.toBeDefined();
  }, 120_000);

  it('the published declarations type-check on their own: no @internal member left dangling by stripInternal, no source maps shipped', async () => {
    const dir = path.join(projects.app, 'node_modules', 'toolwright', 'dist');
    const declarations = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.d.ts'));
    const sources = { 'declarations.ts': declarations.map((file) => `import '${path.join(dir, file).replace(/\.d\.ts$/, '').split(path.sep).join('/')}';`).join('\n') + '\n' };
    // Only toolwright's own files: another library's declarations are not this package's to fix.
    // Node's types from the repository (toolwright's declarations name node:http's); only toolwright's own
    // files count, and an optional peer this project does not install (fastify, bullmq) is not a problem.
    const options = { skipLibCheck: false, types: ['node'], typeRoots: [path.join(repo, 'node_modules', '@types')] };
    const problems = await compileSources(projects.app, 'declarations', SETTINGS.node10, sources, options).then(
      () => [],
      (error: Error) =>
        error.message
          .split('\n')
          .filter((line) => line.includes('node_modules/toolwright/') && !/TS2307: Cannot find module '(fastify|bullmq|ioredis|@fastify\/[\w-]+)'/.test(line)),
    );
    expect(problems).toEqual([]);
    expect(declarations.length).toBeGreaterThan(50);
    expect(fs.readFileSync(path.join(dir, 'adapters', 'openai', 'toolbox.d.ts'), 'utf8')).not.toMatch(/\bmount\(/);
    expect(fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.map'))).toEqual([]);
  }, 120_000);
});

describe('shared libraries are shared', () => {
  it('the app pins tsyringe@4.8.0 and there is one copy, the one toolwright loads', async () => {
    expect(installed(projects.app, 'tsyringe')).toBe('4.8.0');
    const { stdout } = await run('npm', ['ls', 'tsyringe', '--all', '--parseable'], projects.app);
    expect(stdout.trim().split('\n')).toEqual([path.join(projects.app, 'node_modules', 'tsyringe')]);
    const fromToolwright = createRequire(path.join(projects.app, 'node_modules', 'toolwright', 'dist', 'index.js'));
    for (const peer of PEERS) {
      expect(fromToolwright.resolve(peer)).toBe(createRequire(path.join(projects.app, 'index.js')).resolve(peer));
    }
    expect(fs.existsSync(path.join(projects.app, 'node_modules', 'toolwright', 'node_modules'))).toBe(false);
  });

  // The app consumer (run under every setting above) resolves TicketStore, a @singleton(), in the app's
  // container and through invoke (with and without `container`), MCP, a toolbox and the AI SDK: one
  // store sees all four tickets, and `container` type-checks wherever toolwright takes it.
  it('a @singleton() is one instance for tools and for the app', async () => {
    const { 'app.ts': app } = await consumer('app', 'node10', APP_FILES.node10);
    expect(app.json).toMatchObject({ sameStore: true, appSees: TITLES, listed: { titles: TITLES } });
  }, 120_000);
});

describe('class-validator matrix: 0.14.0, 0.14.1 and the latest', () => {
  it('installs the versions it claims to test', () => {
    expect(installed(projects['cv-0.14.0'], 'class-validator')).toBe('0.14.0');
    expect(installed(projects['cv-0.14.1'], 'class-validator')).toBe('0.14.1');
    expect(installed(projects.app, 'class-validator')).toMatch(/^0\.1[5-9]\./);
    expect(installed(projects['cv-0.14.0'], 'reflect-metadata')).toBe('0.1.13');
    expect(installed(projects.app, 'ai')).toMatch(/^7\./);
  });

  it('the same DTOs derive identical schemas, enforce the same constraints, and warn only about @ValidateIf', async () => {
    const [latest, v140, v141] = await Promise.all([
      consumer('app', 'node10', APP_FILES.node10),
      consumer('cv-0.14.0', 'node10', ['schemas.ts']),
      consumer('cv-0.14.1', 'node10', ['schemas.ts']),
    ]);
    const schemas = latest['schemas.ts'].json as { input: { properties: Record<string, unknown>; required: string[] } };
    expect(schemas.input.properties).toMatchObject({
      priority: { type: 'string', enum: ['low', 'normal', 'high'] },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
      contact: { type: 'string', enum: ['email', 'phone'] },
      severity: { type: 'integer', minimum: 1, maximum: 5 },
      address: { type: 'object', properties: { kind: { type: 'string', enum: ['home', 'work'] } }, required: ['city'] },
    });
    expect(schemas.input.required).toEqual(['title']);
    expect(schemas).toMatchObject({ invalid: ['address.kind', 'contact', 'priority', 'severity', 'tags'] });
    expect(v140['schemas.ts'].json).toEqual(schemas);
    expect(v141['schemas.ts'].json).toEqual(schemas);
    for (const result of [latest, v140, v141]) {
      const warnings = warningsIn(result['schemas.ts'].stderr);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('FileTicketInput.postalNote uses @ValidateIf');
    }
  }, 180_000);
});

describe('nothing in the install that nothing uses', () => {
  it('brings no compiler, no ts-node and no Node typings, and under 5 MB of its own beyond its peers', () => {
    for (const project of Object.values(projects)) {
      const names = new Set(installedPackages(project).values());
      for (const unwanted of ['typescript', 'typescript-json-schema', 'ts-node', '@types/node']) expect(names.has(unwanted)).toBe(false);
    }
    const own = ownClosure(projects['cv-0.14.1'], 'toolwright');
    const ownNames = [...own].map((dir) => path.basename(dir));
    for (const peer of PEERS) expect(ownNames).not.toContain(peer);
    const weight = [...own].reduce((total, dir) => total + sizeOf(dir, { nested: false }), 0);
    expect(weight).toBeLessThan(5 * MEGABYTE);
  });
});
