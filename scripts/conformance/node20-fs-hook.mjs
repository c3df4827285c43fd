// Dev-only route for running @modelcontextprotocol/conformance on Node 20: the suite imports
// `globSync` from 'fs' (Node 22+). This module.register() hook maps the bare 'fs' / 'node:fs'
// import of that package only to ./fs-with-glob.mjs (node:fs plus globSync from the 'glob'
// package). Every other importer gets the real node:fs. Not shipped (scripts/ is not in "files").
import { register } from 'node:module';

if (!('globSync' in (await import('node:fs')))) {
  register('./node20-fs-resolve.mjs', import.meta.url);
}
