/**
 * The application's global prefix (`app.setGlobalPrefix('api', { exclude })`) on toolwright's
 * endpoints, applied by Nest's own RoutePathFactory, as Nest applies it to a controller's route
 * (an `@All()` route: an `exclude` entry naming a single method does not match it).
 */
import { RequestMethod } from '@nestjs/common';
import type { ApplicationConfig } from '@nestjs/core';
// Nest 11 and 12 both ship this file (not exported from '@nestjs/core' itself).
import { RoutePathFactory } from '@nestjs/core/router/route-path-factory.js';

/**
 * Where an endpoint configured at `path` is served: under the global prefix set when the
 * application initializes (as for controllers: `setGlobalPrefix` before `init()`/`listen()`),
 * unless the prefix's `exclude` matches `path`.
 */
export function withGlobalPrefix(config: ApplicationConfig, path: string): string {
  const prefix = config.getGlobalPrefix();
  if (!prefix || typeof path !== 'string' || !path.startsWith('/')) return path; // a malformed path is refused by the endpoint's own checks
  const globalPrefix = prefix.startsWith('/') ? prefix : `/${prefix}`;
  return new RoutePathFactory(config).create({ ctrlPath: path, globalPrefix }, RequestMethod.ALL)[0] ?? path;
}
