import * as fs from 'node:fs';
import * as path from 'node:path';
import { InvalidArgumentError } from 'commander';
import { describeValue } from '../../adapter-kit';
import { isPlainObject } from '../../adapter-kit/internal';
import type { AmbientSource } from '../../index';
import { CliError } from '../cli-error';
import type { Project } from '../load-project';

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new InvalidArgumentError('a port is a whole number from 0 to 65535 (0 picks a free one).');
  return port;
}

export function packageIdentity(root: string): { name: string; version: string } {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { name?: string; version?: string };
    return { name: manifest.name ?? path.basename(root), version: manifest.version ?? '0.0.0' };
  } catch {
    return { name: path.basename(root), version: '0.0.0' };
  }
}

/** A config's `serve.<key>.server`: an options object, or a `'module#export'` the project exports it from. */
export async function configuredOptions(project: Project, key: 'mcp' | 'http'): Promise<Record<string, unknown>> {
  const configured = project.config.serve?.[key]?.server;
  const options = typeof configured === 'string' ? await project.loadExport(configured) : configured;
  if (options !== undefined && !isPlainObject(options)) {
    throw new CliError(`serve.${key}.server '${String(configured)}' must export an options object; got ${describeValue(options)}.`);
  }
  return options ?? {};
}

/**
 * `--ambient` values joined to the configured `ambientContext` function's, which are per request
 * and win. Undefined when there is neither.
 */
export function withAmbient<A extends unknown[]>(
  configured: unknown,
  flag: Record<string, unknown> | undefined,
  what: string,
): ((...args: A) => Promise<AmbientSource>) | undefined {
  if (configured !== undefined && typeof configured !== 'function') {
    throw new CliError(`${what}.ambientContext must be a function returning the ambient values; got ${describeValue(configured)}.`);
  }
  if (!configured && !flag) return undefined;
  return async (...args: A) => {
    const own = configured ? ((await (configured as (...args: A) => unknown)(...args)) as AmbientSource | undefined) : undefined;
    return { ...flag, ...(own instanceof Map ? Object.fromEntries(own) : own) };
  };
}
