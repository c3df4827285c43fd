/**
 * The MCP SDK 2.x packages publish their types only through package.json "exports", which this
 * project's node10 module resolution does not read: their CommonJS declarations, named here for
 * type checking. (Compiled code and consumers resolve the packages as Node does.)
 */
declare module '@modelcontextprotocol/server' {
  export * from '@modelcontextprotocol/server/dist/index.cjs';
}

declare module '@modelcontextprotocol/server/stdio' {
  export * from '@modelcontextprotocol/server/dist/stdio.cjs';
}
