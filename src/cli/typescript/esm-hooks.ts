/**
 * Node's module customization hooks (`module.register`) for TypeScript ES modules: they run on
 * Node's loader thread, compile `.ts`/`.mts` with SWC (decorator metadata included), and resolve
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
type Resolved = { url: string; format?: string | null; shortCircuit?: boolean };
type Loaded = { format: string; source?: string | Buffer | null; shortCircuit?: boolean };

let state: { swc: Swc; settings: CompilerSettings } | undefined;

export function initialize(data: HookData): void {
  state = { swc: loadSwc(data.swc), settings: data.settings };
}

export async function resolve(
  specifier: string,
  context: ResolveContext,
  nextResolve: (specifier: string, context: ResolveContext) => Promise<Resolved>,
): Promise<Resolved> {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const found = state && findSource(specifier, context.parentURL);
    if (found) return { url: pathToFileURL(found).href, shortCircuit: true };
    throw error;
  }
}

/** What Node could not resolve: a tsconfig `paths` alias, or `./x.js` that is `./x.ts` before compilation. */
function findSource(specifier: string, parentURL: string | undefined): string | undefined {
  const mapped = mapPath(specifier, state!.settings.paths);
  if (mapped) return mapped;
  if (!parentURL?.startsWith('file:') || !(specifier.startsWith('./') || specifier.startsWith('../'))) return undefined;
  return typeScriptSource(path.resolve(path.dirname(fileURLToPath(parentURL)), specifier));
}

export async function load(url: string, context: object, nextLoad: (url: string, context: object) => Promise<Loaded>): Promise<Loaded> {
  if (!state || !url.startsWith('file:')) return nextLoad(url, context);
  const file = fileURLToPath(url);
  if (!isTypeScript(file)) return nextLoad(url, context);
  // A CommonJS file imported by an ES module: the compiled source lets Node find its export names.
  const esm = isEsModule(file);
  const source = compileTypeScript(state.swc, fs.readFileSync(file, 'utf8'), file, esm, state.settings);
  return { format: esm ? 'module' : 'commonjs', source, shortCircuit: true };
}
