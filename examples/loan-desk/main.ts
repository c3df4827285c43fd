/**
 * The loan desk: enumerates its MCP tools, prints them, and serves them over Streamable HTTP on
 * 127.0.0.1:3000/mcp with the HTTP API on the same port at /api (docs at /api/docs), or over stdio
 * with --stdio.
 *
 *   npm start                       # http://127.0.0.1:3000/mcp and http://127.0.0.1:3000/api
 *   npm start -- --port 0           # a free port
 *   npm start -- --stdio            # for desktop clients (the table goes to stderr)
 *   npm start -- --auth             # every MCP and API request needs a signed Bearer token (see mint-token.ts)
 *
 * Without --auth, calls are made as the fixed development identity (LOAN_DESK_OFFICER, default
 * officer-on-duty); with it, as the token's subject.
 */
import 'reflect-metadata';
import { Tools } from 'toolwright';
import { httpApiApp } from 'toolwright/http';
import { McpHttpAuth, serveHttp, serveStdio } from 'toolwright/mcp';
import { loanDeskHttpApi, loanDeskHttpAuth } from './http-api';
import { loanDeskServer } from './server';
import './tools';
import './members';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

function table(): string {
  const tools = Tools.forAdapter('mcp', { allVersions: true }).map((tool) => [
    tool.toolName('mcp'),
    String(tool.version),
    tool.hints.join(', ') || '-',
    tool.description ?? '-',
  ]);
  // Resources, templates and prompts: what they are read or picked by, beside the tools.
  const members = (['resource', 'resource-template', 'prompt'] as const).flatMap((kind) =>
    Tools.forAdapter('mcp', { kind }).map((member) => [
      member.toolName('mcp'),
      kind,
      member.resource?.uri ?? member.inputContract.fields.map((field) => field.name).join(', '),
      member.description ?? '-',
    ]),
  );
  return [
    columns(['name', 'version', 'hints', 'description'], tools),
    columns(['name', 'kind', 'uri / arguments', 'description'], members),
  ].join('\n\n');
}

function columns(header: string[], rows: string[][]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  if (process.argv.includes('--stdio')) {
    // stdout carries the protocol: everything else goes to stderr.
    console.error(table());
    const handle = await serveStdio(loanDeskServer);
    console.error('loan-desk: serving MCP over stdio');
    process.stdin.on('close', () => void handle.close());
    return;
  }
  console.log(table());
  const port = Number(option('--port') ?? process.env.PORT ?? 3000);
  let url = '';
  // Loaded only with --auth: the quick start needs no JWT library.
  const auth: McpHttpAuth | undefined = process.argv.includes('--auth')
    ? await (await import('./auth')).loanDeskAuth(() => url)
    : undefined;
  const host = option('--host') ?? '127.0.0.1';
  // The HTTP API is a Fastify app answering every path but /mcp on the MCP server's port.
  const api = await httpApiApp(loanDeskHttpApi(auth ? loanDeskHttpAuth(auth) : undefined), { host });
  const handle = await serveHttp(loanDeskServer, { port, host, auth, otherRequests: (req, res) => api.routing(req, res) });
  url = handle.url;
  const apiUrl = handle.url.replace(/\/mcp$/, '/api');
  console.log(`\nloan-desk: serving MCP on ${handle.url} and the HTTP API on ${apiUrl} (docs: ${apiUrl}/docs) (Ctrl-C to stop)`);
  if (auth) {
    const { DEFAULT_AUDIENCE, keysDir } = await import('./auth');
    const audience = handle.url === DEFAULT_AUDIENCE ? '' : ` --audience ${handle.url}`;
    console.log(
      `loan-desk: authentication on: every request needs a Bearer token signed with the development key in ${keysDir()}.\n` +
        `  Mint one:  TOKEN=$(npm run -s loan-desk:token -- --sub officer-7 --scope "loans:read loans:write"${audience})\n` +
        `  Then send: Authorization: Bearer $TOKEN`,
    );
  }
  const stop = () => void Promise.all([handle.close(), api.close()]).then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
