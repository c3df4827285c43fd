/**
 * How the command loads a project's TypeScript: through the project's @swc/core, which emits the
 * decorator metadata (`design:type`, `design:paramtypes`) whatever compiler the project has, or
 * none. Real child processes run the built bin against fixture projects (test/fixtures/cli): a
 * CommonJS project set up for TypeScript 7 (ts7: `module: nodenext`, no baseUrl, `paths` and
 * `useDefineForClassFields` from the tsconfig it extends), the same project with no ts-node, tsx or
 * typescript at all, an ES module importing CommonJS TypeScript, and syntax errors in CommonJS and
 * ES modules.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as ts from 'typescript';
import { buildPackage, removeBuild, repo, toolwright } from './harness';
import { markedBlock } from '../helpers/markdown-blocks';

let home: string;
const fixture = (name: string) => path.join(home, 'fixtures', name);
const temporary: string[] = [];

beforeAll(() => {
  home = buildPackage();
}, 120_000);

afterAll(() => {
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
  removeBuild();
});

/** A copy of a fixture outside the build, with only `links` (package names → the repository's copies) and toolwright installed. */
function isolatedCopy(name: string, links: readonly string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `toolwright-${name}-`));
  temporary.push(dir);
  fs.cpSync(fixture(name), dir, { recursive: true });
  fs.mkdirSync(path.join(dir, 'node_modules', '@types'), { recursive: true });
  fs.symlinkSync(home, path.join(dir, 'node_modules', 'toolwright'), 'dir');
  for (const link of links) fs.symlinkSync(path.join(repo, 'node_modules', link), path.join(dir, 'node_modules', link), 'dir');
  return dir;
}

const resolves = (request: string, dir: string) => {
  try {
    require.resolve(request, { paths: [dir] });
    return true;
  } catch {
    return false;
  }
};

const QUOTE_ARGS = '{"quantity": 4, "customer": {"name": "Ada", "vip": true}, "deliverBy": "2026-12-24T00:00:00.000Z"}';

describe('a CommonJS project set up for TypeScript 7', () => {
  it('takes field types from design:type (numbers, strings, a nested class, a Date), and paths and ./x.js imports resolve', async () => {
    const cwd = fixture('ts7');
    const [input, output] = await Promise.all([toolwright(['schema', 'get_quote'], { cwd }), toolwright(['schema', 'get_quote', '--output'], { cwd })]);
    expect(input.stderr).toBe('');
    const schema = JSON.parse(input.stdout);
    expect(schema.properties.quantity).toEqual({ type: 'integer', minimum: 1, maximum: 100, description: 'How many units' });
    expect(schema.properties.customer).toEqual({
      type: 'object',
      properties: { name: { type: 'string', minLength: 1 }, vip: { type: 'boolean' } },
      required: ['name'],
      additionalProperties: false,
    });
    expect(schema.properties.deliverBy).toEqual({ type: 'string', format: 'date-time' });
    expect(schema.required).toEqual(['quantity', 'customer', 'deliverBy']);
    expect(JSON.parse(output.stdout).properties).toEqual({
      total: { type: 'number' },
      currency: { type: 'string' },
      deliverBy: { type: 'string', format: 'date-time' },
      discount: { type: 'number' },
      noteIsOwn: { type: 'boolean' },
    });
  });

  it('calls a tool with constructor injection (design:paramtypes) and define-semantics DTOs: own undefined fields are never rendered', async () => {
    const called = await toolwright(['call', 'get_quote', '--args', QUOTE_ARGS], { cwd: fixture('ts7') });
    expect(called.stderr).toBe('');
    // noteIsOwn: the input DTO has `note` as an own property (useDefineForClassFields), yet the
    // output's unset `discount` is not in the rendered value.
    expect([called.code, called.stdout]).toEqual([0, JSON.stringify({ total: 45, currency: 'EUR', deliverBy: '2026-12-24T00:00:00.000Z', noteIsOwn: true }, null, 2) + '\n']);
    const refused = await toolwright(['call', 'get_quote', '--args', '{"quantity": 0, "customer": {}, "deliverBy": "soon"}'], { cwd: fixture('ts7') });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/quantity/);
    expect(refused.stderr).toMatch(/customer\.name/);
    expect(refused.stderr).toMatch(/deliverBy/);
  });
});

