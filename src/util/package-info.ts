/** This copy of toolwright's own name, version and directory, read once from its package.json. */
import * as path from 'node:path';

/** The directory of this copy of the package (the one holding its package.json). */
export const PACKAGE_DIR: string = path.resolve(__dirname, '..', '..');

const manifest = require(path.join(PACKAGE_DIR, 'package.json')) as { name: string; version: string };

export const PACKAGE_NAME: string = manifest.name;
/** The installed version of toolwright, e.g. `0.1.0`. */
export const VERSION: string = manifest.version;
