import { SetupError } from '../../index';
/**
 * The MCP SDK, loaded only when a remote server is mounted (or its environment computed), so
 * `toolwright/openai` needs it only for remote tools.
 */
export interface Sdk {
  Client: typeof import('@modelcontextprotocol/sdk/client/index.js').Client;
  StdioClientTransport: typeof import('@modelcontextprotocol/sdk/client/stdio.js').StdioClientTransport;
  getDefaultEnvironment: typeof import('@modelcontextprotocol/sdk/client/stdio.js').getDefaultEnvironment;
  StreamableHTTPClientTransport: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport;
  ErrorCode: typeof import('@modelcontextprotocol/sdk/types.js').ErrorCode;
}

let sdk: Promise<Sdk> | undefined;

export function loadSdk(): Promise<Sdk> {
  sdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(
    ([client, stdio, http, types]) => ({
      Client: client.Client,
      StdioClientTransport: stdio.StdioClientTransport,
      getDefaultEnvironment: stdio.getDefaultEnvironment,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      ErrorCode: types.ErrorCode,
    }),
    (error: Error) => {
      sdk = undefined;
      throw new SetupError(
        `Mounting remote MCP servers needs @modelcontextprotocol/sdk; install it (npm install @modelcontextprotocol/sdk). ${error.message}`,
      );
    },
  );
  return sdk;
}