describe('a project without ts-node, tsx or typescript installed', () => {
  it('lists and calls its TypeScript tools through @swc/core alone', async () => {
    const dir = isolatedCopy('ts7', ['@swc', 'reflect-metadata', 'tsyringe', 'class-validator', 'class-transformer']);
    expect(['ts-node', 'tsx', 'typescript', '@swc/core'].map((name) => resolves(name, dir))).toEqual([false, false, false, true]);
    const [listed, called] = await Promise.all([toolwright(['list', '--json'], { cwd: dir }), toolwright(['call', 'get_quote', '--args', QUOTE_ARGS], { cwd: dir })]);
    expect(listed.stderr).toBe('');
    expect(JSON.parse(listed.stdout).map((tool: { name: string }) => tool.name)).toEqual(['get_quote']);
    expect([called.code, JSON.parse(called.stdout).total]).toEqual([0, 45]);
  });

  it('without @swc/core, says exactly what to install (exit 2)', async () => {
    const dir = isolatedCopy('ts7', ['reflect-metadata', 'tsyringe', 'class-validator', 'class-transformer']);
    const listed = await toolwright(['list'], { cwd: dir });
    expect([listed.code, listed.stderr]).toEqual([
      2,
      'toolwright: src/tools/index.ts is TypeScript: install @swc/core in the project (npm install --save-dev @swc/core) so the command can compile it with the decorator metadata toolwright reads (any TypeScript version; ts-node and tsx are not used).\n',
    ]);
  });
});

describe('an ES module importing a CommonJS TypeScript module', () => {
  it("sees its named exports (SWC's export annotation for Node's CommonJS lexer)", async () => {
    const dir = fs.mkdtempSync(path.join(fixture('.'), 'mixed-'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'mixed', type: 'commonjs' }));
    fs.writeFileSync(path.join(dir, 'toolwright.config.json'), JSON.stringify({ import: ['./tools.mts'], adapters: ['mcp'] }));
    fs.writeFileSync(
      path.join(dir, 'units.ts'),
      "import { Field } from 'toolwright';\nexport class Units { @Field() count!: number; @Field() unit!: string }\nexport const DEFAULT_UNIT = 'kg';\n",
    );
    fs.writeFileSync(
      path.join(dir, 'tools.mts'),
      [
        "import { Expects, Exposes, Tool } from 'toolwright';",
        "import { DEFAULT_UNIT, Units } from './units.js';",
        "@Tool('mcp') @Expects(Units) @Exposes({ label: String })",
        'export class Weigh { call(input: Units) { return { label: `${input.count} ${input.unit || DEFAULT_UNIT}` }; } }',
        '',
      ].join('\n'),
    );
    const [schema, called] = await Promise.all([
      toolwright(['schema', 'weigh'], { cwd: dir }),
      toolwright(['call', 'weigh', '--args', '{"count": 3, "unit": "g"}'], { cwd: dir }),
    ]);
    expect(schema.stderr).toBe('');
    expect(JSON.parse(schema.stdout).properties).toEqual({ count: { type: 'number' }, unit: { type: 'string', minLength: 1 } });
    expect([called.code, JSON.parse(called.stdout)]).toEqual([0, { label: '3 g' }]);
  });
});

describe('a syntax error', () => {
  it('in a CommonJS module imported by the tool index: file, line, column and message (exit 2)', async () => {
    const dir = isolatedCopy('ts7', ['@swc', 'reflect-metadata', 'tsyringe', 'class-validator', 'class-transformer']);
    fs.writeFileSync(path.join(dir, 'src', 'tools', 'broken.ts'), 'export class Broken {\n  call( { return 1 }\n}\n');
    fs.appendFileSync(path.join(dir, 'src', 'tools', 'index.ts'), "export * from './broken';\n");
    const listed = await toolwright(['list'], { cwd: dir });
    expect([listed.code, listed.stderr]).toEqual([2, 'toolwright: TypeScript syntax error at src/tools/broken.ts:2:11: Cannot use a reserved word as a shorthand property\n']);
  });

  it('in an ES module: the same, across Node\'s module hooks thread', async () => {
    const dir = isolatedCopy('esm-ts', ['@swc']);
    fs.appendFileSync(path.join(dir, 'tools.ts'), '\nexport const unfinished = ;\n');
    const lines = fs.readFileSync(path.join(dir, 'tools.ts'), 'utf8').split('\n').length - 1;
    const listed = await toolwright(['list'], { cwd: dir });
    expect([listed.code, listed.stderr]).toEqual([2, `toolwright: TypeScript syntax error at tools.ts:${lines}:27: Expression expected\n`]);
  });
});

