/**
 * Tries an MCP 2025-11-25 session as another caller: what the session answers its owner, another
 * caller, and what an unknown session answers that other caller (a POST and a DELETE each).
 */
import { randomUUID } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

async function send(url: string, method: 'POST' | 'DELETE', token: string, session: string): Promise<string> {
  const response = await fetch(url, {
    method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
    },
    ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }) } : {}),
  });
  return `${response.status} ${(await response.text()).split(session).join('<session>')}`;
}

/** `owner` opens a session at `url`; `other` tries it (POST, then DELETE); the same against an unknown session. */
export async function probeSession(url: string, owner: string, other: string): Promise<{ own: string; other: string; unknown: string }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${owner}` } } });
  const client = new Client({ name: 'owner', version: '1.0.0' });
  await client.connect(transport);
  const session = transport.sessionId!;
  try {
    const unknown = randomUUID();
    const asOther = `${await send(url, 'POST', other, session)} | ${await send(url, 'DELETE', other, session)}`;
    const asUnknown = `${await send(url, 'POST', other, unknown)} | ${await send(url, 'DELETE', other, unknown)}`;
    const own = await send(url, 'POST', owner, session);
    return { own, other: asOther, unknown: asUnknown.split(unknown).join('<session>') };
  } finally {
    await client.close().catch(() => undefined);
  }
}
