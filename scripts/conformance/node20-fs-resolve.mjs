// Resolve hook (see node20-fs-hook.mjs): 'fs' imported from the conformance package -> the shim.
const SHIM = new URL('./fs-with-glob.mjs', import.meta.url).href;
const SUITE = '/node_modules/@modelcontextprotocol/conformance/';

export async function resolve(specifier, context, nextResolve) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes(SUITE)) {
    return { url: SHIM, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
