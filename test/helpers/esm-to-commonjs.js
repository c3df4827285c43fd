// A Jest transformer for dependencies that ship only ES modules (jose): TypeScript's transpiler to
// CommonJS, keeping native class fields (ts-jest would reuse the project's settings, which rewrite
// them and break classes whose constructors call super() inside an expression).
const { createHash } = require('node:crypto');
const ts = require('typescript');

const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  useDefineForClassFields: true,
  allowJs: true,
  // A default import of a CommonJS module (NestJS 12's `import symbols from 'fastify/lib/symbols.js'`) is its module.exports.
  esModuleInterop: true,
  sourceMap: true,
};

// `import.meta` has no CommonJS form: its url, filename and dirname are the module's own (NestJS 12's
// packages read `import.meta.url` to load optional dependencies, some into a module-level
// `const require`, which a CommonJS module's own `require` parameter forbids: made a `var`).
function withoutImportMeta(source) {
  if (!source.includes('import.meta')) return source;
  return source
    .replace(/\bconst require\s*=/g, 'var require =')
    .replace(/\bimport\.meta\.url\b/g, "require('node:url').pathToFileURL(__filename).href")
    .replace(/\bimport\.meta\.filename\b/g, '__filename')
    .replace(/\bimport\.meta\.dirname\b/g, '__dirname');
}

module.exports = {
  process(original, filename) {
    const source = withoutImportMeta(original);
    const { outputText, sourceMapText } = ts.transpileModule(source, { fileName: filename, compilerOptions });
    return { code: outputText, map: sourceMapText };
  },
  getCacheKey(source, filename) {
    return createHash('sha256').update(`${ts.version}\0import.meta, esModuleInterop\0${filename}\0${source}`).digest('hex');
  },
};
