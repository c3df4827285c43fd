/**
 * The stores that belong to the process, not to one copy of the package: the catalog, the default
 * registry `Tools`, the `Extensions` sets and the adapter-settings namespaces. npm may install a
 * second copy of toolwright (a third-party adapter that nests its own); each copy's modules would
 * then keep their own stores, and the adapter's copy would see none of the application's tools. So
 * the stores live on `globalThis` under one `Symbol.for` key (as class-validator's metadata storage
 * and TypeGraphQL's do, and as the error brand does), stamped with the version of the copy that
 * created them. A copy whose version is not compatible with that stamp (another major, or another
 * minor while the major is 0, as npm's `^` ranges read them) refuses to load, naming both copies.
 */
import { PACKAGE_DIR, VERSION } from '../util/package-info';
import { SetupError } from '../errors/declaration-errors';

/** Bumped when the shape of a store changes, so that copies which disagree on it refuse each other. */
const LAYOUT = 1;
const KEY: unique symbol = Symbol.for('toolwright.process-stores');

interface Holder {
  readonly version: string;
  readonly layout: number;
  /** The package directory of the copy that created the stores. */
  readonly path: string;
  readonly stores: Map<string, unknown>;
}

/** Compatible as npm's caret reads it: the same major, and the same minor while the major is 0. */
function compatible(a: string, b: string): boolean {
  const [majorA, minorA] = a.split('.');
  const [majorB, minorB] = b.split('.');
  return majorA === majorB && (majorA !== '0' || minorA === minorB);
}

function holder(): Holder {
  const global = globalThis as { [KEY]?: Holder };
  const existing = global[KEY];
  if (existing === undefined) {
    const created: Holder = Object.freeze({ version: VERSION, layout: LAYOUT, path: PACKAGE_DIR, stores: new Map<string, unknown>() });
    Object.defineProperty(global, KEY, { value: created, enumerable: false, writable: false, configurable: false });
    return created;
  }
  if (existing.layout !== LAYOUT || !compatible(existing.version, VERSION)) {
    throw new SetupError(
      `Two incompatible copies of toolwright are loaded in this process: ${VERSION} at ${PACKAGE_DIR}, and ${existing.version} ` +
        `at ${existing.path}, loaded first. They cannot share one registry of tools. Install one version: make toolwright a ` +
        'peerDependency of the package that brings its own copy, or align the versions and run `npm dedupe` (`npm ls toolwright` shows both).',
    );
  }
  return existing;
}

/** The process-wide store `name`, created by the first copy that asks for it. */
export function processStore<T>(name: string, create: () => T): T {
  const { stores } = holder();
  if (!stores.has(name)) stores.set(name, create());
  return stores.get(name) as T;
}
