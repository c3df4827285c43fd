import * as fs from 'node:fs';
import * as path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { isPlainObject } from '../../adapter-kit/internal';
import type { McpServerOptions } from '../../adapters/mcp';
import { CliError, oneLine } from '../cli-error';
import type { Project } from '../load-project';
import { reportLoadedFiles } from './dev-child';
import { projectFrom, withProjectOptions } from '../project-options';

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new InvalidArgumentError('a port is a whole number from 0 to 65535 (0 picks a free one).');
  return port;
}

interface McpModule {
  serveHttp: typeof import('../../adapters/mcp').serveHttp;
  serveStdio: typeof import('../../adapters/mcp').serveStdio;
}

function mcpModule(): McpModule {
  try {
    return require('../../adapters/mcp') as McpModule;
  } catch (error) {
    throw new CliError(`serving MCP needs @modelcontextprotocol/sdk: npm install @modelcontextprotocol/sdk (${oneLine(error)}).`);
  }
}

function packageIdentity(root: string): { name: string; version: string } {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { name?: string; version?: string };
    return { name: manifest.name ?? path.basename(root), version: manifest.version ?? '0.0.0' };
  } catch {
    return { name: path.basename(root), version: '0.0.0' };
  }
}

/** The MCP server options: the config's `serve.mcp.server` (object or 'module#export'), else the project's name and version. */
async function mcpServerOptions(project: Project): Promise<McpServerOptions> {
  const configured = project.config.serve?.mcp?.server;
  const options = typeof configured === 'string' ? await project.loadExport(configured) : configured;
  if (options !== undefined && !isPlainObject(options)) {
    throw new CliError(`serve.mcp.server '${String(configured)}' must be McpServerOptions (an object with name and version).`);
  }
  return { ...packageIdentity(project.root), ...(options ?? {}) } as McpServerOptions;
}

interface ServeMcpOptions {
  stdio?: boolean;
  http?: boolean;
  host?: string;
  port?: number;
  path?: string;
  config?: string;
  import?: string[];
}

export async function serveMcp(options: ServeMcpOptions, onLoaded?: (project: Project) => void): Promise<void> {
  if (options.stdio && options.http) throw new CliError('pass one transport: --stdio or --http.');
  const mcp = mcpModule(); // registers the 'mcp' adapter before the project loads
  const project = await projectFrom(options);
  onLoaded?.(project);
  const serverOptions = await mcpServerOptions(project);
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

interface ServeHttpOptions {
  host?: string;
  port?: number;
  prefix?: string;
  config?: string;
  import?: string[];
}

function httpModule(): typeof import('../../adapters/http') {
  try {
    return require('../../adapters/http') as typeof import('../../adapters/http');
  } catch (error) {
    throw new CliError(`serving HTTP needs fastify: npm install fastify @fastify/swagger @fastify/swagger-ui (${oneLine(error)}).`);
  }
}

async function serveHttpApiCommand(options: ServeHttpOptions): Promise<void> {
  const http = httpModule(); // registers the 'http' adapter before the project loads
  const project = await projectFrom(options);
  const { name, version } = packageIdentity(project.root);
  const handle = await http.serveHttpApi(
    { prefix: options.prefix ?? '/api', info: { title: name, version } },
    { host: options.host ?? '127.0.0.1', port: options.port ?? 3000 },
  );
  process.stdout.write(
    `toolwright: serving ${name} over HTTP on ${handle.url} (OpenAPI at ${handle.url}/openapi.json, docs at ${handle.url}/docs)\n`,
  );
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
      .action((options: ServeMcpOptions) =>
        serveMcp(options, (project) => reportLoadedFiles(project.loadedFiles(), project.moduleDirectories())),
      ),
  );
  serve.addCommand(
    withProjectOptions(new Command('http'))
      .description('serve the http tools as a plain HTTP API with OpenAPI 3.1 and a docs page (toolwright/http)')
      .option('--host <host>', 'the interface to listen on (default 127.0.0.1)')
      .option('--port <port>', 'the port (default 3000; 0 picks a free one)', parsePort)
      .option('--prefix <prefix>', 'the path every route starts with (default /api)')
      .action((options: ServeHttpOptions) => serveHttpApiCommand(options)),
  );
  return serve;
}
