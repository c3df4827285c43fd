import { ToolDefinition, ToolLike } from '../../../index';
import { describeValue } from '../../../adapter-kit';
import { McpAdapter, McpToolEntry } from './wrap';
import { DeclarationError } from '../../../index';
import { bothOf, McpServedMembers, ServedMember } from './served-members';

/** A tool to serve: a tool, or an entry from `McpAdapter.wrap`. */
export type ServableTool = ToolLike | McpToolEntry;

/** What the server answers for a tool: the entry and the scopes it needs. */
export type ServedTool = ServedMember<McpToolEntry>;

/**
 * The tools a running server serves, changeable at run time: every connected client is sent
 * `notifications/tools/list_changed` when a tool is added or removed.
 */
export class McpServedTools extends McpServedMembers<McpToolEntry, ServableTool> {
  private listing: { tools: McpToolEntry['tool'][] } | undefined;
  private anyHeaders: boolean | undefined;

  /** @internal */
  constructor(tools: readonly ServableTool[]) {
    super(
      {
        singular: 'tool',
        toEntry,
        keyOf: (entry) => entry.tool.name,
        collision: (existing, added, name) => {
          const [a, b] = bothOf(existing.definition, added.definition);
          return `Tools ${a} and ${b} are both served as '${name}'. Give one another name (wrap(tool, { name }) or @Tool({ adapters: { mcp: { name } } }))`;
        },
        notify: (server) => server.sendToolListChanged(),
      },
      tools,
    );
  }

  /**
   * Serves another tool (or replaces the one served under the same name with `{ replace: true }`),
   * and tells every connected client that the list changed.
   */
  override add(tool: ServableTool, options: { replace?: boolean } = {}): void {
    super.add(tool, options);
  }

  /** Stops serving a tool (by the name clients call, or the tool); false when it was not served. */
  override remove(tool: string | ToolLike): boolean {
    return super.remove(tool);
  }

  /** @internal Whether any tool declares input fields mirrored as Mcp-Param-* headers. */
  mirrorsHeaders(): boolean {
    return (this.anyHeaders ??= [...this.all()].some((served) =>
      Object.values((served.entry.tool.inputSchema.properties ?? {}) as Record<string, object>).some(
        (property) => 'x-mcp-header' in property,
      ),
    ));
  }

  /** @internal The unfiltered tools/list answer, built once per change. */
  list(): { tools: McpToolEntry['tool'][] } {
    return (this.listing ??= { tools: [...this.all()].map((served) => served.entry.tool) });
  }

  /** @internal */
  protected override invalidate(): void {
    super.invalidate();
    this.listing = undefined;
    this.anyHeaders = undefined;
  }
}

/** @internal A tool to serve as an entry (wrapped when it is a tool). */
export function toEntry(tool: ServableTool): McpToolEntry {
  if (isEntry(tool)) return tool;
  if (tool === null || (typeof tool !== 'function' && typeof tool !== 'object')) {
    throw new DeclarationError(`McpServedTools: expected a tool or an McpAdapter.wrap entry; got ${describeValue(tool)}.`);
  }
  return McpAdapter.wrap(tool);
}

function isEntry(value: ServableTool): value is McpToolEntry {
  return typeof value === 'object' && value !== null && 'tool' in value && 'handler' in value && !(value instanceof ToolDefinition);
}
