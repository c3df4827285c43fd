/**
 * A gateway: one MCP endpoint serving its own tool, the billing team's tools (a local mount) and the
 * warehouse's MCP server (a remote mount, started as a child process once its config passed the
 * security policy). Who sees what: each token belongs to a team, and a member tagged with a team is
 * visible to that team only.
 */
import 'reflect-metadata';
import * as path from 'node:path';
import { Tool } from 'toolwright';
import { serveHttp, type McpHttpAuth, type McpHttpHandle, type McpMember, type McpRequestContext } from 'toolwright/mcp';
import { admitMcpServer, McpSecurityPolicy } from 'toolwright/mcp-client';
import { Invoice, Revenue } from './billing';

@Tool('mcp', { name: 'whoami', description: 'Which team the caller belongs to' })
class WhoAmI {
  call() {
    return 'the gateway';
  }
}

/** Development tokens and their teams (a real gateway verifies JWTs: docs/guide/mcp-auth.md). */
export const TOKENS: Readonly<Record<string, string>> = { 'finance-token': 'finance', 'ops-token': 'ops' };

const auth: McpHttpAuth = {
  verifyAccessToken: (token) =>
    token in TOKENS
      ? { token, clientId: TOKENS[token], scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600, extra: { team: TOKENS[token] } }
      : undefined,
};

/** Untagged members are everyone's; a tagged one is visible to a team it is tagged with. */
export function byTeam(member: McpMember, request: McpRequestContext): boolean {
  return member.tags.length === 0 || member.tags.includes(String(request.authInfo?.extra?.team));
}

const repo = path.resolve(__dirname, '..', '..');

export async function startGateway(port = 3000): Promise<McpHttpHandle> {
  // Checked against the policy now; nothing is started before this passes.
  const inventory = admitMcpServer(
    'inventory',
    {
      command: 'node',
      args: [
        '-r',
        'ts-node/register/transpile-only',
        '-r',
        'tsconfig-paths/register',
        path.join(repo, 'examples', 'compose', 'inventory-server.ts'),
      ],
    },
    { security: new McpSecurityPolicy({ allowCommands: true, commandAllowlist: ['node'] }) },
  );
  return serveHttp(
    {
      name: 'gateway',
      version: '1.0.0',
      tools: [WhoAmI],
      mounts: [
        { namespace: 'billing', tools: [Invoice, Revenue] },
        { namespace: 'inventory', server: inventory, tags: ['ops'], timeoutMs: 10_000 },
      ],
      visible: byTeam,
      // The warehouse's restock is destructive: the gateway asks the person first.
      invoker: { requireApprovalForDestructive: true },
    },
    { port, auth },
  );
}
