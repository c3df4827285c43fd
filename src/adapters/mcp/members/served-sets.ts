import type { McpServedCompletions, McpServedPrompts, McpServedResources } from './member-entries';
import type { McpServedTools } from './served-tools';

/**
 * The live sets of what a server serves, shared by every SDK server it builds: add and remove members
 * at run time, and connected clients are told the list changed (`notifications/tools/list_changed`,
 * …; on MCP 2026-07-28, on the `subscriptions/listen` streams they opened).
 */
export interface McpServedSets {
  /** The tools served. */
  readonly tools: McpServedTools;
  /** The resources and resource templates served; `updated(uri)` tells subscribed clients a resource changed. */
  readonly resources: McpServedResources;
  /** The prompts served. */
  readonly prompts: McpServedPrompts;
  /** The completions served. */
  readonly completions: McpServedCompletions;
}
