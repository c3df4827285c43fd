/**
 * The MCP requests of resources, resource templates, prompts and completions, on both protocol
 * revisions: the lists (filtered by the server's one visibility rule), and the capabilities they
 * declare (only when the server serves such members).
 */
import type { Server, ServerCapabilities, ServerContext } from '@modelcontextprotocol/server';
import type { ServedMember } from './served-members';
import type { McpServedCompletions, McpServedPrompts, McpServedResources } from './member-entries';

/** The served sets of the kinds beside tools. */
export interface MemberSets {
  readonly resources: McpServedResources;
  readonly prompts: McpServedPrompts;
  readonly completions: McpServedCompletions;
}

/**
 * Whether a request may see and use a member (../server/factory.ts decides: scopes and the server's `visible`
 * rule). A promise, so `if (!allowed(…))` without `await` does not compile.
 */
export type MemberRule = (served: ServedMember, ctx: ServerContext) => Promise<boolean>;

/** The capabilities of a server, with those of the members it serves merged in (a user's own kept). */
export function memberCapabilities(capabilities: ServerCapabilities, { resources, prompts, completions }: MemberSets): ServerCapabilities {
  return {
    ...capabilities,
    ...(resources.size > 0 ? { resources: { ...capabilities.resources, subscribe: true, listChanged: true } } : {}),
    ...(prompts.size > 0 ? { prompts: { ...capabilities.prompts, listChanged: true } } : {}),
    ...(completions.size > 0 ? { completions: { ...capabilities.completions } } : {}),
  };
}

/** The members a request may see, in the order served (the rule asked once for each, all at once). */
async function visible<Entry extends ServedMember['entry']>(
  all: Iterable<ServedMember<Entry>>,
  ctx: ServerContext,
  allowed: MemberRule,
): Promise<Entry[]> {
  const members = [...all];
  const verdicts = await Promise.all(members.map((served) => allowed(served, ctx)));
  return members.filter((_, i) => verdicts[i]).map((served) => served.entry);
}

/** `resources/list`, `resources/templates/list` and `prompts/list`, for the kinds served. */
export function handleMemberLists(server: Server, { resources, prompts }: MemberSets, allowed: MemberRule): void {
  if (resources.size > 0) {
    server.setRequestHandler('resources/list', async (_request, ctx) => ({
      resources: (await visible(resources.all(), ctx, allowed)).flatMap((entry) => (entry.resource ? [entry.resource] : [])),
    }));
    server.setRequestHandler('resources/templates/list', async (_request, ctx) => ({
      resourceTemplates: (await visible(resources.all(), ctx, allowed)).flatMap((entry) => (entry.template ? [entry.template.listed] : [])),
    }));
  }
  if (prompts.size > 0) {
    server.setRequestHandler('prompts/list', async (_request, ctx) => ({
      prompts: (await visible(prompts.all(), ctx, allowed)).map((entry) => entry.prompt),
    }));
  }
}
