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
  sourceMap: true,
};

module.exports = {
  process(source, filename) {
    const { outputText, sourceMapText } = ts.transpileModule(source, { fileName: filename, compilerOptions });
    return { code: outputText, map: sourceMapText };
  },
  getCacheKey(source, filename) {
    return createHash('sha256').update(`${ts.version}\0${filename}\0${source}`).digest('hex');
  },
};
