/**
 * The MCP ways in: serveHttp in session and stateless mode (2025-11-25) and 2026-07-28 on the same
 * endpoint, serveStdio, a local mount and remote mounts, each seen through mcp-client.ts.
 */
import * as path from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { serveHttp, type McpHttpHandle } from 'toolwright/mcp';
import { admitMcpServer, McpSecurityPolicy } from 'toolwright/mcp-client';
import {
  AdminReset,
  AuditPrompt,
  AuditTopics,
  COMPLETIONS,
  ledger,
  mcpAuth,
  PROMPTS,
  RESOURCES,
  SecretNote,
  TOOLS,
  VaultItem,
  type Caller,
} from '../../fixtures/promises/members';
import { matrixServerOptions } from '../../fixtures/promises/server-options';
import type { Harness, Runs } from '../harness';
import { Observer } from '../observer';
import { httpTransport, mcpHarness, type McpClientWay, type Revision } from './mcp-client';
import { probeSession } from './session-probe';

const runs = async (): Promise<Runs> => ({ ...ledger, users: [...ledger.users] });
const repo = path.resolve(__dirname, '..', '..', '..');

/** The harness of servers in this process: `handles[0]` is the one clients reach; all close with it. */
function inProcess(observer: Observer, revision: Revision, handles: readonly McpHttpHandle[], more: Partial<McpClientWay> = {}): Harness {
  return mcpHarness({
    revision,
    transport: httpTransport(handles[0].url),
    runs,
    observed: async () => observer.text(),
    close: async () => {
      observer.stop();
      for (const handle of handles) await handle.close();
    },
    ...more,
  });
}

/** serveHttp with every member, on a free port, seen by `revision`'s client. */
export async function httpWay(revision: Revision, stateless = false): Promise<Harness> {
  const observer = new Observer().start();
  const handle = await serveHttp(matrixServerOptions(observer.invoker()), { port: 0, stateless, auth: mcpAuth });
  const sessions = revision === '2025-11-25' && !stateless;
  return inProcess(observer, revision, [handle], sessions ? { crossIdentity: () => probeSession(handle.url, 'admin', 'reader') } : {});
}

/** serveStdio in a child process per caller; what it wrote to stderr is what an operator reads. */
export async function stdioWay(): Promise<Harness> {
  const stderr: string[] = [];
  return mcpHarness({
    revision: '2025-11-25',
    transport: (caller: Caller) => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', path.join(repo, 'test', 'fixtures', 'promises', 'stdio-server.ts')],
        cwd: repo,
        env: { ...(process.env as Record<string, string>), CALLER: caller },
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
      return transport;
    },
    serverPerCaller: true,
    observed: async () => stderr.join(''),
    close: async () => undefined,
  });
}

/** Every member mounted locally under the namespace `loc`; tools and prompts are served as `loc_<name>`. */
export async function localMountWay(): Promise<Harness> {
  const observer = new Observer().start();
  const { tools, resources, prompts, completions, ...rest } = matrixServerOptions(observer.invoker());
  const handle = await serveHttp(
    { ...rest, tools: [], mounts: [{ namespace: 'loc', tools: tools!, resources: resources!, prompts: prompts!, completions: completions! }] },
    { port: 0, auth: mcpAuth },
  );
  return { ...inProcess(observer, '2026-07-28', [handle]), rename: (name) => `loc_${name}` };
}

/**
 * Two remote toolwright servers over HTTP, mounted: `pub` with the members anyone may see, `adm` with
 * the admin ones, tagged `admin` on the gateway (a remote declares no tags; it sees the gateway as
 * its one caller, so the gateway's rule decides who sees the mounts).
 */
export async function remoteMountWay(): Promise<Harness> {
  const observer = new Observer().start();
  const admin = new Set<object>([AdminReset, SecretNote, VaultItem, AuditPrompt, AuditTopics]);
  const members = (isAdmin: boolean) => {
    const pick = <T extends object>(list: readonly T[]) => list.filter((member) => admin.has(member) === isAdmin);
    return { tools: pick(TOOLS), resources: pick(RESOURCES), prompts: pick(PROMPTS), completions: pick(COMPLETIONS) };
  };
  const remotes: McpHttpHandle[] = [
    await serveHttp(matrixServerOptions(observer.invoker(), members(false), 'gateway'), { port: 0 }),
    // The admin remote sees the gateway as an admin: the gateway's rule decides who sees the mount.
    await serveHttp(matrixServerOptions(observer.invoker(), members(true), 'admin'), { port: 0 }),
  ];
  const urls = new McpSecurityPolicy({ allowUrls: true, allowPlainHttpOnLoopback: true, hostAllowlist: ['127.0.0.1'] });
  const gateway = await serveHttp(
    {
      ...matrixServerOptions(observer.invoker(), { tools: [], resources: [], prompts: [], completions: [] }),
      mounts: [
        { namespace: 'pub', server: admitMcpServer('pub', { url: remotes[0].url }, { security: urls }) },
        { namespace: 'adm', server: admitMcpServer('adm', { url: remotes[1].url }, { security: urls }), tags: ['admin'] },
      ],
    },
    { port: 0, auth: mcpAuth },
  );
  return { ...inProcess(observer, '2026-07-28', [gateway, ...remotes]), rename: (name) => `${['admin_reset', 'audit_prompt'].includes(name) ? 'adm' : 'pub'}_${name}` };
}
