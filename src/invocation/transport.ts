/**
 * The one name of the transport a call came through: what middleware (`call.transport`), audit
 * records, spans and metrics (`toolwright.transport`) and the tool (`context.call.transport`) all
 * read, spelled the same everywhere.
 */

/** The names transports pass: `mcp`, `openai`, `ai`, `langchain`, `agents`, `http`, `inprocess` (a direct `invoke`), or an adapter's own. */
export type TransportName = 'mcp' | 'openai' | 'ai' | 'langchain' | 'agents' | 'http' | 'inprocess' | (string & {});

/** The transport of a direct `invoke()`. */
export const IN_PROCESS: TransportName = 'inprocess';

/** A call's transport: `CallOptions.transport`, else its context's `transport`, else `inprocess`. */
export function transportOf(call: { readonly transport?: TransportName; readonly context?: { readonly transport?: string } }): TransportName {
  return call.transport ?? call.context?.transport ?? IN_PROCESS;
}
