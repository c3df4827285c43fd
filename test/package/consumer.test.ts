/**
 * Packs toolwright (`npm pack`, which builds it), installs the tarball into a fresh project, and
 * compiles and runs a small consumer in both module systems: that is how users meet the package.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repo = path.resolve(__dirname, '..', '..');
const tsc = path.join(repo, 'node_modules', 'typescript', 'bin', 'tsc');

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } });
}

const consumerSource = (importLine: string) => `${importLine}

@Tool('mcp', { description: 'Approve a pending loan' })
@ToolVersion(2)
@SemanticHints('idempotent')
class ApproveLoanV2 {
  call() {
    return {};
  }
}

class LoanService {
  @Tool('mcp')
  status() {
    return {};
  }
}

Tools.registerAdapter('mcp');
console.log(JSON.stringify(Tools.forAdapter('mcp').map((d) => [d.toolName('mcp'), d.version, d.hints, d.description ?? null])));
void LoanService;
void ApproveLoanV2;
`;

const compilerOptions = {
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  target: 'ES2022',
  skipLibCheck: true,
  types: [],
};

const expected = JSON.stringify([
  ['approve_loan', 2, ['idempotent'], 'Approve a pending loan'],
  ['status', 1, [], null],
]);

describe('the packed package', () => {
  let project: string;

  beforeAll(() => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-consumer-'));
    run('npm', ['pack', '--pack-destination', project], repo);
    const tarball = path.join(project, fs.readdirSync(project).find((file) => file.endsWith('.tgz'))!);
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    // The optional peers of the adapter entry points, at the versions the suite tests.
    const version = (name: string) => `${name}@${require(path.join(repo, 'node_modules', name, 'package.json')).version}`;
    const peers = ['@modelcontextprotocol/sdk', 'ai', 'zod'].map(version);
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...peers], project);
  }, 240_000);

  afterAll(() => {
    fs.rmSync(project, { recursive: true, force: true });
  });

  it('ships the built entry points and no sources or tests', () => {
    const installed = path.join(project, 'node_modules', 'toolwright');
    expect(fs.existsSync(path.join(installed, 'dist', 'index.js'))).toBe(true);
    expect(fs.existsSync(path.join(installed, 'dist', 'esm', 'index.mjs'))).toBe(true);
    expect(fs.existsSync(path.join(installed, 'src'))).toBe(false);
    expect(fs.existsSync(path.join(installed, 'test'))).toBe(false);
  });

  it('works from require() in a CommonJS TypeScript project', () => {
    const dir = path.join(project, 'cjs');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'main.ts'), consumerSource("import 'reflect-metadata';\nimport { SemanticHints, Tool, ToolVersion, Tools } from 'toolwright';"));
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { ...compilerOptions, module: 'commonjs', moduleResolution: 'node10', outDir: 'out' }, files: ['main.ts'] }),
    );
    run(process.execPath, [tsc, '-p', 'tsconfig.json'], dir);
    expect(run(process.execPath, ['out/main.js'], dir).trim()).toBe(expected);
  });

  it('works from import in an ES module TypeScript project (node16 resolution)', () => {
    const dir = path.join(project, 'esm');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    fs.writeFileSync(path.join(dir, 'main.ts'), consumerSource("import 'reflect-metadata';\nimport { SemanticHints, Tool, ToolVersion, Tools } from 'toolwright';"));
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { ...compilerOptions, module: 'node16', moduleResolution: 'node16', outDir: 'out' }, files: ['main.ts'] }),
    );
    run(process.execPath, [tsc, '-p', 'tsconfig.json'], dir);
    expect(run(process.execPath, ['out/main.js'], dir).trim()).toBe(expected);
  });

  it('npx toolwright list works in the consumer project (the bin ships, commander is a dependency)', () => {
    const dir = path.join(project, 'cli');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'cli-consumer', version: '1.0.0', private: true }));
    fs.writeFileSync(path.join(dir, 'toolwright.config.cjs'), "module.exports = { import: ['./tools.cjs'], adapters: ['mcp'] };\n");
    fs.writeFileSync(
      path.join(dir, 'tools.cjs'),
      "const { Tool, SemanticHints } = require('toolwright');\nclass Ping { call() { return {}; } }\nTool('mcp', { description: 'Are you there?' })(Ping);\nSemanticHints('readOnly')(Ping);\nmodule.exports = { Ping };\n",
    );
    const listed = JSON.parse(run('npx', ['--no-install', 'toolwright', 'list', '--json'], dir));
    expect(listed).toEqual([{ name: 'ping', version: 1, adapters: ['mcp'], hints: ['readOnly'], description: 'Are you there?', id: 'Ping' }]);
  });

  it('import and require share one registry, and every entry point resolves in both systems', () => {
    const file = path.join(project, 'shared.mjs');
    fs.writeFileSync(
      file,
      [
        "import { createRequire } from 'node:module';",
        "import * as esm from 'toolwright';",
        "import * as esmTesting from 'toolwright/testing';",
        "import * as esmMcp from 'toolwright/mcp';",
        "import * as esmOpenai from 'toolwright/openai';",
        "import * as esmAi from 'toolwright/ai';",
        'const require = createRequire(import.meta.url);',
        "const cjs = require('toolwright');",
        "const cjsTesting = require('toolwright/testing');",
        "const cjsMcp = require('toolwright/mcp');",
        "const cjsOpenai = require('toolwright/openai');",
        "const cjsAi = require('toolwright/ai');",
        'console.log(JSON.stringify({',
        '  sameRegistry: esm.Tools === cjs.Tools,',
        '  sameTool: esm.Tool === cjs.Tool,',
        '  testing: typeof esmTesting.isolatedRegistry === "function" && esmTesting.isolatedRegistry === cjsTesting.isolatedRegistry,',
        '  names: Object.keys(cjs).filter((k) => k !== "__esModule").every((k) => k in esm),',
        '  mcp: esmMcp.createMcpServer === cjsMcp.createMcpServer && esm.Tools.adapters().includes("mcp"),',
        '  openai: esmOpenai.Toolbox === cjsOpenai.Toolbox && esm.Tools.adapters().includes("openai"),',
        '  ai: typeof esmAi.toAiSdkTools === "function" && esmAi.toAiSdkTools === cjsAi.toAiSdkTools,',
        '}));',
      ].join('\n'),
    );
    expect(JSON.parse(run(process.execPath, [file], project))).toEqual({ sameRegistry: true, sameTool: true, testing: true, names: true, mcp: true, openai: true, ai: true });
  });
});
