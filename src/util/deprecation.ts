import { describeValue } from './describe-value';

/**
 * A deprecation helper for adapters: emits a Node `DeprecationWarning` with a code, once per
 * message. It honours `--no-deprecation` and `--throw-deprecation` as every Node deprecation does.
 *
 *   const deprecate = createDeprecator('toolwright/mcp');
 *   deprecate('TOOLWRIGHT_MCP_001', "presentAs: 'text' is deprecated; use 'message'");
 */
export function createDeprecator(source: string): (code: string, message: string) => void {
  if (typeof source !== 'string' || source.trim() === '') {
    throw new TypeError(`createDeprecator needs the name of the package or adapter; got ${describeValue(source)}.`);
  }
  const emitted = new Set<string>();
  return (code, message) => {
    if (typeof code !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(code)) {
      throw new TypeError(`deprecate: the code must be UPPER_SNAKE_CASE, e.g. TOOLWRIGHT_MCP_001; got ${describeValue(code)}.`);
    }
    const key = `${code}\u0000${message}`;
    if (emitted.has(key)) return;
    emitted.add(key);
    process.emitWarning(`${source}: ${message}`, { type: 'DeprecationWarning', code });
  };
}
