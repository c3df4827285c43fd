/**
 * The packed package with TypeScript 7 (`npm i -D typescript` today), in a fresh project with the
 * TypeScript 7 tsconfig of the TypeScript setup page (read from docs/guide/typescript.md): every
 * entry point's declarations type-check (without skipLibCheck where the peers' own typings allow) under each module resolution 7 has; a CommonJS and an ES module consumer
 * compiled by 7 run (its decorator metadata, class fields defined and assigned); `node10` is
 * refused as that page says; and the `toolwright` command serves a TypeScript 7 project through
 * SWC. TypeScript 7's `tsc` is a native binary, run through its package's launcher.
 *
 * The tarball is packed from a private build (not ./dist), so this file never races the other
 * package tests' `npm pack`.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createProject, repo, repoVersion, run } from './project';
import { markedBlock } from '../helpers/markdown-blocks';

/** Every entry point the package publishes, read from package.json "exports". */
const ENTRY_POINTS = Object.keys((JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports)
  .filter((subpath) => subpath !== './package.json')
  .map((subpath) => (subpath === '.' ? 'toolwright' : `toolwright/${subpath.slice(2)}`));

/** The JSON block after `<!-- tsconfig: NAME -->` on the TypeScript setup page of the documentation site. */
function documentedTsconfig(name: string): { compilerOptions: Record<string, unknown> } {
  return JSON.parse(markedBlock(path.join('docs', 'guide', 'typescript.md'), `tsconfig: ${name}`, 'json'));
}

const DOCS_TS7 = documentedTsconfig('typescript 7');
const DOCS_TS5 = documentedTsconfig('typescript 5');
let root: string;
let project: string;

/** A private build of the package, packed without its prepack (which would rebuild ./dist). */
function packPrivately(destination: string): string {
  const dir = path.join(destination, 'package');
  fs.mkdirSync(dir);
  // The build loads what it built: with the package's manifest and dependencies beside it.
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  for (const file of ['package.json', 'README.md']) fs.copyFileSync(path.join(repo, file), path.join(dir, file));
  execFileSync(process.execPath, [path.join(repo, 'scripts', 'build.js'), '--into', dir], { cwd: repo, stdio: 'pipe' });
  const output = execFileSync('npm', ['pack', dir, '--json', '--ignore-scripts', '--pack-destination', destination], { cwd: destination, encoding: 'utf8' });
  return path.join(destination, (JSON.parse(output.slice(output.indexOf('['))) as Array<{ filename: string }>)[0].filename);
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-ts7-'));
  const tarball = packPrivately(root);
  const peers = ['@modelcontextprotocol/server', '@modelcontextprotocol/client', 'zod', 'ai', 'fastify', '@fastify/swagger', '@fastify/swagger-ui', 'bullmq', 'ioredis', '@swc/core', 'typescript-json-schema', '@nestjs/common', '@nestjs/core', 'rxjs', '@langchain/core', '@openai/agents'];
  project = await createProject(root, 'app', [
    tarball,
    'typescript@^7',
    '@types/node@^20',
    '@types/json-schema',
    'reflect-metadata@^0.2.0',
    'tsyringe@^4.8.0',
    'class-validator@latest',
    'class-transformer@^0.5.1',
    ...peers.map(repoVersion),
  ]);
}, 300_000);

afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const tsc = () => path.join(project, 'node_modules', 'typescript', 'bin', 'tsc');

/** Writes `sources` and a tsconfig into `project/dir` and runs TypeScript 7 (or `compiler`) on it; rejects with its errors. */
async function compile7(dir: string, sources: Record<string, string>, compilerOptions: Record<string, unknown>, esm: boolean, compiler = tsc()) {
  const where = path.join(project, dir);
  fs.mkdirSync(where);
  for (const [file, text] of Object.entries(sources)) fs.writeFileSync(path.join(where, file), text);
  fs.writeFileSync(path.join(where, 'package.json'), JSON.stringify({ type: esm ? 'module' : 'commonjs' }));
  fs.writeFileSync(path.join(where, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: Object.keys(sources) }));
  await run(process.execPath, [compiler, '-p', 'tsconfig.json'], where);
  return where;
}

