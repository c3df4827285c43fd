/**
 * Which file a command server runs, decided before anything starts: a bare name is looked up on
 * the parent's PATH (never the config's `env` PATH, never relative to a config `cwd`), a path is
 * taken relative to the parent's working directory. What is spawned is the absolute path found.
 */
import { accessSync, constants, statSync } from 'node:fs';
import * as path from 'node:path';

/** A bare command name: no directory part. */
export function isBareCommand(command: string): boolean {
  return !/[\\/]/.test(command);
}

function isExecutableFile(file: string, windows: boolean): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    // Windows has no execute bit: an existing file with a PATHEXT extension is runnable.
    if (!windows) accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute path of `command`, or throws a TypeError naming the server, the command and where
 * it was looked for. Relative PATH entries (`.`, empty) are skipped: they would make the result
 * depend on whichever directory the process happens to be in.
 */
export function resolveCommand(
  server: string,
  command: string,
  parent: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const windows = platform === 'win32';
  const where = `MCP server '${server}'`;
  const extensions = windows ? (parent.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((ext) => ext !== '') : [''];
  const candidates = (base: string): string[] =>
    windows && !extensions.some((ext) => base.toUpperCase().endsWith(ext.toUpperCase())) ? extensions.map((ext) => base + ext) : [base];

  if (!isBareCommand(command)) {
    const absolute = path.resolve(command);
    const found = candidates(absolute).find((file) => isExecutableFile(file, windows));
    if (found !== undefined) return found;
    throw new TypeError(
      exists(absolute)
        ? `${where}: the command '${command}' (${absolute}) is not an executable file.`
        : `${where}: the command '${command}' does not exist (looked for ${absolute}).`,
    );
  }

  // On Windows the variable may be spelled `Path`.
  const pathKey = windows ? (Object.keys(parent).find((key) => key.toUpperCase() === 'PATH') ?? 'PATH') : 'PATH';
  const entries = (parent[pathKey] ?? '').split(windows ? ';' : ':');
  const searched = entries.filter((dir) => dir !== '' && path.isAbsolute(dir));
  const skipped = entries.filter((dir) => dir !== '' && !path.isAbsolute(dir));
  const notExecutable: string[] = [];
  for (const dir of searched) {
    for (const file of candidates(path.join(dir, command))) {
      if (isExecutableFile(file, windows)) return file;
      if (exists(file)) notExecutable.push(file);
    }
  }
  const details = [
    searched.length > 0 ? `searched ${searched.join(windows ? ';' : ':')}` : 'the PATH has no absolute directories',
    ...(skipped.length > 0 ? [`skipped relative entries ${skipped.map((dir) => `'${dir}'`).join(', ')}`] : []),
    ...(notExecutable.length > 0 ? [`not executable: ${notExecutable.join(', ')}`] : []),
  ];
  throw new TypeError(
    `${where}: the command '${command}' was not found on PATH (${details.join('; ')}). Install it, or fix the PATH of this process.`,
  );
}
