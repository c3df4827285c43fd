import { declareRejectOpaqueExposedValues, defineAdapterConfig } from '../../index';

/**
 * The MCP adapter's settings. `presentAs` and `title` can be set per tool:
 * `@Tool({ adapters: { mcp: { presentAs: 'message', title: 'Approve a loan' } } })`.
 */
export const McpConfig = defineAdapterConfig('mcp', {
  /** `structured`: the text block is the JSON of the exposed values; `message`: the tool's message. */
  presentAs: { default: 'structured' as 'structured' | 'message', oneOf: ['structured', 'message'], overridable: true },
  /** The human-readable title clients show (falls back to `@Tool({ title })`). */
  title: {
    default: undefined as string | undefined,
    validate: (value: string | undefined) =>
      value === undefined || (typeof value === 'string' && value.trim() !== '') || 'must be a non-empty string',
    overridable: true,
  },
  /** A model is usually better served by an ugly honest rendering than by a failed call. */
  ...declareRejectOpaqueExposedValues({ default: false }),
});
