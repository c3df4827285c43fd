import 'reflect-metadata';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer, Server } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as ts from 'typescript';
import { inputSchema, Tools } from 'toolwright';
import { serveHttp } from 'toolwright/mcp';
import { isolatedRegistry } from 'toolwright/testing';

const repo = path.resolve(__dirname, '..', '..');

/**
 * Compiles a module with the given compiler options (the user's tsconfig) and runs it in this
 * process, with this test's `require` (so `toolwright` is the source under test).
 */
function compileAndRun(source: string, options: ts.CompilerOptions): Record<string, unknown> {
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, useDefineForClassFields: false, ...options },
  });
  const module = { exports: {} as Record<string, unknown> };
  new Function('require', 'module', 'exports', outputText)(require, module, module.exports);
  return module.exports;
}

const LEGACY = { experimentalDecorators: true, emitDecoratorMetadata: true };

/** A directory whose tsconfig.json sets `compilerOptions` (the project a message about the setup reads). */
function projectWith(compilerOptions: object): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-setup-'));
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions }));
  return dir;
}

/** Runs `body` with the working directory in `dir`, then removes `dir`. */
function inDirectory(dir: string, body: () => void): void {
  const before = process.cwd();
  process.chdir(dir);
  try {
    body();
  } finally {
    process.chdir(before);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('setup mistakes say what to do', () => {
  beforeEach(() => isolatedRegistry());

  describe('experimentalDecorators off (TC39 standard decorators)', () => {
    const standard = { experimentalDecorators: false, emitDecoratorMetadata: false };
    const fix =
      'was applied as a standard (TC39) decorator, and toolwright uses TypeScript\'s legacy decorators (as class-validator, ' +
      'class-transformer and tsyringe do). Set "experimentalDecorators": true and "emitDecoratorMetadata": true in the ' +
      'compilerOptions of your tsconfig.json.';

    it.each([
      ['a class decorator', `@Tool() export class Search { call() { return 1; } }`, `@Tool on class Search ${fix}`],
      [
        'a method decorator (the first one to run)',
        `export class Search { @Expects({ q: String }) call(input: { q: string }) { return input; } }`,
        `@Expects on method call ${fix}`,
      ],
      [
        'a method tool',
        `export class Service { @Tool() find(input: unknown) { return input; } }`,
        `@Tool on method find ${fix}`,
      ],
      ['a field decorator', `export class Dto { @Field() name!: string; }`, `@Field on field name ${fix}`],
      ['an ambient field', `export class Dto { @AmbientContext() officer!: string; }`, `@AmbientContext on field officer ${fix}`],
    ])('%s is refused at decoration with the compiler options to set', (_, body, message) => {
      const source = `import { AmbientContext, Expects, Field, Tool } from 'toolwright';\n${body}`;
      expect(() => compileAndRun(source, standard)).toThrow(new TypeError(message));
    });

    it('the same source compiled with legacy decorators is accepted (the check looks at the call shape only)', () => {
      const source = `import { Expects, Tool } from 'toolwright';\n@Tool() export class Search { @Expects({ q: String }) call(input: { q: string }) { return input; } }`;
      expect(() => compileAndRun(source, LEGACY)).not.toThrow();
    });
  });

  describe('emitDecoratorMetadata off', () => {
    const source = `
      import { Expects, Field, Tool } from 'toolwright';
      export class Order { @Field() item!: string; @Field() quantity!: number; }
      @Tool() @Expects(Order) export class PlaceOrder { call(input: Order) { return input; } }`;

    it('a field whose type only design:type could give says the metadata is missing and how to enable it', () => {
      const { PlaceOrder } = compileAndRun(source, { experimentalDecorators: true, emitDecoratorMetadata: false });
      inDirectory(projectWith({ experimentalDecorators: true }), () =>
        expect(() => inputSchema(PlaceOrder as Function)).toThrow(
          new TypeError(
            'Order.item: the type of this property is not visible: Order has no TypeScript type metadata on any property: it was ' +
              'compiled without emitDecoratorMetadata. Fix: set "experimentalDecorators": true and "emitDecoratorMetadata": true in ' +
              'the compilerOptions of your tsconfig.json.',
          ),
        ),
      );
    });

    it('when the tsconfig.json already sets it (through extends too), the message blames the compiler and names what works', () => {
      const { PlaceOrder } = compileAndRun(source, { experimentalDecorators: true, emitDecoratorMetadata: false });
      const dir = projectWith({});
      fs.writeFileSync(path.join(dir, 'base.json'), '{ "compilerOptions": { /* as tsc reads it */ "emitDecoratorMetadata": true, }, }');
      fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ extends: './base.json', compilerOptions: { experimentalDecorators: true } }));
      const file = path.join(fs.realpathSync(dir), 'tsconfig.json');
      inDirectory(dir, () =>
        expect(() => inputSchema(PlaceOrder as Function)).toThrow(
          `Order has no TypeScript type metadata on any property, and ${file} sets "emitDecoratorMetadata": true: it was compiled by a ` +
            'tool that drops decorator metadata (tsx, esbuild, Vite, Bun, Vitest without a plugin…',
        ),
      );
    });

    it('compiled with it on, the same tool derives its schema', () => {
      const { PlaceOrder } = compileAndRun(source, LEGACY);
      expect(Object.keys(inputSchema(PlaceOrder as Function).properties as object)).toEqual(['item', 'quantity']);
    });

    it('one property reflection cannot see, among others it can, keeps its own message', () => {
      const { Bad } = compileAndRun(
        `import { Expects, Field, Tool } from 'toolwright';
         export class Dto { @Field() name!: string; @Field() nothing!: undefined; }
         @Tool() @Expects(Dto) export class Bad { call(input: Dto) { return input; } }`,
        LEGACY,
      );
      expect(() => inputSchema(Bad as Function)).toThrow(
        "Dto.nothing: reflection cannot see this property's type (a circular reference, or a class declared after it is used).",
      );
    });
  });

  describe('reflect-metadata loaded after the classes were declared', () => {
    // Run from a project whose tsconfig.json does not set emitDecoratorMetadata (the repository's own sets it).
    const run = async (...args: string[]) => {
      const cwd = projectWith({ experimentalDecorators: true });
      try {
        const { stdout } = await promisify(execFile)(
          process.execPath,
          ['-r', require.resolve('ts-node/register/transpile-only'), '-r', require.resolve('tsconfig-paths/register'), path.join(repo, 'test/fixtures/setup/late-reflect-metadata.ts'), ...args],
          { cwd, env: { ...process.env, TS_NODE_PROJECT: path.join(repo, 'tsconfig.json') } },
        );
        return stdout;
      } finally {
        fs.rmSync(cwd, { recursive: true, force: true });
      }
    };

    it('names reflect-metadata and the fix', async () => {
      expect(await run()).toBe(
        "error: Greeting.name: the type of this property is not visible: Greeting has no TypeScript type metadata on any property: " +
          "reflect-metadata was not loaded when it was declared (toolwright loaded it later). Fix: import 'reflect-metadata' once, " +
          'before any decorated class is loaded, at the top of your entry point; and set "experimentalDecorators": true and ' +
          '"emitDecoratorMetadata": true in the compilerOptions of your tsconfig.json.',
      );
    });

    it('imported first, the same program works', async () => {
      expect(JSON.parse(await run('early')).properties).toEqual({ name: { type: 'string', minLength: 1 }, times: { type: 'number' } });
    });

    it('a class declared after toolwright loaded it, without metadata, is blamed on emitDecoratorMetadata instead', async () => {
      expect(await run('emit-off')).toBe(
        'error: Order.quantity: the type of this property is not visible: Order has no TypeScript type metadata on any property: it was ' +
          'compiled without emitDecoratorMetadata (or, for this one property, its type is a class declared after it is used). Fix: set ' +
          '"experimentalDecorators": true and "emitDecoratorMetadata": true in the compilerOptions of your tsconfig.json.',
      );
    });
  });

  describe('serveHttp on a port in use', () => {
    let blocker: Server;
    let port: number;
    beforeEach(async () => {
      blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
      port = (blocker.address() as { port: number }).port;
    });
    afterEach(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

    it('names host:port and suggests port: 0, keeping the code and the cause', async () => {
      Tools.registerAdapter('mcp');
      const attempt = serveHttp({ name: 'busy', version: '1.0.0', tools: [] }, { port });
      await expect(attempt).rejects.toThrow(
        `serveHttp: 127.0.0.1:${port} is already in use (another server, or an earlier run still listening). Stop that process, ` +
          'choose another port, or pass port: 0 to let the system pick a free one (the handle’s url says which).',
      );
      await expect(attempt).rejects.toMatchObject({ code: 'EADDRINUSE', cause: { code: 'EADDRINUSE' } });
    });
  });
});
