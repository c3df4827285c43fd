import { Tools } from '../../../index';
import { declareRejectOpaqueExposedValues, defineAdapterConfig, Extensions } from '../../../adapter-kit';
import { scopeListProblem } from '../auth/auth';
import { headersProblem, iconsProblem, McpToolIcon } from './tool-extras';

/** The adapter key: `@Tool('mcp')` membership, `Tools.forAdapter('mcp')`, per-adapter names. */
export const MCP_ADAPTER = 'mcp';

Tools.registerAdapter(MCP_ADAPTER);
Extensions.registerSemanticHint('openWorld', 'closedWorld');

/**
 * The MCP adapter's settings. `presentAs`, `title`, `icons`, `scopes`, `headers` and `taskSupport`
 * can be set per tool:
 * `@Tool({ adapters: { mcp: { presentAs: 'message', title: 'Approve a loan', scopes: ['loans:write'] } } })`.
 */
export const McpConfig = defineAdapterConfig(MCP_ADAPTER, {
  /** `structured`: the text block is the JSON of the exposed values; `message`: the tool's message. */
  presentAs: { default: 'structured' as 'structured' | 'message', oneOf: ['structured', 'message'], overridable: true },
  /** The human-readable title clients show (falls back to `@Tool({ title })`). */
  title: {
    default: undefined as string | undefined,
    validate: (value: string | undefined) =>
      value === undefined || (typeof value === 'string' && value.trim() !== '') || 'must be a non-empty string',
    overridable: true,
  },
  /**
   * Icons clients may show for the tool, in `tools/list` (both revisions): `[{ src, mimeType?,
   * sizes?, theme? }]`, each `src` an https: or data: URL.
   */
  icons: {
    default: undefined as readonly McpToolIcon[] | undefined,
    validate: (value: readonly McpToolIcon[] | undefined) => iconsProblem(value),
    overridable: true,
  },
  /**
   * Input fields a 2026-07-28 client sends again as HTTP headers (`{ region: 'Region' }`: the
   * `region` argument as `Mcp-Param-Region`), so proxies and gateways can route on them without
   * reading the body; the server refuses a call whose header disagrees with its body (400, -32020).
   * Top-level string, integer or boolean fields only.
   */
  headers: {
    default: undefined as Readonly<Record<string, string>> | undefined,
    validate: (value: Readonly<Record<string, string>> | undefined) => headersProblem(value),
    overridable: true,
  },
  /**
   * OAuth scopes a caller's token must grant to see and call the tool (all of them). A caller
   * without them does not find the tool in `tools/list`, and calling it answers "Unknown tool".
   * Fail-closed: a request without auth info has only the server's `unauthenticatedScopes`.
   */
  scopes: {
    default: [] as readonly string[],
    validate: (value: readonly string[]) => scopeListProblem(value) ?? true,
    overridable: true,
  },
  /**
   * Whether clients may call the tool as an MCP task (spec 2025-11-25): `forbidden` (default),
   * `optional` or `required`. A long-running tool declares `optional` or `required`, and its task
   * calls run on the queue given to `createMcpServer({ tasks: { queue } })`.
   */
  taskSupport: {
    default: 'forbidden' as 'forbidden' | 'optional' | 'required',
    oneOf: ['forbidden', 'optional', 'required'],
    overridable: true,
  },
  /** A model is usually better served by an ugly honest rendering than by a failed call. */
  ...declareRejectOpaqueExposedValues({ default: false }),
});
