/**
 * The setup-mistakes table of the TypeScript setup page (docs/guide/typescript.md) names what each
 * mistake throws: each row's mistake is made here, as a reader would make it, and the thrown class
 * (and code) must be the one the row names. (test/setup/setup-mistakes.test.ts checks the messages.)
 */
import 'reflect-metadata';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:net';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as ts from 'typescript';
import { inputSchema, Tool, Tools } from 'toolwright';
import { serveHttp } from 'toolwright/mcp';
import { isolatedRegistry } from 'toolwright/testing';

const repo = path.resolve(__dirname, '..', '..');

/** The table's rows: the mistake and the class its `thrown` cell names first. */
function rows(): Array<{ mistake: string; thrown: string; code?: string }> {
  const page = fs.readFileSync(path.join(repo, 'docs', 'guide', 'typescript.md'), 'utf8');
  const table = page.slice(page.indexOf('| mistake | thrown | what it says |')).split('\n\n')[0].split('\n').slice(2);
  return table.map((line) => {
    const [mistake, thrown] = line.slice(2).split(' | ');
    return { mistake, thrown: /`(\w+)`/.exec(thrown)![1], code: /`code` `(\w+)`/.exec(thrown)?.[1] };
  });
}

/** What a child process reports it caught. */
class ThrownElsewhere {
  constructor(readonly thrown: Thrown) {}
}

/** Compiles a module with `options` and runs it with this test's `require` (toolwright is the source under test). */
function compileAndRun(source: string, options: ts.CompilerOptions): Record<string, unknown> {
  const { outputText } = ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, ...options } });
  const module = { exports: {} as Record<string, unknown> };
  new Function('require', 'module', 'exports', outputText)(require, module, module.exports);
  return module.exports;
}

/** What a thrown error is, as the table names it. */
interface Thrown {
  readonly name: string | undefined;
  readonly code: string | undefined;
}

/** Makes each mistake as the row says, keyed by how the row's mistake begins: what it throws (made to throw). */
const MISTAKES: Record<string, () => Promise<unknown>> = {
  '`experimentalDecorators` off': async () => compileAndRun("import { Tool } from 'toolwright'; @Tool() export class Search { call() { return 1; } }", { experimentalDecorators: false }),
  '`emitDecoratorMetadata` off': async () => {
    const { PlaceOrder } = compileAndRun(
      "import { Expects, Field, Tool } from 'toolwright'; export class Order { @Field() quantity!: number; } @Tool() @Expects(Order) export class PlaceOrder { call(input: Order) { return input; } }",
      { experimentalDecorators: true, emitDecoratorMetadata: false },
    );
    return inputSchema(PlaceOrder as Function);
  },
  // A new process: here reflect-metadata is loaded already. The class is declared before toolwright loads it.
  '`reflect-metadata` imported after': async () => {
    const script =
      "const { IsNotEmpty } = require('class-validator'); class Greeting {} IsNotEmpty()(Greeting.prototype, 'name'); " +
      "const toolwright = require('toolwright'); " +
      'try { toolwright.schemaOf(Greeting); } catch (error) { process.stdout.write(JSON.stringify({ name: error.constructor.name, code: error.code })); }';
    const { stdout } = await promisify(execFile)(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', '-e', script], { cwd: repo });
    throw new ThrownElsewhere(JSON.parse(stdout) as Thrown);
  },
  'a class tool whose `call(input)`': async () => {
    @Tool()
    class Search {
      call(input: { query: string }) {
        return input.query;
      }
    }
    return inputSchema(Search);
  },
  'a tool root that does not exist': async () => {
    const registry = isolatedRegistry();
    registry.registerAdapter('mcp', { toolRoots: ['agent_tools_that_do_not_exist'] });
    return registry.forAdapter('mcp');
  },
  '`serveHttp` on a port in use': async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      Tools.registerAdapter('mcp');
      return await serveHttp({ name: 'busy', version: '1.0.0', tools: [] }, { port: (blocker.address() as { port: number }).port });
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  },
};

describe('the setup-mistakes table of docs/guide/typescript.md', () => {
  const table = rows();
  const makerOf = (mistake: string) => Object.entries(MISTAKES).find(([start]) => mistake.startsWith(start))?.[1];

  it('has a row for each mistake made here, and each row is made here', () => {
    expect(table.map((row) => makerOf(row.mistake) !== undefined)).toEqual(table.map(() => true));
    expect(table).toHaveLength(Object.keys(MISTAKES).length);
  });

  it.each(table.map((row) => [row.mistake, row] as const))('%s: throws what the row names', async (_, row) => {
    let thrown: Thrown | undefined;
    try {
      await makerOf(row.mistake)!();
    } catch (error) {
      thrown = error instanceof ThrownElsewhere ? error.thrown : { name: (error as object).constructor.name, code: (error as { code?: string }).code };
    }
    expect(thrown).toEqual({ name: row.thrown, code: row.code ?? expect.any(String) });
  });
});
