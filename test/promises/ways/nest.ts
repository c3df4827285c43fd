/**
 * toolwright/nest on Express and Fastify: the matrix's members as providers of a Nest application
 * in a child process, authenticated by an endpoint guard; seen by the SDK 2.x Client on 2026-07-28,
 * and its 2025-11-25 sessions tried as another caller.
 */
import * as path from 'node:path';
import { startApp, stopApp } from '../../adapters/nest/fixtures/run-app';
import type { Harness } from '../harness';
import { httpTransport, mcpHarness } from './mcp-client';
import { probeSession } from './session-probe';

export async function nestWay(platform: 'express' | 'fastify'): Promise<Harness> {
  const running = await startApp<{ base: string }>(path.join('..', '..', '..', 'fixtures', 'promises', 'nest-app.ts'), platform);
  let stderr = '';
  running.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `${running.info.base}/mcp`;
  return mcpHarness({
    revision: '2026-07-28',
    transport: httpTransport(url),
    observed: async () => stderr,
    close: () => stopApp(running),
    crossIdentity: () => probeSession(url, 'admin', 'reader'),
  });
}
