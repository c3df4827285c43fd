import * as path from 'node:path';
import { CliError } from '../cli-error';
import { hasTypeMetadata, metadataImportsThroughNamespaces } from './metadata-imports';
import type { CompilerSettings } from './tsconfig';

/** The part of `@swc/core` the loader uses. */
export interface Swc {
  transformSync(source: string, options: object): { code: string };
}

/** Where `@swc/core` is in the project, or a message saying exactly what to install. */
export function locateSwc(root: string, file: string): string {
  try {
    return require.resolve('@swc/core', { paths: [root] });
  } catch {
    const name = path.relative(process.cwd(), file) || file;
    throw new CliError(
      `${name} is TypeScript: install @swc/core in the project (npm install --save-dev @swc/core) so the command can compile it with the decorator metadata toolwright reads (any TypeScript version; ts-node and tsx are not used).`,
    );
  }
}

export function loadSwc(location: string): Swc {
  return require(location) as Swc;
}

/**
 * SWC's options for one file: TypeScript's legacy decorators with `design:type` metadata (what
 * `experimentalDecorators` + `emitDecoratorMetadata` emit; esbuild and tsx emit none), class
 * fields as the project's tsconfig says, and Node 20's syntax.
 */
function optionsFor(file: string, esm: boolean, settings: CompilerSettings, metadata = true): object {
  return {
    filename: file,
    sourceMaps: 'inline',
    swcrc: false,
    configFile: false,
    module: esm ? { type: 'es6' } : { type: 'commonjs', ignoreDynamic: true, exportInteropAnnotation: true },
    jsc: {
      target: 'es2022',
      keepClassNames: true,
      parser: { syntax: 'typescript', tsx: file.endsWith('.tsx'), decorators: true, dynamicImport: true },
      transform: { legacyDecorator: true, decoratorMetadata: metadata, useDefineForClassFields: settings.useDefineForClassFields },
    },
  };
}

/**
 * SWC reports `  x message` followed by a code frame whose marker line (`   :    ^^^`) points at the
 * column, under the numbered source line. One line: `file:line:column: message`.
 */
export function describeSyntaxError(error: unknown, file: string, cwd: string): string {
  const text = error instanceof Error ? error.message : String(error);
  const lines = text.split('\n');
  const first = lines.findIndex((line) => /^\s*x\s/.test(line));
  const message = first >= 0 ? lines[first].replace(/^\s*x\s+/, '').trim() : (lines.find((line) => line.trim() !== '') ?? text).trim();
  let where = path.relative(cwd, file) || file;
  for (let i = Math.max(first, 0) + 1; i < lines.length && !/^\s*x\s/.test(lines[i]); i++) {
    const marker = /^(\s*):(\s*)\^/.exec(lines[i]);
    const source = /^\s*(\d+)\s\|/.exec(lines[i - 1] ?? '');
    if (marker && source) {
      where += `:${source[1]}:${marker[2].length}`;
      break;
    }
  }
  return `${where}: ${message}`;
}

/** Marks a compile error's message so it reads the same after crossing from the ES module hooks' thread. */
export const SYNTAX_ERROR_PREFIX = 'TypeScript syntax error at ';

export function compileTypeScript(swc: Swc, source: string, file: string, esm: boolean, settings: CompilerSettings): string {
  let code: string;
  try {
    code = swc.transformSync(source, optionsFor(file, esm, settings)).code;
  } catch (error) {
    throw new CliError(`${SYNTAX_ERROR_PREFIX}${describeSyntaxError(error, file, process.cwd())}`);
  }
  if (!esm || !hasTypeMetadata(code)) return code;
  // Which imports SWC keeps for values alone: the others it kept only for the metadata.
  const withoutMetadata = swc.transformSync(source, { ...optionsFor(file, esm, settings, false), sourceMaps: false }).code;
  return metadataImportsThroughNamespaces(code, withoutMetadata);
}