describe('a DTO compiled outside the command, run by node: the message for missing type metadata names the compiler', () => {
  const MAIN = [
    "import 'reflect-metadata';",
    "import { Expects, Field, inputSchema, Tool } from 'toolwright';",
    'export class Order { @Field() item!: string; @Field() quantity!: number; }',
    '@Tool() @Expects(Order) export class PlaceOrder { call(input: Order) { return input; } }',
    'try { console.log(JSON.stringify(inputSchema(PlaceOrder).properties)); } catch (error) { console.log((error as Error).message); }',
    '',
  ].join('\n');
  const DROPPED = (setting: string) =>
    `Order.item: the type of this property is not visible: Order has no TypeScript type metadata on any property, and ${setting}: ` +
    'it was compiled by a tool that drops decorator metadata (tsx, esbuild, Vite, Bun, Vitest without a plugin…: they compile each ' +
    'file without type information, so they cannot write design:type). Fix: compile with tsc (npx tsc, then node on the output), ' +
    'SWC with jsc.transform.decoratorMetadata: true, ts-node, or @swc-node/register; for Vite and Vitest, unplugin-swc ' +
    '(see "Running your code" in the guide).\n';

  /** A CommonJS project beside the fixtures (where toolwright resolves to the build) with `compilerOptions` and main.ts. */
  function project(compilerOptions: object): string {
    const dir = fs.mkdtempSync(path.join(fixture('.'), 'compiled-'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'compiled', type: 'commonjs' }));
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'commonjs', strict: true, ...compilerOptions } }));
    fs.writeFileSync(path.join(dir, 'main.ts'), MAIN);
    return dir;
  }
  /** What tsc emits for main.ts under the project's tsconfig.json. */
  function tsc(dir: string): string {
    const { config } = ts.readConfigFile(path.join(dir, 'tsconfig.json'), ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config, ts.sys, dir);
    fs.writeFileSync(path.join(dir, 'main.js'), ts.transpileModule(MAIN, { compilerOptions: options, fileName: 'main.ts' }).outputText);
    return 'main.js';
  }
  const run = async (dir: string, args: string[]) => (await promisify(execFile)(process.execPath, args, { cwd: dir })).stdout;
  const METADATA = { experimentalDecorators: true, emitDecoratorMetadata: true };

  it('esbuild, with both flags set in tsconfig.json: it names the tool that dropped it and what works instead', async () => {
    const dir = project(METADATA);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const esbuild = require('esbuild') as typeof import('esbuild');
    esbuild.buildSync({ entryPoints: [path.join(dir, 'main.ts')], outfile: path.join(dir, 'out', 'main.js'), format: 'cjs', platform: 'node', logLevel: 'silent' });
    expect(await run(dir, ['out/main.js'])).toBe(DROPPED(`${path.join(fs.realpathSync(dir), 'tsconfig.json')} sets "emitDecoratorMetadata": true`));
  });

  it('tsx: the same, naming tsx', async () => {
    const dir = project(METADATA);
    expect(await run(dir, [require.resolve('tsx/cli'), 'main.ts'])).toBe(DROPPED('it runs under tsx'));
  });

  it('tsc without emitDecoratorMetadata keeps its own fix; with it, the schema derives', async () => {
    const without = project({ experimentalDecorators: true });
    const withIt = project(METADATA);
    const [refused, derived] = await Promise.all([run(without, [tsc(without)]), run(withIt, [tsc(withIt)])]);
    expect(refused).toBe(
      'Order.item: the type of this property is not visible: Order has no TypeScript type metadata on any property: it was compiled ' +
        'without emitDecoratorMetadata. Fix: set "experimentalDecorators": true and "emitDecoratorMetadata": true in the compilerOptions of your tsconfig.json.\n',
    );
    expect(JSON.parse(derived)).toEqual({ item: { type: 'string', minLength: 1 }, quantity: { type: 'number' } });
  });

  it("SWC with the .swcrc of the running-your-code page: the schema derives", async () => {
    const dir = project(METADATA);
    const swcrc = JSON.parse(markedBlock(path.join('docs', 'guide', 'running-your-code.md'), 'config: .swcrc', 'json')) as object;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const swc = require('@swc/core') as typeof import('@swc/core');
    fs.writeFileSync(path.join(dir, 'main.js'), swc.transformSync(MAIN, { ...swcrc, filename: 'main.ts', swcrc: false, configFile: false }).code);
    expect(JSON.parse(await run(dir, ['main.js']))).toEqual({ item: { type: 'string', minLength: 1 }, quantity: { type: 'number' } });
  });
});
