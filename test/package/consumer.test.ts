/**
 * The packed package as users meet it: `npm pack` (which builds it), then fresh projects install the
 * tarball next to their own libraries, and consumers compile and run under every module setting.
 *
 * Four installs, made once and in parallel, none with --legacy-peer-deps (npm refuses a peer out of range):
 * - app: the application of the issue, pinning its own tsyringe@4.8.0, with the newest
 *   class-validator and the newest major of every optional peer, all at once (ai 7, bullmq 6,
 *   ioredis 6, fastify 5, the MCP SDK, ...: the last alternative of each range in package.json):
 *   every module setting, one tsyringe, one singleton, and the servers and the queue running;
 * - cv-0.14.0: class-validator 0.14.0 with the oldest reflect-metadata in range (0.1.13), the newest
 *   tsyringe and the oldest major of every optional peer but ai (bullmq 5, ioredis 5; ai 6, the low
 *   end of its range, is what the rest of the suite runs);
 * - cv-0.14.1: class-validator 0.14.1 and the required peers only (no optional peer installed);
 * - readme: exactly the README's install line (the first line of docs/guide/install.md too), for the
 *   install-size figures the Installing page states.
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
  optionalPeerSpecs,
  ownClosure,
  packToolwright,
  repo,
  repoVersion,
  run,
  runConsumer,
  SETTINGS,
  sizeOf,
} from './project';
import { startRedis, type TestRedis } from '../helpers/redis';
import { markdownLinks } from '../helpers/markdown-links';
import { repositoryUrl, siteUrl } from '../../docs/.vitepress/site-links';

const TITLES = ['printer on fire', 'coffee machine empty', 'vpn down', 'badge reader'];
const PEERS = ['class-transformer', 'class-validator', 'reflect-metadata', 'tsyringe'];
const MEGABYTE = 1024 * 1024;
const README = fs.readFileSync(path.join(repo, 'README.md'), 'utf8');
/** The README's install line (### Install) as words: ['toolwright', 'reflect-metadata', 'tsyringe', ...]. */
const README_INSTALL_LINE = /^npm install (toolwright [^#\n]*)/m.exec(README)![1].trim().split(/\s+/);
/** The documentation site's Installing page, which states what that line weighs. */
const INSTALL_PAGE = fs.readFileSync(path.join(repo, 'docs', 'guide', 'install.md'), 'utf8');
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

/**
 * Checks whose outcome does not depend on the Node that runs them (type checks: the same compiler on
 * the same files; the install figures): on the other Node lines (npm run test:node-lines sets
 * TOOLWRIGHT_NODE_LINE) they are skipped, as they already ran on the machine's Node.
 */
const nodeIndependent = process.env.TOOLWRIGHT_NODE_LINE ? it.skip : it;

let root: string;
let tarball: string;
const projects: Record<'app' | 'cv-0.14.0' | 'cv-0.14.1' | 'readme', string> = { app: '', 'cv-0.14.0': '', 'cv-0.14.1': '', readme: '' };

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
  const zod = repoVersion('zod');
  // allSettled: on a failure, every install has stopped before afterAll removes the directory.
  const installs = await Promise.allSettled([
    createProject(root, 'app', [
      tarball,
      'tsyringe@4.8.0',
      'reflect-metadata@^0.2.0',
      'class-validator@latest',
      'class-transformer@^0.5.1',
      ...optionalPeerSpecs('newest'),
      zod,
      // What the documented tsconfig for checking library declarations asks for (docs/guide/typescript.md).
      '@types/node@^22',
      '@types/json-schema',
    ]),
    createProject(root, 'cv-0.14.0', [
      tarball,
      'class-validator@0.14.0',
      'class-transformer@0.5.1',
      'reflect-metadata@0.1.13',
      'tsyringe@^4',
      ...optionalPeerSpecs('oldest', ['ai', 'typescript-json-schema']),
      zod,
    ]),
    createProject(root, 'cv-0.14.1', [tarball, 'class-validator@0.14.1', 'class-transformer@^0.5.1', 'reflect-metadata@^0.2.0', 'tsyringe@^4']),
    createProject(root, 'readme', [tarball, ...README_INSTALL_LINE.slice(1)]),
  ]);
  for (const install of installs) if (install.status === 'rejected') throw install.reason;
  [projects.app, projects['cv-0.14.0'], projects['cv-0.14.1'], projects.readme] = installs.map((install) => (install as PromiseFulfilledResult<string>).value);
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

  it('ships a README whose every link works from node_modules: no relative link to a file the package lacks', () => {
    const dir = path.join(projects.app, 'node_modules', 'toolwright');
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { homepage?: string; repository?: { url?: string } };
    expect([manifest.homepage, manifest.repository?.url]).toEqual([siteUrl, expect.stringContaining(repositoryUrl.replace(/^https:\/\//, ''))]);
    const links = markdownLinks(fs.readFileSync(path.join(dir, 'README.md'), 'utf8'));
    expect(links.filter(({ target }) => target.startsWith(`${siteUrl}/guide/`)).length).toBeGreaterThan(10);
    const relative = links.filter(({ target }) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'));
    expect(relative.filter(({ target }) => !fs.existsSync(path.join(dir, target.split('#')[0])))).toEqual([]);
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
    expect(JSON.parse(stdout)).toEqual([{ name: 'ping', version: 1, adapters: ['mcp'], hints: ['readOnly'], description: 'Are you there?', id: 'Ping', kind: 'tool', tags: [] }]);
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
        // A missing peer is a SetupError ending with its install line (test/package/missing-peers.test.ts).
        '    const peer = optionalPeers.find((name) => error.name === "SetupError" && new RegExp(`npm install .*${name}`).test(error.message));',
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
      // The app installs every optional peer: every entry point loads.
      needsPeer: [],
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
  nodeIndependent.each(Object.keys(SETTINGS) as Array<keyof typeof SETTINGS>)('every entry point in "exports" type-checks as a consumer imports it: %s', async (setting) => {
    const entries = ENTRY_POINTS.filter((entry) => setting !== 'node16' || entry !== 'toolwright/ai');
    const source = entries.map((entry, i) => `import * as entry${i} from '${entry}';`).join('\n') + `\nexport const all = [${entries.map((_, i) => `entry${i}`).join(', ')}];\n`;
    await expect(compileSources(projects.app, `entries-${setting}`, SETTINGS[setting], { 'entries.ts': source })).resolves.toBeDefined();
  }, 120_000);

  // The documented tsconfig for `skipLibCheck: false` (docs/guide/typescript.md): nodenext, esModuleInterop, Node's
  // typings and @types/json-schema. Every declaration file the entry points reach, other libraries'
  // included, type-checks (under node10 without esModuleInterop zod's, pino's and the AI SDK's do not).
  // (Not node16: there the MCP SDK's CommonJS declarations import its ES module types without `resolution-mode`, TS1541.)
  nodeIndependent.each([
    ['an ES module', SETTINGS.nodenext],
    ['CommonJS', { ...SETTINGS.nodenext, name: 'CommonJS, nodenext resolution', esm: false }],
  ] as const)("with the documented tsconfig and skipLibCheck: false, every entry point and the typings it reaches type-check: %s", async (kind, setting) => {
    // ai 7 is ES modules only: a CommonJS consumer does not import toolwright/ai's types (as APP_FILES says).
    const entries = ENTRY_POINTS.filter((entry) => setting.esm || entry !== 'toolwright/ai');
    const source = entries.map((entry, i) => `import * as entry${i} from '${entry}';`).join('\n') + `\nexport const all = [${entries.map((_, i) => `entry${i}`).join(', ')}];\n`;
    const options = { skipLibCheck: false, esModuleInterop: true, types: ['node'] };
    await expect(compileSources(projects.app, `libcheck-${setting.esm ? 'esm' : 'cjs'}`, setting, { 'entries.ts': source }, options)).resolves.toBeDefined();
  }, 180_000);

  nodeIndependent('the published declarations type-check on their own: no @internal member left dangling by stripInternal, no source maps shipped', async () => {
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
    expect(fs.readFileSync(path.join(dir, 'adapters', 'toolbox', 'toolbox.d.ts'), 'utf8')).not.toMatch(/\bmount\(|listFunctions/);
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
    expect([installed(projects.app, 'bullmq'), installed(projects.app, 'ioredis')]).toEqual([expect.stringMatching(/^6\./), expect.stringMatching(/^6\./)]);
    expect([installed(projects['cv-0.14.0'], 'bullmq'), installed(projects['cv-0.14.0'], 'ioredis')]).toEqual([
      expect.stringMatching(/^5\./),
      expect.stringMatching(/^5\./),
    ]);
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
    const unwanted = ['typescript', 'typescript-json-schema', 'ts-node', '@types/node'];
    // The app installs typescript-json-schema (an optional peer, for `toolwright check`), which brings a compiler: none is toolwright's.
    for (const project of Object.values(projects)) {
      const own = [...ownClosure(project, 'toolwright')].map((dir) => installedPackages(project).get(dir) ?? path.basename(dir));
      expect(own.filter((name) => unwanted.includes(name))).toEqual([]);
    }
    // Whole installs of the required peers only. cv-0.14.0 also installs every optional peer at its
    // oldest, and the OpenAI Agents SDK brings @types/node there (@openai/agents-realtime → @types/ws):
    // the SDK's, not toolwright's, whose own closure the loop above holds in every project.
    for (const project of [projects['cv-0.14.1'], projects.readme]) {
      const names = new Set(installedPackages(project).values());
      expect(unwanted.filter((name) => names.has(name))).toEqual([]);
    }
    const own = ownClosure(projects['cv-0.14.1'], 'toolwright');
    const ownNames = [...own].map((dir) => path.basename(dir));
    for (const peer of PEERS) expect(ownNames).not.toContain(peer);
    const weight = [...own].reduce((total, dir) => total + sizeOf(dir, { nested: false }), 0);
    expect(weight).toBeLessThan(5 * MEGABYTE);
  });
});

describe('the optional peers at both ends of their ranges', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  const major = (version: unknown) => Number(String(version).split('.')[0]);

  // One run of consumers/servers.ts per project: the HTTP API and its docs page, MCP over HTTP reached
  // from a Toolbox through toolwright/mcp-client, and a queue and worker on the test's redis-server.
  it.each([
    ['app', 'nodenext', 'newest', { bullmq: 6, ioredis: 6 }],
    ['cv-0.14.0', 'node10', 'oldest', { bullmq: 5, ioredis: 5 }],
  ] as const)('%s (%s): the servers and the queue run on the %s majors', async (project, setting, which, majors) => {
    const where = await compile(projects[project], `servers-${setting}`, SETTINGS[setting], ['servers.ts']);
    const { json, stderr } = await runConsumer(where, 'servers.ts', { REDIS_PORT: String(redis.port) });
    expect(warningsIn(stderr)).toEqual([]);
    expect({ bullmq: major(installed(projects[project], 'bullmq')), ioredis: major(installed(projects[project], 'ioredis')) }).toEqual(majors);
    // Every optional peer the servers load is installed (so none was skipped), in its range's newest or oldest major.
    for (const spec of optionalPeerSpecs(which, ['ai', 'typescript-json-schema'])) {
      const name = spec.slice(0, spec.lastIndexOf('@'));
      expect(`${name}@${major(installed(projects[project], name))}`).toBe(`${name}@${spec.slice(spec.lastIndexOf('@') + 1).replace(/^\^/, '').split('.')[0]}`);
    }
    expect(json).toMatchObject({
      httpApi: { status: 200, body: { letters: 7 } },
      docs: 200,
      remote: { name: 'mcp__letters__count_letters', status: 'completed', data: { letters: 6 } },
      queue: { status: 'completed', result: { letters: 6 }, cancel: [true, 'cancelled'] },
    });
  }, 180_000);
});

describe('a Nest application consuming toolwright/nest', () => {
  // One compile and run of consumers/nest.ts per project: Nest 12 from an ES module consumer (Nest 12 is
  // ES modules only; TypeScript's node16 CommonJS refuses to import it, as it refuses ai 7), Nest 11
  // from a CommonJS consumer in the oldest-peers project.
  it.each([
    ['app', 'nodenext', 12],
    ['cv-0.14.0', 'node10', 11],
  ] as const)('%s (%s): Nest %i serves the tools, with the guards and the ambient officer', async (project, setting, nest) => {
    expect(Number(installed(projects[project], '@nestjs/core').split('.')[0])).toBe(nest);
    const where = await compile(projects[project], `nest-${setting}`, SETTINGS[setting], ['nest.ts']);
    const { json, stderr } = await runConsumer(where, 'nest.ts');
    expect(warningsIn(stderr)).toEqual([]);
    expect(json).toMatchObject({
      nobody: 403,
      writer: { status: 'completed', data: { note: 'l-1 approved by officer-w' } },
      reader: { status: 'failed', output: 'Forbidden resource' },
    });
  }, 120_000);
});

describe("the install figures (docs/guide/install.md) are what the install line weighs", () => {
  /** `12 packages, 3.4 MB` style figures, measured: packages installed and their files' bytes in MB (10^6). */
  const weigh = (dirs: Iterable<string>) => {
    const list = [...dirs];
    return { packages: list.length, mb: Math.round(list.reduce((total, dir) => total + sizeOf(dir, { nested: false }), 0) / 1e5) / 10 };
  };
  const near = (stated: number, measured: number) => Math.abs(stated - measured) <= Math.max(0.2, stated * 0.03);

  nodeIndependent('packages and megabytes: the line, the four peers alone, toolwright\'s share, its own code, and with the MCP SDK server', async () => {
    // The figures are of the page's first install line, which must be the README's (the line installed here).
    expect(/^npm install (toolwright [^#\n]*)/m.exec(INSTALL_PAGE)?.[1].trim().split(/\s+/)).toEqual(README_INSTALL_LINE);
    // The sentence as the page words it, wherever its lines wrap.
    const sentence = [
      "the first install line at the top of this page adds (\\d+) packages, ([\\d.]+) MB,[^]*?",
      "peers alone are (\\d+) packages and ([\\d.]+) MB, so toolwright's own share is (\\d+) packages and ([\\d.]+) MB: ([\\d.]+) MB of its own code[^]*?",
      'With the MCP SDK server[^]*?it is (\\d+) packages, ([\\d.]+) MB',
    ].join('');
    const figures = new RegExp(sentence.replace(/ /g, '\\s+')).exec(INSTALL_PAGE);
    expect(figures).not.toBeNull();
    const [, linePackages, lineMb, peerPackages, peerMb, ownPackages, ownMb, codeMb, sdkPackages, sdkMb] = figures!.map(Number);
    const project = projects.readme;
    const all = [...installedPackages(project).keys()];
    const peers = new Set(PEERS.flatMap((peer) => [...ownClosure(project, peer)]));
    const measured = {
      line: weigh(all),
      peers: weigh(peers),
      own: weigh(all.filter((dir) => !peers.has(dir))),
      code: weigh([path.join(project, 'node_modules', 'toolwright')]).mb,
    };
    // toolwright/mcp's peer: the SDK 2.x server package.
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', '@modelcontextprotocol/server@' + optionalPeerSpecs('newest').find((spec) => spec.startsWith('@modelcontextprotocol/server@'))!.split('@').pop()], project);
    const sdk = weigh(installedPackages(project).keys());
    const report = `measured: the line ${measured.line.packages} packages, ${measured.line.mb} MB; peers alone ${measured.peers.packages}, ${measured.peers.mb} MB; toolwright's share ${measured.own.packages}, ${measured.own.mb} MB; its code ${measured.code} MB; with the MCP SDK server ${sdk.packages}, ${sdk.mb} MB`;
    expect([
      linePackages === measured.line.packages && near(lineMb, measured.line.mb),
      peerPackages === measured.peers.packages && near(peerMb, measured.peers.mb),
      ownPackages === measured.own.packages && near(ownMb, measured.own.mb),
      near(codeMb, measured.code),
      sdkPackages === sdk.packages && near(sdkMb, sdk.mb),
    ].every(Boolean) ? 'the page is right' : report).toBe('the page is right');
  }, 120_000);
});
