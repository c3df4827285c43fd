import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CliError } from './cli-error';

export function isTypeScript(file: string): boolean {
  return ['.ts', '.tsx', '.mts', '.cts'].includes(path.extname(file)) && !file.endsWith('.d.ts');
}

function resolveFrom(root: string, request: string): string | undefined {
  try {
    return require.resolve(request, { paths: [root] });
  } catch {
    return undefined;
  }
}

type Hook = 'ts-node' | 'tsx';
const registered = new Set<Hook>();

function registerTsNode(root: string): boolean {
  const tsNode = resolveFrom(root, 'ts-node');
  if (!tsNode) return false;
  // transpile-only: type checking is the compiler's job (tsc), not the command's; the project's
  // tsconfig.json (decorators, their metadata) applies.
  (require(tsNode) as { register(options: object): unknown }).register({ transpileOnly: true, projectSearchDir: root });
  return true;
}

/** A real `import()` (TypeScript would compile `import()` to `require()` for CommonJS output). */
export const importModule = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

async function registerTsx(root: string): Promise<boolean> {
  const cjs = resolveFrom(root, 'tsx/cjs/api');
  const manifest = resolveFrom(root, 'tsx/package.json');
  if (!cjs || !manifest) return false;
  (require(cjs) as { register(): unknown }).register();
  // The ES module API through import(): its CommonJS build resolves its hooks from the wrong directory.
  const entries = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports;
  const esm = path.join(path.dirname(manifest), entries['./esm/api'].import.default);
  ((await importModule(pathToFileURL(esm).href)) as { register(): unknown }).register();
  return true;
}

/**
 * Lets Node load the project's TypeScript through the project's own hook. CommonJS: ts-node first
 * (it emits the decorator metadata `@Field()` reads), then tsx. ES modules: tsx (ts-node's ESM
 * loader needs a Node flag), whose esbuild emits no decorator metadata, so fields there declare
 * their `type`. Throws a one-line message naming what to install when neither is there.
 */
export async function registerTypeScript(root: string, file: string, esm: boolean): Promise<Hook> {
  const order: Hook[] = esm ? ['tsx'] : ['ts-node', 'tsx'];
  for (const hook of order) if (registered.has(hook)) return hook;
  for (const hook of order) {
    if (hook === 'ts-node' ? registerTsNode(root) : await registerTsx(root)) {
      registered.add(hook);
      return hook;
    }
  }
  const name = path.relative(process.cwd(), file) || file;
  throw new CliError(
    esm
      ? `${name} is a TypeScript ES module: install tsx in the project (npm install --save-dev tsx) so the command can load it.`
      : `${name} is TypeScript: install ts-node (npm install --save-dev ts-node) or tsx in the project so the command can load it.`,
  );
}
