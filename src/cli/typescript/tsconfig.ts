import * as fs from 'node:fs';
import * as path from 'node:path';
import { findTsconfig, readTsconfigOptions, TsconfigOptions } from '../../adapter-kit/internal';
import { CliError } from '../cli-error';

/** A `compilerOptions.paths` entry: `pattern` with at most one `*`, and where it maps to (absolute). */
export interface PathMapping {
  readonly prefix: string;
  readonly suffix: string;
  readonly wildcard: boolean;
  readonly targets: readonly string[];
}

/** What the command's TypeScript loader takes from the project's tsconfig.json. */
export interface CompilerSettings {
  /** The tsconfig.json read, if any. */
  readonly file?: string;
  /** Class fields as own properties (`Object.defineProperty`) or assignments in the constructor. */
  readonly useDefineForClassFields: boolean;
  readonly paths: readonly PathMapping[];
}

/** ES2022 and later define class fields (TypeScript's default follows the target). */
function definesByTarget(target: string | undefined, root: string): boolean {
  if (target !== undefined) {
    const year = /^es(\d{4})$/i.exec(target)?.[1];
    return target.toLowerCase() === 'esnext' || (year !== undefined && Number(year) >= 2022);
  }
  // No target: TypeScript 5 defaults to ES5 (assignments), 6 and later to the newest (define).
  try {
    const manifest = require.resolve('typescript/package.json', { paths: [root] });
    return Number((JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version.split('.')[0]) >= 6;
  } catch {
    return true;
  }
}

/** Reads the project's tsconfig.json; a project without one gets TypeScript's defaults. */
export function readCompilerSettings(root: string): CompilerSettings {
  const file = findTsconfig(root);
  let options: TsconfigOptions = {};
  if (file) {
    try {
      options = readTsconfigOptions(file);
    } catch (error) {
      throw new CliError(`cannot read ${file}: ${(error as Error).message}. Fix the file (JSON with comments).`);
    }
  }
  const base = options.pathsBase ?? options.baseUrl;
  const paths = Object.entries(options.paths ?? {}).map(([pattern, targets]): PathMapping => {
    const star = pattern.indexOf('*');
    return {
      prefix: star < 0 ? pattern : pattern.slice(0, star),
      suffix: star < 0 ? '' : pattern.slice(star + 1),
      wildcard: star >= 0,
      targets: targets.map((target) => path.resolve(base!, target)),
    };
  });
  return {
    file,
    useDefineForClassFields: options.useDefineForClassFields ?? definesByTarget(options.target, root),
    paths,
  };
}
