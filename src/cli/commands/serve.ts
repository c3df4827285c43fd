import { Command } from 'commander';
import type { McpServerOptions } from '../../adapters/mcp';
import type { ExceptionHandler } from '../../index';
import { reportException } from '../../adapter-kit/internal';
import { missingAmbientReported, parseAmbient } from '../ambient';
import { CliError, oneLine } from '../cli-error';
import type { Project } from '../load-project';
import { reportLoadedFiles } from './dev-child';
import { projectFrom, withProjectOptions } from '../project-options';
import { serveHttpCommand } from './serve-http';
import { configuredOptions, packageIdentity, parsePort, withAmbient } from './serve-options';

interface McpModule {
  serveHttp: typeof import('../../adapters/mcp').serveHttp;
  serveStdio: typeof import('../../adapters/mcp').serveStdio;
}

function mcpModule(): McpModule {
  try {
    return require('../../adapters/mcp') as McpModule;
  } catch (error) {
    throw new CliError(
      `serving MCP needs @modelcontextprotocol/server (2.x): npm install @modelcontextprotocol/server (${oneLine(error)}).`,
    );
  }
}

/** How a served MCP tool gets an ambient value: the server's, not the model's, as the message for a missing one says. */
const SERVE_MCP_AMBIENT = `start the server with --ambient '{"KEY": …}', or return it from the ambientContext(request) of serve.mcp.server (the createMcpServer option that reads each request's authInfo or headers)`;

/**
 * The MCP server options: the config's `serve.mcp.server`, else the project's name and version;
 * `--ambient` joins its ambientContext. A call that lacks an ambient value is reported on stderr with
 * the fix for this server (the invoker's own report advises `invoke(…, { ambientContext })`), unless
 * the options set their own `invoker.onException`.
 */
async function mcpServerOptions(project: Project, ambient: Record<string, unknown> | undefined): Promise<McpServerOptions> {
  const options = await configuredOptions(project, 'mcp');
  const ambientContext = withAmbient(options.ambientContext, ambient, 'serve.mcp.server');
  const invoker = (options.invoker ?? {}) as { onException?: ExceptionHandler };
  const onException: ExceptionHandler = (error, context) => {
    const missing = invoker.onException ? undefined : missingAmbientReported(error, context.tool, SERVE_MCP_AMBIENT);
    if (missing) process.stderr.write(`toolwright: ${missing}\n`);
    else reportException(error, context, invoker.onException);
  };
  return {
    ...packageIdentity(project.root),
    ...options,
    ...(ambientContext ? { ambientContext } : {}),
    invoker: { ...invoker, onException },
  } as McpServerOptions;
}

interface ServeMcpOptions {
  ambient?: string;
  stdio?: boolean;
  http?: boolean;
  host?: string;
  port?: number;
  path?: string;
  config?: string;
  import?: string[];
}

export async function serveMcp(options: ServeMcpOptions, onLoaded?: (project: Project) => Promise<void>): Promise<void> {
  if (options.stdio && options.http) throw new CliError('pass one transport: --stdio or --http.');
  parseAmbient(options.ambient); // a malformed --ambient is refused before anything loads
  const mcp = mcpModule(); // registers the 'mcp' adapter before the project loads
  const project = await projectFrom(options);
  await onLoaded?.(project);
  const serverOptions = await mcpServerOptions(project, parseAmbient(options.ambient));
  if (options.stdio) {
    const handle = await mcp.serveStdio(serverOptions);
    process.stderr.write(`toolwright: serving ${serverOptions.name} over MCP stdio\n`);
    process.stdin.on('close', () => void handle.close());
    return;
  }
  const configured = project.config.serve?.mcp ?? {};
  const handle = await mcp.serveHttp(serverOptions, {
    host: options.host ?? configured.host ?? '127.0.0.1',
    port: options.port ?? configured.port ?? 3000,
    path: options.path ?? configured.path,
  });
  process.stdout.write(`toolwright: serving ${serverOptions.name} over MCP on ${handle.url}\n`);
  const stop = () => void handle.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

export function serveCommand(): Command {
  const serve = new Command('serve').description('serve the tools: over MCP (stdio or Streamable HTTP), or plain HTTP');
  serve.addCommand(
    withProjectOptions(new Command('mcp'))
      .description('serve the mcp tools over MCP: stdio for desktop clients, or Streamable HTTP (the default)')
      .option('--stdio', 'over stdin and stdout (what desktop clients launch)')
      .option('--http', 'over Streamable HTTP (the default)')
      .option('--host <host>', 'the interface to listen on (default 127.0.0.1, or serve.mcp.host)')
      .option('--port <port>', 'the port (default 3000, or serve.mcp.port; 0 picks a free one)', parsePort)
      .option('--path <path>', 'the endpoint path (default /mcp)')
      .option(
        '--ambient <json>',
        "trusted values for @AmbientContext fields, as a JSON object (serve.mcp.server's ambientContext adds to them per request)",
      )
      .action((options: ServeMcpOptions) =>
        serveMcp(options, (project) => reportLoadedFiles(project.loadedFiles(), project.moduleDirectories())),
      ),
  );
  serve.addCommand(serveHttpCommand());
  return serve;
}
