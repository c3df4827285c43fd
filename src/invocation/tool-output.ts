/**
 * What `invoke` resolves to, as a type: the awaited return type of a class tool's `call`. A
 * ToolDefinition, a method tool or another entry method name cannot be seen at the type level:
 * `unknown` (give the type explicitly: `invoke<Quote>(definition, args)`).
 */
export type ToolOutput<Tool> = Tool extends abstract new (...args: never[]) => infer I
  ? I extends { call(...args: never[]): infer R }
    ? Awaited<R>
    : unknown
  : unknown;

/** `invoke<T>(…)`'s value type: T when given explicitly, otherwise inferred from the tool. */
export type InvokeOutput<T, Tool> = [T] extends [never] ? ToolOutput<Tool> : T;
