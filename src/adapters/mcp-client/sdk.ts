import { SetupError } from '../../index';
import { requirePeers } from '../../adapter-kit/internal';
/**
 * The MCP SDK's client (`@modelcontextprotocol/client` 2.x, an optional peer), loaded only when a
 * remote server is mounted (or its environment computed), so `toolwright/openai` needs it only for
 * remote tools.
 */
export interface Sdk {
  Client: typeof import('@modelcontextprotocol/client').Client;
  StreamableHTTPClientTransport: typeof import('@modelcontextprotocol/client').StreamableHTTPClientTransport;
  SdkError: typeof import('@modelcontextprotocol/client').SdkError;
  SdkErrorCode: typeof import('@modelcontextprotocol/client').SdkErrorCode;
  ProtocolError: typeof import('@modelcontextprotocol/client').ProtocolError;
  StdioClientTransport: typeof import('@modelcontextprotocol/client/stdio').StdioClientTransport;
  getDefaultEnvironment: typeof import('@modelcontextprotocol/client/stdio').getDefaultEnvironment;
  /** The OAuth client (see ./oauth). */
  auth: typeof import('@modelcontextprotocol/client').auth;
  extractWWWAuthenticateParams: typeof import('@modelcontextprotocol/client').extractWWWAuthenticateParams;
  computeScopeUnion: typeof import('@modelcontextprotocol/client').computeScopeUnion;
  isStrictScopeSuperset: typeof import('@modelcontextprotocol/client').isStrictScopeSuperset;
  createPrivateKeyJwtAuth: typeof import('@modelcontextprotocol/client').createPrivateKeyJwtAuth;
  DpopSession: typeof import('@modelcontextprotocol/client').DpopSession;
  withDpopFromProvider: typeof import('@modelcontextprotocol/client').withDpopFromProvider;
}

/** The package remote servers need, named in the SetupError when it is missing. */
export const CLIENT_PACKAGE = '@modelcontextprotocol/client';

let sdk: Promise<Sdk> | undefined;

export function loadSdk(): Promise<Sdk> {
  sdk ??= Promise.resolve()
    .then(() => requirePeers('toolwright/mcp-client (connecting to an MCP server)', [CLIENT_PACKAGE]))
    .then(() => Promise.all([import('@modelcontextprotocol/client'), import('@modelcontextprotocol/client/stdio')]))
    .then(
      ([client, stdio]) => ({
        Client: client.Client,
        StreamableHTTPClientTransport: client.StreamableHTTPClientTransport,
        SdkError: client.SdkError,
        SdkErrorCode: client.SdkErrorCode,
        ProtocolError: client.ProtocolError,
        StdioClientTransport: stdio.StdioClientTransport,
        getDefaultEnvironment: stdio.getDefaultEnvironment,
        auth: client.auth,
        extractWWWAuthenticateParams: client.extractWWWAuthenticateParams,
        computeScopeUnion: client.computeScopeUnion,
        isStrictScopeSuperset: client.isStrictScopeSuperset,
        createPrivateKeyJwtAuth: client.createPrivateKeyJwtAuth,
        DpopSession: client.DpopSession,
        withDpopFromProvider: client.withDpopFromProvider,
      }),
      (error: Error) => {
        sdk = undefined;
        if (error instanceof SetupError) throw error; // not installed: named by requirePeers
        throw new SetupError(
          `Mounting remote MCP servers needs ${CLIENT_PACKAGE} 2.x; install it (npm install ${CLIENT_PACKAGE}). ${error.message}`,
        );
      },
    );
  return sdk;
}
