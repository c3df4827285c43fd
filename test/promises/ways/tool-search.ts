/**
 * The MCP `toolSearch` way in: serveHttp (2025-11-25 with sessions) listing no tool but
 * `search_tools`; a caller's tool list is what its searches found. A hidden tool must stay hidden
 * from search too: the reader's search never finds (so never lists) the admin's tool, the admin's does.
 */
import { serveHttp } from 'toolwright/mcp';
import { mcpAuth, ledger } from '../../fixtures/promises/members';
import { matrixServerOptions } from '../../fixtures/promises/server-options';
import type { Harness, Runs } from '../harness';
import { Observer } from '../observer';
import { httpTransport, mcpHarness } from './mcp-client';

/** Words that match every tool of the matrix's members (their names and descriptions). */
const EVERYTHING = 'pay vault whoami admin reset ledger money calling everything ran';

export async function toolSearchWay(): Promise<Harness> {
  const observer = new Observer().start();
  const handle = await serveHttp({ ...matrixServerOptions(observer.invoker()), toolSearch: { core: [], limit: 50 } }, { port: 0, auth: mcpAuth });
  const harness = mcpHarness({
    revision: '2025-11-25',
    transport: httpTransport(handle.url),
    runs: async (): Promise<Runs> => ({ ...ledger, users: [...ledger.users] }),
    observed: async () => observer.text(),
    close: async () => {
      observer.stop();
      await handle.close();
    },
  });
  const list = harness.list!;
  return {
    ...harness,
    // A caller's tools are what its search found: search for everything, then list; what the search
    // answered counts as listed too (a hidden tool named in the answer is a leak even if the list hides it).
    async list(kind, caller) {
      if (kind !== 'tool') return list(kind, caller);
      const answer = await harness.call('search_tools', { query: EVERYTHING }, { answer: 'deny', caller });
      const found = [...answer.text.matchAll(/^- ([\w.-]+)/gm)].map((match) => match[1]);
      return [...new Set([...found, ...(await list(kind, caller))])];
    },
  };
}
