/**
 * The MCP SDK 2.x client publishes its types only through package.json "exports", which this
 * project's node10 module resolution does not read: its CommonJS declarations, named here for the
 * tests that drive servers with it.
 */
declare module '@modelcontextprotocol/client' {
  export * from '@modelcontextprotocol/client/dist/index.cjs';
}

declare module '@modelcontextprotocol/client/stdio' {
  export * from '@modelcontextprotocol/client/dist/stdio.cjs';
}
