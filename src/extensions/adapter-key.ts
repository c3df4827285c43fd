/** An adapter key (`mcp`, `openai`, `my-adapter`): a letter, then letters, digits, `-` and `_`. */
const ADAPTER_KEY = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** Is `value` a well-formed adapter key? The one rule for `@Tool` keys, `registerAdapter` and `defineAdapterConfig`. */
export function isAdapterKey(value: unknown): value is string {
  return typeof value === 'string' && ADAPTER_KEY.test(value);
}
