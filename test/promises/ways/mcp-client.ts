/**
 * An MCP way in seen from a real SDK 2.x Client: one client per caller (its token is the caller's
 * name), pinned to 2026-07-28 or speaking 2025-11-25, answering every approval question with the
 * answer of the call in progress. Used for every server that speaks MCP: serveHttp in session and
 * stateless mode, stdio, mounts, and toolwright/nest.
 */
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import type { Caller } from '../../fixtures/promises/members';
import type { Answer, Harness, Kind, Outcome, Runs } from '../harness';

export type Revision = '2025-11-25' | '2026-07-28';

export interface McpClientWay {
  revision: Revision;
  /** A transport to the server for `caller` (HTTP with its token, or a stdio child of its own). */
  transport(caller: Caller): Transport | Promise<Transport>;
  /** What ran, when this process can read it; otherwise the `ledger` tool answers it. */
  runs?(): Promise<Runs>;
  /** Each caller has a server of its own (stdio): what ran is the sum of their ledgers. */
  serverPerCaller?: boolean;
  observed(): Promise<string>;
  close(): Promise<void>;
  crossIdentity?: Harness['crossIdentity'];
}

/** The text a caller reads from a tool result: its content's text, or its structured content. */
export function resultText(result: { content?: unknown; structuredContent?: unknown }): string {
  const parts = ((result.content as Array<{ type: string; text?: string }>) ?? []).map((part) => part.text ?? JSON.stringify(part));
  return [...parts, ...(result.structuredContent === undefined ? [] : [JSON.stringify(result.structuredContent)])].join('\n');
}

const failed = (error: unknown): string => `error: ${error instanceof Error ? error.message : String(error)}`;

export function mcpHarness(way: McpClientWay): Harness {
  const clients = new Map<Caller, Promise<Client>>();
  let answer: Answer = 'deny';
  let questions: string[] = [];

  const client = (caller: Caller): Promise<Client> => {
    let made = clients.get(caller);
    if (!made) {
      made = (async () => {
        const negotiation = way.revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' as const } } } : {};
        const created = new Client({ name: `matrix-${caller}`, version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, ...negotiation });
        created.setRequestHandler('elicitation/create', async (request) => {
          const params = request.params as { message: string; requestedSchema?: unknown };
          questions.push(`${params.message}\n${JSON.stringify(params.requestedSchema ?? {})}`);
          return answer === 'approve' ? { action: 'accept', content: { approve: true } } : { action: 'decline' };
        });
        await created.connect(await way.transport(caller));
        return created;
      })();
      clients.set(caller, made);
    }
    return made;
  };

  const harness: Harness = {
    async call(name, args, options): Promise<Outcome> {
      answer = options.answer;
      questions = [];
      try {
        const result = await (await client(options.caller)).callTool({ name, arguments: args });
        return { ok: result.isError !== true, text: resultText(result as never), questions };
      } catch (error) {
        return { ok: false, text: failed(error), questions };
      }
    },
    async list(kind: Exclude<Kind, 'completion'>, caller) {
      const c = await client(caller);
      if (kind === 'tool') return (await c.listTools()).tools.map((tool) => tool.name);
      if (kind === 'resource') return (await c.listResources()).resources.map((resource) => resource.uri);
      if (kind === 'resource-template') return (await c.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate);
      return (await c.listPrompts()).prompts.map((prompt) => prompt.name);
    },
    async use(kind, target, caller) {
      const c = await client(caller);
      try {
        if (kind === 'resource' || kind === 'resource-template') return JSON.stringify((await c.readResource({ uri: target })).contents);
        if (kind === 'prompt') return JSON.stringify((await c.getPrompt({ name: target, arguments: { topic: 'pay' } })).messages);
        const completed = await c.complete({ ref: { type: 'ref/prompt', name: target }, argument: { name: 'topic', value: 'pay' } });
        return JSON.stringify(completed.completion.values);
      } catch (error) {
        return failed(error);
      }
    },
    async subscribe(uri, caller) {
      const c = await client(caller);
      try {
        if (way.revision === '2025-11-25') return JSON.stringify(await c.subscribeResource({ uri }));
        const subscription = await c.listen({ resourceSubscriptions: [uri] } as never);
        const honored = JSON.stringify(subscription.honoredFilter);
        await subscription.close();
        return `honored ${honored}`;
      } catch (error) {
        return failed(error);
      }
    },
    async runs() {
      if (way.runs) return way.runs();
      const total: Runs = { pay: 0, vault: 0, reset: 0, users: [] };
      for (const made of way.serverPerCaller ? clients.values() : [client('reader')]) {
        const ran = (await (await made).callTool({ name: 'ledger', arguments: {} })).structuredContent as unknown as Runs;
        total.pay += ran.pay;
        total.vault += ran.vault;
        total.reset += ran.reset;
        total.users.push(...ran.users);
      }
      return total;
    },
    observed: () => way.observed(),
    async close() {
      for (const made of clients.values()) await (await made).close().catch(() => undefined);
      await way.close();
    },
  };
  if (way.crossIdentity) harness.crossIdentity = way.crossIdentity;
  return harness;
}

/** An HTTP transport to `url` carrying `caller`'s token. */
export const httpTransport = (url: string) => (caller: Caller) =>
  new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${caller}` } } });