describe('TypeScript 7', () => {
  it('is what the project installed: a native tsc, version 7', async () => {
    const { stdout } = await run(process.execPath, [tsc(), '--version'], project);
    expect(stdout).toMatch(/^Version 7\.\d+\.\d+/);
  });

  const declarations = ENTRY_POINTS.map((entry, i) => `import * as entry${i} from '${entry}';\nexport const used${i} = Object.keys(entry${i});\n`).join('');
  it.each([
    ['nodenext, CommonJS', { module: 'nodenext', skipLibCheck: false }, false],
    // The MCP SDK's own typings fail node16 under 7 (TS1541 in its validation/types.d.ts): skipLibCheck, as the documented tsconfig has it.
    ['node16, CommonJS (skipLibCheck)', { module: 'node16', skipLibCheck: true }, false],
    ['nodenext, ES module', { module: 'nodenext', skipLibCheck: false }, true],
    ['bundler (module esnext)', { module: 'esnext', skipLibCheck: false }, true],
  ])("type-checks every entry point's declarations: %s", async (_name, options, esm) => {
    await compile7(`declarations-${options.module + (esm ? '-esm' : '')}`, { 'entries.ts': declarations }, { ...DOCS_TS7.compilerOptions, ...options, noEmit: true }, esm);
  }, 120_000);

  it('refuses moduleResolution node10 (TS5108), as the TypeScript setup page says', async () => {
    const refused = compile7('node10', { 'entries.ts': declarations }, { ...DOCS_TS7.compilerOptions, module: 'commonjs', moduleResolution: 'node10', noEmit: true }, false);
    await expect(refused).rejects.toThrow(/TS5108: Option 'moduleResolution=node10' has been removed/);
  });

  const expected = (ownFields: string[]) => {
    // Each call resolves a new PlaceOrder with a new (injected) Sequence.
    const order = { id: 'berlin-1', units: 5, placedAt: '2026-12-01T10:00:00.000Z', firstLineIsLine: true };
    return {
      ownFields,
      types: [true, true, true],
      inputRequired: ['customer', 'lines', 'placedAt'],
      placedAt: { type: 'string', format: 'date-time' },
      outputRequired: ['id', 'units', 'placedAt', 'firstLineIsLine'],
      direct: order,
      refused: ['lines[0].quantity'],
      mcp: { ...order, id: 'paris-1' },
      toolbox: { ...order, id: 'rome-1' },
    };
  };
  const consumer = fs.readFileSync(path.join(__dirname, 'typescript7', 'consumer.ts'), 'utf8');

  it("compiles a CommonJS consumer with the documented tsconfig (define semantics) and runs it", async () => {
    const where = await compile7('cjs', { 'consumer.ts': consumer }, DOCS_TS7.compilerOptions, false);
    expect(fs.readFileSync(path.join(where, 'dist', 'consumer.js'), 'utf8')).toMatch(/require\("toolwright"\)/);
    const { stdout, stderr } = await run(process.execPath, [path.join('dist', 'consumer.js')], where);
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toEqual(expected(['customer', 'lines', 'note', 'placedAt', 'shop']));
  }, 120_000);

  it('compiles an ES module consumer with useDefineForClassFields off and runs it', async () => {
    const where = await compile7('esm', { 'consumer.ts': consumer }, { ...DOCS_TS7.compilerOptions, useDefineForClassFields: false }, true);
    expect(fs.readFileSync(path.join(where, 'dist', 'consumer.js'), 'utf8')).toMatch(/^import .* from ['"]toolwright['"];$/m);
    const { stdout, stderr } = await run(process.execPath, [path.join('dist', 'consumer.js')], where);
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toEqual(expected([]));
  }, 120_000);

  it("and the documented TypeScript 5 tsconfig: the same consumer, compiled by this repository's 5.9 as CommonJS (node10 resolution), runs", async () => {
    const where = await compile7('ts5', { 'consumer.ts': consumer }, DOCS_TS5.compilerOptions, false, path.join(repo, 'node_modules', 'typescript', 'bin', 'tsc'));
    const { stdout, stderr } = await run(process.execPath, [path.join('dist', 'consumer.js')], where);
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toEqual(expected([]));
  }, 120_000);

  it('the toolwright command loads a TypeScript 7 project through @swc/core, and its tsconfig type-checks under 7', async () => {
    const dir = path.join(project, 'cli');
    fs.cpSync(path.join(repo, 'test', 'fixtures', 'cli', 'ts7'), dir, { recursive: true });
    await run(process.execPath, [tsc(), '-p', 'tsconfig.json', '--noEmit'], dir);
    const bin = path.join(project, 'node_modules', 'toolwright', 'dist', 'cli', 'bin.js');
    const args = '{"quantity": 2, "customer": {"name": "Ada"}, "deliverBy": "2026-12-24T00:00:00.000Z"}';
    const called = await run(process.execPath, [bin, 'call', 'get_quote', '--args', args], dir);
    expect(JSON.parse(called.stdout)).toEqual({ total: 25, currency: 'EUR', deliverBy: '2026-12-24T00:00:00.000Z', noteIsOwn: true });
    // The drift check runs typescript-json-schema, which brings its own TypeScript 5.9.
    const checked = await run(process.execPath, [bin, 'check'], dir);
    expect(checked.stdout).toMatch(/^no compiler drift/m);
  }, 120_000);
});
