import * as fs from 'node:fs';
import Module, * as modules from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esmHooks from './typescript/esm-hooks';
import { mapPath, typeScriptSource } from './typescript/resolve';
import { compileTypeScript, loadSwc, locateSwc } from './typescript/swc';
import { CompilerSettings, readCompilerSettings } from './typescript/tsconfig';

export { isEsModule, isTypeScript } from './typescript/resolve';
export { SYNTAX_ERROR_PREFIX } from './typescript/swc';

/** A real `import()` (TypeScript would compile `import()` to `require()` for CommonJS output). */
export const importModule = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

/** Node's CommonJS loader internals the `require` hook extends. */
interface ModuleInternals {
  _extensions: Record<string, (module: { _compile(code: string, file: string): void }, file: string) => void>;
  _resolveFilename(request: string, parent: { filename?: string | null } | undefined, isMain: boolean, options?: object): string;
}

let loader: { swc: string; settings: CompilerSettings; esm: boolean } | undefined;

/**
 * `require` compiles .ts/.tsx/.cts with SWC; what Node cannot resolve may be a tsconfig `paths`
 * alias or `./x.js` → `./x.ts`. A specifier Node resolves stays Node's (a `paths` entry for
 * toolwright, as this repository has, must not load a second copy of it).
 */
function registerRequireHook(swcLocation: string, settings: CompilerSettings): void {
  const swc = loadSwc(swcLocation);
  const internals = Module as unknown as ModuleInternals;
  for (const ext of ['.ts', '.tsx', '.cts']) {
    internals._extensions[ext] = (module, file) =>
      module._compile(compileTypeScript(swc, fs.readFileSync(file, 'utf8'), file, false, settings), file);
  }
  const original = internals._resolveFilename;
  internals._resolveFilename = function (request, parent, isMain, options) {
    try {
      return original.call(this, request, parent, isMain, options);
    } catch (error) {
      // What Node cannot resolve: a `paths` alias, or `./x.js` that is `./x.ts` before compilation.
      const source =
        mapPath(request, settings.paths) ??
        (parent?.filename && request.startsWith('.') ? typeScriptSource(path.resolve(path.dirname(parent.filename), request)) : undefined);
      if (source) return source;
      throw error;
    }
  };
}

/**
 * Lets Node load the project's TypeScript, whatever TypeScript the project has (5, 7, or none): the
 * project's `@swc/core` compiles each file as TypeScript's `experimentalDecorators` and
 * `emitDecoratorMetadata` would, so `@Field()` reads `design:type` (as NestJS's SWC builder does).
 * CommonJS through a `require` hook, ES modules through Node's module hooks. Throws a one-line
 * message naming what to install when `@swc/core` is not there.
 */
export function registerTypeScript(root: string, file: string, esm: boolean): void {
  if (!loader) {
    const swc = locateSwc(root, file);
    const settings = readCompilerSettings(root);
    process.setSourceMapsEnabled(true);
    registerRequireHook(swc, settings);
    loader = { swc, settings, esm: false };
  }
  if (esm && !loader.esm) {
    const data: esmHooks.HookData = { swc: loader.swc, settings: loader.settings };
    // registerHooks (Node 22.15 and later) runs the hooks in this thread; register (deprecated from
    // Node 26, DEP0205, which would print a warning) loads them on a loader thread.
    const { registerHooks } = modules as { registerHooks?: (hooks: { resolve: typeof esmHooks.resolve; load: typeof esmHooks.load }) => unknown };
    if (registerHooks) {
      esmHooks.initialize(data);
      registerHooks({ resolve: esmHooks.resolve, load: esmHooks.load });
    } else {
      modules.register(pathToFileURL(path.join(__dirname, 'typescript', 'esm-hooks.js')).href, { data });
    }
    loader.esm = true;
  }
}
