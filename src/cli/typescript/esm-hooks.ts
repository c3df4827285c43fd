/**
 * Node's module customization hooks for TypeScript ES modules: `module.registerHooks` where Node
 * has it (22.15 and later; `module.register` is deprecated from Node 26, DEP0205), else
 * `module.register`, which runs them on Node's loader thread. They compile `.ts`/`.mts` with SWC (decorator metadata included), and resolve
 * what Node cannot: tsconfig `paths` aliases, and `./x.js` to `./x.ts`. A specifier Node resolves
 * stays Node's, so a project's `paths` entry for toolwright never loads a second copy of it. A TypeScript file Node loads as CommonJS goes to the
 * CommonJS loader, where the command's `require` hook compiles it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compileTypeScript, loadSwc, Swc } from './swc';
import { isEsModule, isTypeScript, mapPath, typeScriptSource } from './resolve';
import type { CompilerSettings } from './tsconfig';

export interface HookData {
  readonly swc: string;
  readonly settings: CompilerSettings;
}

interface ResolveContext {
  parentURL?: string;
}
interface LoadContext {
  conditions?: readonly string[];
}
type Resolved = { url: string; format?: string | null; shortCircuit?: boolean };
type Loaded = { format: string; source?: string | Buffer | null; shortCircuit?: boolean };

let state: { swc: Swc; settings: CompilerSettings } | undefined;

export function initialize(data: HookData): void {
  state = { swc: loadSwc(data.swc), settings: data.settings };
}

/**
 * One function for both kinds of hooks: `module.registerHooks` (Node 22.15 and later: in the
 * thread, `nextResolve` answers at once) and `module.register` (Node 20: on the loader thread,
 * `nextResolve` answers with a promise).
 */
export function resolve<R extends Resolved | Promise<Resolved>>(
  specifier: string,
  context: ResolveContext,
  nextResolve: (specifier: string, context: ResolveContext) => R,
): R | Resolved | Promise<Resolved> {
  const unresolved = (error: unknown): Resolved => {
    const found = state && findSource(specifier, context.parentURL);
    if (found) return { url: pathToFileURL(found).href, shortCircuit: true };
    throw error;
  };
  let resolved: R;
  try {
    resolved = nextResolve(specifier, context);
  } catch (error) {
    return unresolved(error);
  }
  return resolved instanceof Promise ? (resolved as Promise<Resolved>).catch(unresolved) : resolved;
}

/** What Node could not resolve: a tsconfig `paths` alias, or `./x.js` that is `./x.ts` before compilation. */
function findSource(specifier: string, parentURL: string | undefined): string | undefined {
  const mapped = mapPath(specifier, state!.settings.paths);
  if (mapped) return mapped;
  if (!parentURL?.startsWith('file:') || !(specifier.startsWith('./') || specifier.startsWith('../'))) return undefined;
  return typeScriptSource(path.resolve(path.dirname(fileURLToPath(parentURL)), specifier));
}

/** Compiles what `import` loads of the project's TypeScript; what `require` loads is the `require` hook's (typescript-loader.ts). */
export function load<L extends Loaded | Promise<Loaded>>(url: string, context: LoadContext, nextLoad: (url: string, context: LoadContext) => L): L | Loaded {
  if (!state || !url.startsWith('file:') || context.conditions?.includes('require')) return nextLoad(url, context);
  const file = fileURLToPath(url);
  if (!isTypeScript(file)) return nextLoad(url, context);
  // A CommonJS file imported by an ES module: the compiled source lets Node find its export names.
  const esm = isEsModule(file);
  const source = compileTypeScript(state.swc, fs.readFileSync(file, 'utf8'), file, esm, state.settings);
  return { format: esm ? 'module' : 'commonjs', source, shortCircuit: true };
}
