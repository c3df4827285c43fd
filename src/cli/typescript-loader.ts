import * as path from 'node:path';
import { CliError } from './cli-error';

export const TYPESCRIPT_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts'];

export function isTypeScript(file: string): boolean {
  return TYPESCRIPT_EXTENSIONS.includes(path.extname(file)) && !file.endsWith('.d.ts');
}

function resolveFrom(root: string, request: string): string | undefined {
  try {
    return require.resolve(request, { paths: [root] });
  } catch {
    return undefined;
  }
}

let registered: 'ts-node' | 'tsx' | undefined;

/**
 * Lets Node load the project's TypeScript through the project's own compiler hook: ts-node first
 * (it emits the decorator metadata toolwright reads for `@Field()` types), then tsx (esbuild emits
 * no decorator metadata, so its fields need explicit `type`s). Returns which one it registered.
 */
export function registerTypeScript(root: string, forFile: string): 'ts-node' | 'tsx' {
  if (registered) return registered;
  const tsNode = resolveFrom(root, 'ts-node');
  if (tsNode) {
    // transpile-only: type checking is the compiler's job (tsc), not the command's; the project's
    // tsconfig.json (decorators, metadata) applies.
    (require(tsNode) as { register(options: object): unknown }).register({ transpileOnly: true, projectSearchDir: root });
    return (registered = 'ts-node');
  }
  const tsx = resolveFrom(root, 'tsx/cjs/api');
  if (tsx) {
    (require(tsx) as { register(): unknown }).register();
    const esm = resolveFrom(root, 'tsx/esm/api');
    if (esm) (require(esm) as { register(): unknown }).register();
    return (registered = 'tsx');
  }
  throw new CliError(
    `${path.relative(process.cwd(), forFile) || forFile} is TypeScript: install ts-node (npm install --save-dev ts-node) or tsx in the project so the command can load it.`,
  );
}
